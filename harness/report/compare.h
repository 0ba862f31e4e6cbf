/* `harness report RUN1 RUN2 ... --compare`: the same (clock, line, workload, metric,
 * vCPUs, variant) rows across runs, each run's cost against its own baseline with the
 * 95% CI (the report's headline: paired where the run's rounds allow), and between
 * consecutive runs the change of that cost, flagged as `harness gate --relative BASELINE`
 * flags it (gate/gate.h: significant at alpha and beyond max_slowdown_pct). Runs of
 * different clocks are refused as the gate refuses them: instruction counts and host
 * seconds do not compare.
 *
 * Formats: text, markdown, json, html. JSON:
 *   {"baseline", "clock", "max_slowdown_pct", "alpha",
 *    "runs": [{"name", "dir", "created", "accel", "samples"}],
 *    "rows": [{"clock","kernel_line","workload","metric","unit","cores","variant",
 *              "costs": [{"slowdown_pct","ci95_low_pct","ci95_high_pct","mde_pct",
 *                         "paired","n"} or null (not in that run)],
 *              "changes": [{"from","to","change_pct","ci95_low_pct","ci95_high_pct",
 *                           "p_value","flag" (ok, regression, improvement,
 *                           not comparable),"why"}]}]} */
#ifndef HB_REPORT_COMPARE_H
#define HB_REPORT_COMPARE_H

#include <stdio.h>

#include "analysis/report_opts.h"

struct compare_opts {
	const struct report_opts *report; /* format, baseline, metric, workload */
	double max_slowdown_pct;          /* the gate's: 2 */
	double alpha;                     /* the gate's: 0.05 */
};

/* Compares the result sets runs[0..n) (n >= 2, already resolved directories; names are
 * what the user typed). HB_EXIT_OK; HB_EXIT_USAGE after one line (different clocks, a
 * format that has no comparison, an unknown baseline/metric/workload, nothing in
 * common); HB_EXIT_FAIL when a set cannot be read. */
int report_compare(char *const *dirs, char *const *names, size_t n, const struct compare_opts *opts,
		   FILE *out);

#endif
