/* Core claims: flock(2) on one lock file per core in the harness's own runtime folder.
 * flock rather than a pid file: the kernel drops it when the holder dies, so a killed
 * run never leaves a core claimed. */
#include "pin/pin.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "common/log.h"
#include "common/tmpdir.h"
#include "common/xalloc.h"

#define PLAN_LOCK "pin-plan.lock"

/* A lock file in the root (ours, mode 0700: hb_open_tmp_root checked it), never through a
 * link, never truncated. */
static int open_lock(int rootfd, const char *name)
{
	return openat(rootfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
}

/* Tries each core's lock (named for the OS index of the core's first PU, the same in every
 * process): a core whose lock another process holds is busy. fds[i] is
 * the held lock of a free core (-1 for a busy one). */
static void probe_cores(hwloc_topology_t topo, int rootfd, int n, bool *busy, int *fds)
{
	for (int i = 0; i < n; i++) {
		char name[48];

		snprintf(name, sizeof(name), "pin-cpu%d.lock", pin_core_first_pu(topo, i));
		fds[i] = open_lock(rootfd, name);
		busy[i] = false;
		if (fds[i] >= 0 && flock(fds[i], LOCK_EX | LOCK_NB) < 0) {
			busy[i] = errno == EWOULDBLOCK;
			close(fds[i]);
			fds[i] = -1;
		}
	}
}

/* Keeps the locks of the cores the plan's vCPUs got, drops the rest. */
static void keep_vcpu_cores(const struct pin_plan *plan, int n, int *fds, struct pin_claims *claims)
{
	claims->fds = xcalloc((size_t)(n > 0 ? n : 1), sizeof(*claims->fds));
	claims->n = 0;
	for (int i = 0; i < n; i++) {
		bool used = false;

		for (int v = 0; v < plan->nvcpus; v++)
			used |= plan->vcpus[v].core == i;
		if (used && fds[i] >= 0)
			claims->fds[claims->n++] = fds[i];
		else if (fds[i] >= 0)
			close(fds[i]);
	}
}

int pin_plan_claimed(hwloc_topology_t topo, int nvcpus, bool overcommit, struct pin_plan *plan,
		     struct pin_claims *claims, char **why)
{
	char *root_why = NULL;
	int rootfd = hb_open_tmp_root(&root_why), planfd, n = pin_count_cores(topo), rc;
	bool *busy;
	int *fds;

	*claims = (struct pin_claims){ 0 };
	planfd = rootfd < 0 ? -1 : open_lock(rootfd, PLAN_LOCK);
	if (planfd < 0 || flock(planfd, LOCK_EX) < 0) {
		hb_warn("core claims: %s; pinning without them (another run may pick the same cores)",
			root_why ? root_why : strerror(errno));
		free(root_why);
		if (planfd >= 0)
			close(planfd);
		if (rootfd >= 0)
			close(rootfd);
		return pin_plan_make(topo, nvcpus, overcommit, NULL, plan, why);
	}
	busy = xcalloc((size_t)(n > 0 ? n : 1), sizeof(*busy));
	fds = xcalloc((size_t)(n > 0 ? n : 1), sizeof(*fds));
	probe_cores(topo, rootfd, n, busy, fds);
	rc = pin_plan_make(topo, nvcpus, overcommit, busy, plan, why);
	if (rc == 0) {
		keep_vcpu_cores(plan, n, fds, claims);
	} else {
		for (int i = 0; i < n; i++)
			if (fds[i] >= 0)
				close(fds[i]);
	}
	close(planfd);
	close(rootfd);
	free(busy);
	free(fds);
	return rc;
}

void pin_claims_release(struct pin_claims *claims)
{
	for (int i = 0; i < claims->n; i++)
		close(claims->fds[i]);
	free(claims->fds);
	*claims = (struct pin_claims){ 0 };
}
