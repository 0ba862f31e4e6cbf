/* Rows of a dataset, what report and plot show: per group and variant, the summary and
 * the comparison with the baseline (and optionally with a second reference variant,
 * Axtens' "x KASAN"); and its sections (one workload at one cores). */
#ifndef HB_ANALYSIS_ROWS_H
#define HB_ANALYSIS_ROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "results/dataset.h"
#include "stats/stats.h"

enum row_status {
	ROW_OK,            /* compared with the baseline */
	ROW_IS_BASELINE,   /* the baseline itself: ratio 1, slowdown 0 */
	ROW_NO_BASELINE,   /* the group has no baseline samples */
	ROW_BASELINE_ZERO, /* baseline mean is 0: no ratio */
};

struct group_row {
	const struct ds_group *g;
	int variant;
	struct summary s;
	struct comparison c;
	enum row_status status;
	double ratio_to; /* mean / mean of the ratio_to variant; NAN when absent or 0 */
};

/* A group "is per-test" (seed 004's test_vmalloc, seed 003's vmaops) when the workload's
 * metadata says per_test (workloads/<name>/workload.ini, workload_per_test_hint()); for
 * workloads the harness does not know (imported sets), when its workload and cores
 * together have at least this many metrics in one unit. No workload name is hard-coded. */
#define WIDE_MIN_METRICS 5

/* Fills out (room for ds->nvariants rows) with g's variants, baseline first.
 * ratio_to may be -1. Returns the number of rows. */
size_t group_rows(const struct dataset *ds, const struct ds_group *g, int baseline, int ratio_to,
		  struct group_row *out);
/* One-line reason for a row with no comparison, or NULL. */
const char *group_row_problem(const struct group_row *r);

/* End of the section starting at ds->groups[from] (display order): the groups up to it
 * share its workload and cores. */
size_t ds_section_end(const struct dataset *ds, size_t from);
/* Is the section groups[from..to) a per-test workload? The workload's metadata answers
 * when it knows the workload; else, are there enough metrics in one unit? */
bool ds_section_is_wide(struct ds_group *const *groups, size_t from, size_t to);
/* The same with the metadata's answer given: 1 or 0, or -1 for none (tests). */
bool ds_section_is_wide_hint(struct ds_group *const *groups, size_t from, size_t to, int hint);

#endif
