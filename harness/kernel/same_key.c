/* Two builds with the same content (a user's copy of a project build, a --patch series
 * that a user build also names) have the same cache key but different entry names
 * (<build>-<key prefix>). The second finds the first's entry and uses it, rather than
 * compiling the same kernel again. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "common/paths.h"
#include "common/xalloc.h"
#include "kernel/cachekey.h"
#include "kernel/manifest.h"
#include "kernel/plan.h"

/* The name of a complete entry under <cache>/kernels/ whose manifest has key, or NULL. */
static char *entry_with_key(const char *cache, const char *key)
{
	char *dir = hb_path_join(cache, "kernels"), *found = NULL;
	char *tail = xasprintf("-%.*s", KBUILD_KEY_PREFIX, key);
	size_t tl = strlen(tail);
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && !found && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		struct manifest_info m;
		char *path;
		if (e->d_name[0] == '.' || n <= tl || strcmp(e->d_name + n - tl, tail))
			continue;
		path = hb_path_join(dir, e->d_name);
		if (manifest_read(path, &m) == 0) {
			if (!strcmp(m.key, key))
				found = xstrdup(e->d_name);
			manifest_info_free(&m);
		}
		free(path);
	}
	if (d)
		closedir(d);
	free(tail);
	free(dir);
	return found;
}

void kernel_plan_share_entry(struct kernel_plan *p)
{
	char *slot;

	if (hb_is_dir(p->entry) || !(slot = entry_with_key(p->cache, p->key)))
		return;
	/* The lock, work and staging names follow the entry, so a rebuild of a damaged one
	 * is serialised with its owner's. */
	free(p->slot);
	free(p->entry);
	free(p->work);
	free(p->staging);
	p->slot = slot;
	p->entry = xasprintf("%s/kernels/%s", p->cache, p->slot);
	p->work = xasprintf("%s/work/%s", p->cache, p->slot);
	p->staging = xasprintf("%s/kernels/.tmp-%s", p->cache, p->slot);
}
