/* harness build --verify: every entry of the kernel cache hashed in full. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/lock.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "kernel/integrity.h"
#include "kernel/kernel.h"

/* "base" of "base-4b50a4af97cefea1": the build to name in the --force hint. */
static char *build_of(const char *slot)
{
	const char *dash = strrchr(slot, '-');
	return xstrndup(slot, dash ? (size_t)(dash - slot) : strlen(slot));
}

/* An entry from before the hashes gets them now, under its slot's lock, as a use would. */
static enum integrity_state upgrade(const char *cache, const char *slot, const char *dir,
				    char **why)
{
	int fd = kernel_cache_lock(cache, slot, "a build of this entry");
	enum integrity_state st = INTEGRITY_BAD;

	if (fd < 0) {
		*why = xasprintf("%s: cannot take its lock", dir);
		return st;
	}
	if (integrity_upgrade(dir, why) == 0) {
		hb_info("%s had no hashes (made before they were kept): recorded them", dir);
		st = INTEGRITY_OK;
	}
	kernel_cache_unlock(fd);
	return st;
}

/* One entry: its line on stdout (or the error), 0 good, 1 damaged. */
static int verify_one(const char *cache, const char *slot)
{
	char *dir = xasprintf("%s/kernels/%s", cache, slot), *why = NULL;
	struct integrity_stats st;
	enum integrity_state s = integrity_check(dir, INTEGRITY_FULL, &st, &why);

	if (s == INTEGRITY_UNRECORDED && upgrade(cache, slot, dir, &why) == INTEGRITY_OK)
		s = integrity_check(dir, INTEGRITY_FULL, &st, &why);
	if (s == INTEGRITY_OK) {
		printf("ok       %-28s %zu files, %.1f MiB hashed in %.0f ms\n", slot, st.files,
		       st.hashed_bytes / (1024.0 * 1024.0), st.seconds * 1000.0);
	} else {
		char *build = build_of(slot);
		printf("damaged  %s\n", slot);
		hb_error("%s: damaged cache entry: %s (rebuild it: harness build %s --force)", build,
			 why ? why : "unknown", build);
		free(build);
	}
	free(why);
	free(dir);
	return s != INTEGRITY_OK;
}

int kernel_verify_all(const struct kernel_opts *opts)
{
	char *cache = opts && opts->cache ? xstrdup(opts->cache) : hb_cache_dir();
	char *kdir = hb_path_join(cache, "kernels");
	DIR *d = opendir(kdir);
	struct dirent *e;
	int bad = 0, n = 0;

	/* Staging (.tmp-*) and replaced (*.old-PID) folders are not entries. */
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' || strstr(e->d_name, ".old-") || e->d_type != DT_DIR)
			continue;
		n++;
		bad += verify_one(cache, e->d_name);
	}
	if (d)
		closedir(d);
	if (!n)
		printf("no entries in %s\n", kdir);
	free(kdir);
	free(cache);
	return bad ? HB_EXIT_USAGE : HB_EXIT_OK;
}
