/* Kernels and variants from the command line, for someone measuring their own change:
 *
 *   --configs DIR                 a kernel-configs folder of one's own, searched first
 *   --patch [NAME=]FILE[,FILE...] base + that series, as build and variant NAME
 *   --patch-cmdline NAME=ARGS     more command line for that variant
 *   --variant NAME=BUILD:ARGS     a variant with no file: BUILD booted with ARGS
 *   --per-patch                   (run) each --patch series step by step: NAME.1 = base +
 *                                 patch 1, NAME.2 = base + patches 1-2, ... (adhoc/steps.c)
 *   --kernels PATH@A..B           (run) A, then each commit of A..B, as kernel lines
 *
 * The patch and variant options are turned into a kernel-configs folder of their own (an
 * owned folder in hb_tmp_root(): builds/, patches/<NAME>/<line>/, variants/) put first on the
 * search path, so everything after them (the build, its cache key, the plan, the report)
 * treats them as it treats the project's files. */
#ifndef HB_ADHOC_ADHOC_H
#define HB_ADHOC_ADHOC_H

#include <json-c/json.h>

#include <stdbool.h>

#include "common/options.h"

struct adhoc_cli {
	char **configs;        /* --configs DIR, in the order given */
	char **patches;        /* --patch values */
	char **patch_cmdlines; /* --patch-cmdline values */
	char **variants;       /* --variant values */
	const char *line_fragment; /* --line-fragment FILE: for the lines of --kernels PATH@REF */
	bool per_patch;        /* --per-patch (run's table): each --patch series step by step */
};

/* What adhoc_prepare made. */
struct adhoc {
	char *dir;             /* the generated kernel-configs folder, NULL when none */
	char **variants;       /* the variants it holds, in option order, and baseline when a
				* --per-patch series starts from it (never NULL) */
	char **builds;         /* the patch builds among them (never NULL) */
	/* What each option named, for meta.json "own_change": "configs" (the user folders),
	 * "patches" (name -> each patch's file, subject, SHA-256), "variants" (name -> build,
	 * cmdline), "lines" (name -> tree, ref, commit), "per_patch" (the series measured
	 * step by step: adhoc/steps.c). Never NULL after adhoc_prepare. */
	json_object *record;
};

struct series;
/* Does series s (of --patch name) apply to each of lines' sources? 0, or -1 with *why.
 * The entry points pass kernel_series_applies (kernel/series_check.h): kernel sources are
 * the kernel stage's, which sits below the commands that use this folder. */
typedef int (*adhoc_apply_check)(const struct series *s, const char *name, char *const *lines,
				 char *const *sources, bool dry_run, char **why);

/* The options above, for a command's table as a group (base: its struct adhoc_cli). */
extern const struct hb_option adhoc_cli_options[];

/* Puts --configs first on the search path (HARDBENCH_CONFIGS); turns each PATH@REF of
 * lines into a line of its own (replacing the item by the line's name); then loads each series,
 * checks names (none may be taken, by a project or user file or another option) and
 * that every series applies to each of lines' sources (sources: the --source values),
 * and writes the folder. 0; or -1 with *why, one line, nothing built. A dry run checks
 * a series only against a source already extracted. */
int adhoc_prepare(const struct adhoc_cli *c, char **lines, char *const *sources,
		  bool dry_run, adhoc_apply_check check, struct adhoc *out, char **why);
/* The same for `harness run`, whose --kernels may hold ranges PATH@A..B (adhoc_prepare
 * refuses them): *lines (NULL: the default line alone) is replaced by the list with each
 * PATH@REF a line's name and each range its lines, step 0 first. */
int adhoc_prepare_run(const struct adhoc_cli *c, char ***lines, char *const *sources,
		      bool dry_run, adhoc_apply_check check, struct adhoc *out, char **why);
/* The step a kernel build of the run is, in words, when it is one (a --per-patch
 * variant's build, or any build on a line of a range): "patch 2/3 'subject' of --patch
 * NAME" or "commit 1a2b3c4d5e6f 'subject', step 2/3 of PATH@A..B"; NULL otherwise. */
char *adhoc_step_of_build(const struct adhoc *a, const char *build, const char *line);
/* Removes the generated folder. */
void adhoc_free(struct adhoc *a);

#endif
