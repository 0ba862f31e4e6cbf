/* Does the kernel cache reach every node, and do its build locks? The cache's per-key
 * build lock (common/lock.c) is flock(2). Linux sends flock on NFS to the server as a
 * whole-file POSIX lock (since 2.6.12), so it holds across clients, unless the mount
 * says local_lock=flock|all or nolock; Lustre needs the "flock" mount option (localflock
 * is per client). On a local filesystem only this host's jobs find the kernels at all. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/xalloc.h"
#include "executor/slurm/slurm.h"

struct mount_facts {
	char point[PATH_MAX];
	char type[64];
	char options[2100];  /* per-mount and superblock options, comma-separated */
};

/* The mount holding path: the longest mount point that prefixes it. */
static bool find_mount(const char *path, struct mount_facts *m)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096];
	size_t best = 0;

	while (f && fgets(line, sizeof(line), f)) {
		char point[PATH_MAX], mopts[1024], type[64], sopts[1024];
		char *dash = strstr(line, " - ");
		size_t len;
		if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s %1023s", point, mopts) != 2 ||
		    sscanf(dash + 3, "%63s %*s %1023s", type, sopts) != 2)
			continue;
		len = strlen(point);
		if (strncmp(path, point, len) || (path[len] && path[len] != '/' && len > 1) || len < best)
			continue;
		best = len;
		snprintf(m->point, sizeof(m->point), "%s", point);
		snprintf(m->type, sizeof(m->type), "%s", type);
		snprintf(m->options, sizeof(m->options), "%s,%s", mopts, sopts);
	}
	if (f)
		fclose(f);
	return best > 0;
}

static bool has_option(const char *options, const char *opt)
{
	size_t n = strlen(opt);
	for (const char *p = options; (p = strstr(p, opt)); p += n)
		if ((p == options || p[-1] == ',') && (p[n] == ',' || p[n] == 0))
			return true;
	return false;
}

void slurm_check_cache(const char *cache)
{
	static const char *const local[] = { "ext2", "ext3", "ext4", "xfs", "btrfs", "tmpfs", "overlay", "zfs", NULL };
	char real[PATH_MAX];
	struct mount_facts m;

	if (!realpath(cache, real) || !find_mount(real, &m))
		return;
	for (size_t i = 0; local[i]; i++)
		if (!strcmp(m.type, local[i]))
			hb_info("kernel cache %s is on a local %s filesystem: only jobs on this host find its "
				"kernels (several nodes need --cache on a shared filesystem)", cache, m.type);
	if (!strncmp(m.type, "nfs", 3) && (has_option(m.options, "local_lock=flock") ||
					   has_option(m.options, "local_lock=all") || has_option(m.options, "nolock")))
		hb_warn("kernel cache %s: NFS mounted with local locks (%s): build locks do not hold across "
			"hosts; build kernels from one host at a time", cache, m.point);
	if (!strcmp(m.type, "lustre") && !has_option(m.options, "flock"))
		hb_warn("kernel cache %s: Lustre without the 'flock' mount option: build locks do not hold "
			"across hosts; build kernels from one host at a time", cache);
}
