/* Reports of a result set: per (workload, metric, cores) and variant the n, mean, sample
 * and population stddev, standard error, min, max, cv, ratio to the baseline, slowdown %
 * with its standard error (delta method) and Welch's p-value; then the list mails' one
 * liners ("hackbench, init_on_free: +7.71% sys (st.err 0.45%)"), and for per-test
 * workloads (analysis/rows.h, WIDE_MIN_METRICS) a wide table like seed 004's: one row per
 * test, a mean column per variant and "x baseline" ratio columns.
 *
 * Formats: text (aligned), markdown, csv (one line per row) and json:
 *   {"run", "baseline", "ratio_to", "samples", "skipped", "meta": {...},
 *    "rows": [{"workload","metric","unit","cores","variant","n","mean","stddev",
 *              "stddev_pop","stderr","min","max","cv","ratio","slowdown_pct",
 *              "slowdown_stderr_pct","p_value","lower_is_better","ratio_to","error"}]}
 * Unknown numbers are null (never NaN); scripts and `harness gate` read these names.
 *
 * With opts.seeds, the report is the comparison with the seeds' published figures
 * instead (report/seeds.h; text, markdown, csv or json). */
#ifndef HB_REPORT_REPORT_H
#define HB_REPORT_REPORT_H

#include <stdio.h>

#include "report/report_opts.h"

/* Writes the report of the result set in dir to out. Returns HB_EXIT_OK; HB_EXIT_FAIL when
 * the set cannot be read or holds no samples; HB_EXIT_USAGE when an option names a variant,
 * metric or workload the set does not have (after one line saying which are accepted).
 * Never exits: `harness run` calls it at the end of a run. */
int report_run_dir(const char *dir, const struct report_opts *opts, FILE *out);

#endif
