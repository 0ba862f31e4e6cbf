/* Applying a pin plan to a running (paused) QEMU. */
#include "pin/pin.h"

#include <errno.h>
#include <numa.h>
#include <string.h>

#include "common/xalloc.h"

static int bind_to_list(hwloc_topology_t topo, pid_t pid, const char *pus, int flags,
			const char *what, char **why)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	int rc = hwloc_bitmap_list_sscanf(set, pus);

	if (rc == 0)
		rc = hwloc_set_proc_cpubind(topo, pid, set, flags);
	if (rc < 0)
		*why = xasprintf("cannot bind %s (%d) to PU %s: %s", what, (int)pid, pus, strerror(errno));
	hwloc_bitmap_free(set);
	return rc;
}

int pin_apply(hwloc_topology_t topo, const struct pin_plan *plan, pid_t qemu_pid,
	      const pid_t *tids, int ntids, pid_t helper_pid, char **why)
{
	if (ntids != plan->nvcpus) {
		*why = xasprintf("QEMU reports %d vCPU threads, the plan has %d", ntids, plan->nvcpus);
		return -1;
	}
	/* The whole process first (every thread it has and will create inherits it), then
	 * each vCPU thread onto its own PU. */
	if (plan->housekeeping_pus) {
		if (bind_to_list(topo, qemu_pid, plan->housekeeping_pus, HWLOC_CPUBIND_PROCESS,
				 "QEMU", why) < 0)
			return -1;
		if (helper_pid > 0 && bind_to_list(topo, helper_pid, plan->housekeeping_pus,
						   HWLOC_CPUBIND_PROCESS, "virtiofsd", why) < 0)
			return -1;
	}
	for (int i = 0; i < ntids; i++) {
		char pu[16];
		snprintf(pu, sizeof(pu), "%d", plan->vcpus[i].pu);
		if (bind_to_list(topo, tids[i], pu, HWLOC_CPUBIND_THREAD, "a vCPU thread", why) < 0)
			return -1;
	}
	return 0;
}

int pin_bind_memory_self(const struct pin_plan *plan)
{
	struct bitmask *nodes;

	if (!plan->nodes || numa_available() < 0)
		return 0;
	nodes = numa_parse_nodestring(plan->nodes);
	if (!nodes)
		return EINVAL;
	numa_set_membind(nodes);
	numa_bitmask_free(nodes);
	return 0;
}
