/* Building kernels from kernel-configs/ builds, out of tree, cached by content hash. */
#ifndef HB_KERNEL_KERNEL_H
#define HB_KERNEL_KERNEL_H

#include <stdbool.h>

struct kernel_image {
	char *build;         /* build name, or "external" for --kernel */
	char *entry_dir;     /* cache entry directory (NULL for external kernels) */
	char *bzimage;
	char *vmlinux;       /* NULL when not kept */
	char *modules_root;  /* INSTALL_MOD_PATH: <modules_root>/lib/modules/<release>/ exists; may be NULL */
	char *release;       /* the guest's uname -r */
	char *config;        /* the final .config, NULL when unknown */
	char *key;           /* cache key (hex), NULL for external kernels */
};

struct kernel_opts {
	const char *line;    /* kernel line (kernel-configs/lines/); NULL: HB_DEFAULT_LINE */
	const char *source;  /* tree or tarball of that line; NULL: the line's source= */
	const char *cache;   /* NULL: hb_cache_dir() */
	int jobs;            /* 0: host cores */
	bool force;          /* rebuild even on a cache hit */
	bool dry_run;        /* print the plan, build nothing */
	bool rebuild_bad;    /* a damaged cache entry is rebuilt (saying so) rather than an error */
};

/* Builds (or finds in the cache) the named build. 0 with *out filled; -1 after printing
 * why (the error names the build log and quotes its last error lines); -2 after a
 * one-line error naming a damaged cache entry's file and the mismatch (a file whose
 * size or SHA-256 differs from the manifest's), unless opts->rebuild_bad. A cache hit
 * runs no make at all. Safe to call from parallel processes: one builds, the others wait for
 * its lock and then find the entry. With dry_run, prints the plan on stdout and returns
 * 0 with *out filled on a cache hit, zeroed otherwise. */
int kernel_ensure(const char *build, const struct kernel_opts *opts, struct kernel_image *out);
/* Cache lookup only: 0 hit (*out filled), 1 miss, 2 damaged (size or mtime and then
 * hash differ from the manifest), -1 error (printed). */
int kernel_lookup(const char *build, const struct kernel_opts *opts, struct kernel_image *out);
void kernel_image_free(struct kernel_image *k);
/* harness build --verify: every entry of the cache hashed in full, one line each on
 * stdout. 0 all good, 2 when one is damaged (the error line names file and mismatch). */
int kernel_verify_all(const struct kernel_opts *opts);

#endif
