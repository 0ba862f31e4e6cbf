/* Series measured step by step (`run --patch NAME=SERIES --per-patch`, `run --kernels
 * PATH@A..B`), as meta.json own_change.per_patch records them (adhoc/steps.c), and each
 * step's estimates:
 *   own     the step's cells against the step before it's (step 1: against step 0);
 *   in all  against step 0;
 * each the report's headline estimate (analysis/rows.h): paired round by round where both
 * sides have ROW_MIN_PAIRS rounds, else Welch. Every step ran in the same interleaved
 * rounds, so drift between rounds cancels from each step's own cost as from a variant's.
 *
 * Patch steps are variants on one kernel line: a place is a group (clock, line, workload,
 * metric, cores). Commit steps are kernel lines: a place is step 0's group and a variant,
 * looked up at the same clock, workload, metric and cores on each step's line. */
#ifndef HB_ANALYSIS_PER_PATCH_H
#define HB_ANALYSIS_PER_PATCH_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "analysis/rows.h"
#include "results/dataset.h"

struct pp_step {
	int step, of;            /* step 0 is the base */
	const char *subject;     /* the patch's or commit's subject; NULL for step 0 */
	const char *variant;     /* patch steps (and their step 0) */
	const char *line;        /* commit steps (and their step 0) */
	const char *commit;      /* commit steps */
};

struct pp_series {
	const char *name;        /* --patch NAME, or PATH@A..B as given */
	bool commits;            /* the steps are kernel lines, not variants */
	struct pp_step base;     /* step 0 */
	struct pp_step *steps;   /* steps 1..n at [0..n) */
	size_t n;
};

/* The series meta.json records (pointing into meta, which must outlive them); NULL and
 * *n = 0 when there are none or meta is NULL. Entries that are not well formed are left
 * out: meta.json is read back, not trusted. */
struct pp_series *pp_series_read(json_object *meta, size_t *n);
void pp_series_free(struct pp_series *s, size_t n);

/* One place of a series: the cell of each step there (NULL: not measured). */
struct pp_place {
	const struct ds_group *g;       /* patch series: the group; commit series: step 0's */
	int variant;                    /* commit series: the variant; -1 for patch series */
	const struct ds_cell **cells;   /* [0] step 0 ... [n] step n */
};

/* The places of s in ds, in display order (a place with no step measured is left out). */
struct pp_place *pp_places(const struct dataset *ds, const struct pp_series *s, size_t *n);
void pp_places_free(struct pp_place *p, size_t n);

struct pp_estimate {
	bool measured;            /* step k has a cell here */
	struct group_row own;     /* against step k - 1; status ROW_NO_BASELINE when it has none */
	struct group_row all;     /* against step 0 */
};

/* Step k (1..s->n) of place p. */
void pp_estimate(const struct pp_place *p, size_t k, const struct rows_opts *opts,
		 struct pp_estimate *out);
/* Did the two sides of r give the same value in every paired round (an exact clock
 * running the same code)? Then its interval is a point at 0. */
bool pp_same_every_round(const struct group_row *r);

#endif
