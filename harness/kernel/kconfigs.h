/* kernel-configs/: builds (a kernel: fragments + patch series) and variants (a build + a
 * kernel command line). Files are INI, read with inih:
 *
 *   kernel-configs/builds/<name>.build      [build] description, seed, fragments, patches
 *   kernel-configs/variants/<name>.variant  [variant] build, cmdline, description, seed
 *   kernel-configs/fragments/<name>.config  Kconfig fragments stacked on base.config
 *   kernel-configs/patches/<build>/NNNN-*.patch  git format-patch series
 */
#ifndef HB_KERNEL_KCONFIGS_H
#define HB_KERNEL_KCONFIGS_H

#include <stddef.h>

struct build_def {
	char *name;
	char *description;
	char *seed;         /* the list mail it serves, e.g. "001"; may be "" */
	char **fragments;   /* absolute paths, base.config first; NULL-terminated */
	char **patches;     /* absolute paths in apply order; NULL-terminated (may be empty) */
	char *patch_dir;    /* absolute path of the patches= folder; NULL when patches= is empty.
			     * Set even when the folder is missing or empty, so the build (not
			     * the listing) fails and names it. */
};

struct variant_def {
	char *name;
	char *build;        /* a build name */
	char *cmdline;      /* appended to the guest kernel command line */
	char *description;
	char *seed;
};

/* 0 and *out filled; -1 when no such file (nothing printed); -2 after printing a parse
 * error naming file and line. */
int config_load_build(const char *name, struct build_def *out);
int config_load_variant(const char *name, struct variant_def *out);
/* Sorted, NULL-terminated names (hb_free_strv). */
char **config_list_builds(void);
char **config_list_variants(void);
/* Variant name -> definition: 0; or -1 with *why (one line: an unknown name, listing the
 * known ones; a broken file; a build that does not exist), *out zeroed. */
int config_require_variant(const char *name, struct variant_def *out, char **why);
/* A variant or build name -> the build's name (newly allocated); NULL with *why listing
 * the known variants and builds when it is neither. */
char *config_require_build_name(const char *name, char **why);
/* The kernel-configs/ folder: <hb_source_dir()>/kernel-configs (newly allocated). */
char *config_dir(void);
void build_def_free(struct build_def *b);
void variant_def_free(struct variant_def *v);

#endif
