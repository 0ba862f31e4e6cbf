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

/* The --format values; each has a renderer (report/render.h). */
enum report_format { REPORT_TEXT, REPORT_MARKDOWN, REPORT_CSV, REPORT_JSON };
enum report_layout { REPORT_LAYOUT_AUTO, REPORT_LAYOUT_LONG, REPORT_LAYOUT_WIDE };

struct report_opts {
	enum report_format format;
	enum report_layout layout; /* text/markdown: per-test tables auto-detected, or forced */
	const char *baseline;      /* NULL: the variant "baseline", else the first one seen */
	const char *ratio_to;      /* NULL, or a variant for an extra "x VARIANT" column */
	const char *metric;        /* NULL, or only this metric */
	const char *workload;      /* NULL, or only this workload */
	const char *seeds;         /* NULL; or --against-seeds: a published.json, or a folder of
				    * <workload>/published.json (report/seeds.h), compared with
				    * the run instead of the ordinary report */
};

/* Writes the report of the result set in dir to out. Returns HB_EXIT_OK; HB_EXIT_FAIL when
 * the set cannot be read or holds no samples; HB_EXIT_USAGE when an option names a variant,
 * metric or workload the set does not have (after one line saying which are accepted).
 * Never exits: `harness run` calls it at the end of a run. */
int report_run_dir(const char *dir, const struct report_opts *opts, FILE *out);

#endif
