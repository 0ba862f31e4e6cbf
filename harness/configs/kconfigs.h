/* kernel-configs/: builds (a kernel: fragments + patch series) and variants (a build + a
 * kernel command line). Files are INI, read with inih:
 *
 *   kernel-configs/builds/<name>.build      [build] description, seed, fragments, patches,
 *                                           modules
 *   kernel-configs/variants/<name>.variant  [variant] build, cmdline, description, seed
 *   kernel-configs/fragments/<name>.config  Kconfig fragments stacked on base.config
 *   kernel-configs/lines/<line>.line        [line] description, source, fragments
 *   kernel-configs/patches/<folder>/<line>/NNNN-*.patch  git format-patch series, per line
 *   kernel-configs/modules/<name>/          an out-of-tree module (Kbuild + sources) that
 *                                           builds naming it ship (extmod.h)
 *
 * A build is always loaded for one kernel line: its fragments are base.config, the
 * line's fragments, then its own; its series is the one in patches/<folder>/<line>/.
 */
#ifndef HB_CONFIGS_KCONFIGS_H
#define HB_CONFIGS_KCONFIGS_H

#include <stdbool.h>

#include <stddef.h>

struct build_def {
	char *name;
	char *line;         /* the kernel line it was loaded for, e.g. "6.12" */
	char *description;
	char *seed;         /* the list mail it serves, e.g. "001"; may be "" */
	char **fragments;   /* absolute paths: base.config, the line's, the build's; NULL-terminated */
	char **patches;     /* absolute paths in apply order, patches/common/<line>/ first;
			     * NULL-terminated (may be empty) */
	bool series_missing; /* patch_dir is set but holds no *.patch (or does not exist) */
	char *patch_dir;    /* patches/<folder>/<line>/; NULL when patches= is empty.
			     * Set even when the folder is missing or empty, so the build (not
			     * the listing) fails and names it. */
	char **modules;     /* absolute kernel-configs/modules/<name> folders of modules=;
			     * NULL-terminated (may be empty) */
	char *origin;       /* the kernel-configs folder its file is in */
};

struct variant_def {
	char *name;
	char *build;        /* a build name */
	char *cmdline;      /* appended to the guest kernel command line */
	char *description;
	char *seed;
	bool in_default_set; /* run without --variants runs it (default_set = no: a debug kernel) */
	char *origin;       /* the kernel-configs folder its file is in */
};

/* 0 and *out filled; -1 when no such file (nothing printed); -2 after printing a parse
 * error naming file and line. */
int config_load_build_line(const char *name, const char *line, struct build_def *out);
/* config_load_build_line for the default line (HB_DEFAULT_LINE). */
int config_load_build(const char *name, struct build_def *out);
/* A build with patches= must have a series for its line: 0, or -1 with *why naming the
 * build, the line, the missing folder and the lines that have one. */
int config_check_series(const struct build_def *b, char **why);
/* config_check_series of build on line (NULL: the default); 0 also when the build does not
 * load (its loader reports that). */
int config_require_series(const char *build, const char *line, char **why);
int config_load_variant(const char *name, struct variant_def *out);
/* Names become file names: lower case letters, digits, '_', '-', '.'; not leading '.'/'-'. */
bool config_valid_name(const char *name);
/* Sorted, NULL-terminated names (hb_free_strv). */
char **config_list_builds(void);
char **config_list_variants(void);
/* Variant name -> definition: 0; or -1 with *why (one line: an unknown name, listing the
 * known ones; a broken file; a build that does not exist), *out zeroed. */
int config_require_variant(const char *name, struct variant_def *out, char **why);
/* A variant or build name -> the build's name (newly allocated); NULL with *why listing
 * the known variants and builds when it is neither. */
char *config_require_build_name(const char *name, char **why);
void build_def_free(struct build_def *b);
void variant_def_free(struct variant_def *v);

#endif
