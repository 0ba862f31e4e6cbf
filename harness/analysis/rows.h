/* The report's rows: per group and variant, the summary and the comparison with the
 * baseline (and optionally with a second reference variant, Axtens' "x KASAN"). */
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

struct report_row {
	const struct ds_group *g;
	int variant;
	struct summary s;
	struct comparison c;
	enum row_status status;
	double ratio_to; /* mean / mean of the ratio_to variant; NAN when absent or 0 */
};

/* A group "is per-test" (seed 004's test_vmalloc, seed 003's vmaops) when the workload's
 * metadata says per_test (workloads/<name>/workload.ini); for workloads the harness does
 * not know (imported sets), when its workload and cores together have at least this many
 * metrics in one unit. No workload name is hard-coded. */
#define WIDE_MIN_METRICS 5

/* Fills out (room for ds->nvariants rows) with g's variants, baseline first.
 * ratio_to may be -1. Returns the number of rows. */
size_t report_group_rows(const struct dataset *ds, const struct ds_group *g, int baseline,
			 int ratio_to, struct report_row *out);
/* Among groups[from..to), those sharing g's workload and cores: are there enough metrics
 * with one unit to call it a per-test workload? */
bool report_section_is_wide(struct ds_group *const *groups, size_t from, size_t to);
/* One-line reason for a row with no comparison, or NULL. */
const char *report_row_problem(const struct report_row *r);

#endif
