/* What adhoc.c and steps.c share while adhoc_prepare runs. Internal to adhoc/. */
#ifndef HB_ADHOC_ADHOC_INT_H
#define HB_ADHOC_ADHOC_INT_H

#include <json-c/json.h>

#include "adhoc/adhoc.h"
#include "adhoc/gitref.h"
#include "adhoc/overlay.h"
#include "common/argparse.h"
#include "configs/series.h"

/* Names the ad-hoc options take: none may be a build or variant already (of any folder
 * on the search path) or another option's. */
struct names {
	char **builds, **variants;
	struct hb_strv taken;
};

/* The lists adhoc_prepare fills. */
struct made {
	struct hb_strv variants, builds;
	struct hb_strv series;  /* --patch NAMEs (with --per-patch, not builds themselves) */
	struct hb_strv said;    /* what to tell the user once everything is checked */
	json_object *record;
};

/* Takes name for option: 0, or -1 with *why when it is taken. */
int adhoc_claim(struct names *n, const char *option, const char *name, char **why);
/* record[section][name] = entry (sections made on first use). */
void adhoc_note(struct made *m, const char *section, const char *name, json_object *entry);
/* Commit g as a kernel line of the folder (exported into cache, written, noted). */
int adhoc_add_commit_line(const struct adhoc_cli *c, const struct gitref *g, const char *cache,
			  struct overlay *o, struct made *m, char **why);

/* steps.c: --patch NAME=SERIES --per-patch: the step builds and variants (a series of one
 * patch is the series: build and variant NAME), step 0 (baseline, or NAME.0 when
 * --patch-cmdline gave NAME more command line), and the record. */
int steps_add_patch_series(struct overlay *o, struct names *n, struct made *m, const char *name,
			   const struct series *s, char *const *lines, const char *extra, char **why);
/* --kernels PATH@A..B: A and each commit of the range as lines (their names pushed onto
 * lines_out, A first), and the record. */
int steps_add_range(const struct adhoc_cli *c, const char *item, const char *cache,
		    struct overlay *o, struct made *m, struct hb_strv *lines_out, char **why);

#endif
