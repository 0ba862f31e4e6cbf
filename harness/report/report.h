/* Reports of a result set: per (clock, workload, metric, cores) and variant the n, mean,
 * sample and population stddev, standard error, min, max, cv, ratio of means to the
 * baseline, and the slowdown: its headline estimate with standard error, 95% confidence
 * interval, minimum detectable effect (80% power, alpha 0.05) and p-value. Then the list
 * mails' one-liners ("hackbench, init_on_free: +7.71% sys (st.err 0.45%, 95% CI [...],
 * MDE ...; Welch)"), and for per-test workloads (analysis/rows.h, WIDE_MIN_METRICS) a
 * wide table like seed 004's: one row per test, a mean column per variant and
 * "x baseline" ratio columns.
 *
 * The headline (analysis/rows.h) is the paired estimate (geometric mean of per-round
 * ratios to the same round's baseline) where a row has >= 2 rounds on both sides, else
 * Welch's (ratio of means); the header says which rule applies, the table's "est" column
 * and each one-liner which one a row uses, and a paired one-liner shows Welch's beside it.
 * Imported sets are unpaired unless opts.paired (`--paired`). Groups of different clocks
 * are shown apart, the clock in their label; the header says what the set's clock's
 * numbers are (icount: guest instructions, not cycles).
 *
 * Formats: html (one self-contained page: report_html.c), mail (a list reply wrapped at
 * 72 columns: report_mail.c), text (aligned), markdown, csv (one line per row, the JSON
 * row's keys as columns) and json:
 *   {"run", "baseline", "ratio_to", "samples", "skipped", "clock" (host, icount or
 *    mixed), "clocks": [...], "headline" (the rule), "meta": {...},
 *    "rows": [{"workload","metric","unit","cores","variant","n","mean","stddev",
 *              "stddev_pop","stderr","min","max","cv","ratio",
 *              "slowdown_pct","slowdown_stderr_pct","p_value","ci95_low_pct",
 *              "ci95_high_pct","mde_pct" (the headline), "paired", "n_pairs",
 *              "rounds_unpaired", "welch_slowdown_pct","welch_slowdown_stderr_pct",
 *              "welch_p_value","welch_ci95_low_pct","welch_ci95_high_pct",
 *              "welch_mde_pct" (unpaired), "lower_is_better","clock","ratio_to","error"}]}
 * Unknown numbers are null (never NaN); scripts and `harness gate` read these names.
 *
 * With opts.seeds, the report is the comparison with the seeds' published figures
 * instead (seeds/seeds.h; text, markdown, csv or json). */
#ifndef HB_REPORT_REPORT_H
#define HB_REPORT_REPORT_H

#include <stdio.h>

#include "analysis/report_opts.h"

/* Writes the report of the result set in dir to out. Returns HB_EXIT_OK; HB_EXIT_FAIL when
 * the set cannot be read or holds no samples; HB_EXIT_USAGE when an option names a variant,
 * metric or workload the set does not have (after one line saying which are accepted).
 * Never exits: `harness run` calls it at the end of a run. */
int report_run_dir(const char *dir, const struct report_opts *opts, FILE *out);
/* Writes dir/report.html (the html format, written whole to a temporary file and renamed)
 * and says where on stderr. HB_EXIT_OK or HB_EXIT_FAIL after one line. For `harness run`. */
int report_write_html(const char *dir);

#endif
