/* manifest.json of a kernel cache entry (json-c): what was built, from what, how long. */
#ifndef HB_KERNEL_MANIFEST_H
#define HB_KERNEL_MANIFEST_H

#include <stddef.h>

#include "configs/kconfigs.h"
#include "kernel/kopts.h"

struct build_stats {
	double seconds_total;
	double seconds_prepare;    /* source extraction, copy, patches */
	double seconds_configure;  /* tinyconfig, merge, olddefconfig, verify */
	double seconds_compile;
	double seconds_install;
	double seconds_modules;    /* the build's out-of-tree modules, compile and install */
	double cpu_seconds;        /* user + system time of make and everything it ran: on a
				    * shared machine, a figure other processes do not inflate */
	size_t compiles;           /* "  CC " lines: the next build's progress estimate */
	int jobs;
	int ccache_used;
	long ccache_hits, ccache_misses; /* -1 when unknown */
};

struct manifest_in {
	const struct build_def *build;
	const char *key;
	const char *release;
	const char *source_path;
	const char *source_identity;
	const char *compiler;
	const struct kopt_list *options; /* the fragments' options, all verified */
	const struct build_stats *stats;
};

/* Writes <dir>/manifest.json atomically. -1 after printing why. */
int manifest_write(const char *dir, const struct manifest_in *m);

struct manifest_info {
	char *key;
	char *release;
	double seconds_total;
	size_t compiles;
};

/* Reads the fields above from <dir>/manifest.json. -1 when missing or unreadable. */
int manifest_read(const char *dir, struct manifest_info *out);
void manifest_info_free(struct manifest_info *m);

#endif
