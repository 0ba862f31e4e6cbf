/* Paired estimates: each boot round runs every variant once, so a variant's cost is best
 * measured round by round against the same round's baseline. Drift between rounds (host
 * load, thermal state, the order cells ran in) then cancels instead of widening the error.
 *
 * The estimate is the geometric mean of the per-round ratios: the mean of the log ratios,
 * with its standard error from their spread between rounds, a 95% confidence interval from
 * Student's t with n - 1 degrees of freedom (GSL), and the minimum detectable effect.
 * Logs make the estimate symmetric (a 2x slowdown and a 2x speed-up weigh the same) and
 * the interval, mapped back through exp(), can never cross -100%.
 *
 * The same interval and MDE are also given for the unpaired comparison (Welch), so a
 * report can show both and say which one its headline uses. */
#ifndef HB_STATS_PAIRED_H
#define HB_STATS_PAIRED_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/stats.h"

/* Confidence level of every interval, and the power and alpha of the MDE. */
#define STATS_CI_LEVEL 0.95
#define STATS_MDE_POWER 0.80
#define STATS_MDE_ALPHA 0.05

struct paired_estimate {
	long n_pairs;
	double mean_log;        /* mean of log(variant / baseline), per round */
	double sd_log;          /* their sample standard deviation; NAN when n < 2 */
	double slowdown_pct;    /* (exp(mean_log) - 1) * 100; inverted for higher-is-better */
	double se_pct;          /* delta method: 100 * exp(mean_log) * se(mean_log) */
	double ci95_low_pct;    /* exp(mean_log -/+ t * se) mapped to percent; NAN when n < 2 */
	double ci95_high_pct;
	double p_value;         /* paired t-test on the logs, two-sided */
	double mde_pct;         /* smallest slowdown this n and spread detect (80%, 0.05) */
};

/* Accumulates log ratios one round at a time (a Welford accumulator of logs). Returns -1
 * for a ratio that has no log (either side <= 0 or not finite): such a round is skipped
 * and the caller says so. */
int paired_add(struct welford *logs, double variant, double baseline);

/* The estimate from the accumulated logs. Higher-is-better metrics (throughput) invert the
 * sign, so a positive slowdown always means "worse". n < 1: everything NAN, n_pairs 0. */
void paired_estimate(const struct welford *logs, bool lower_is_better,
		     struct paired_estimate *out);

/* Half-width of the interval in percentage points, the quantity --until-ci bounds:
 * max(high - slowdown, slowdown - low). NAN when the interval is unknown. */
double paired_ci_halfwidth(const struct paired_estimate *e);

/* The unpaired interval and MDE for a Welch comparison: slowdown +/- t * se with the
 * Welch-Satterthwaite degrees of freedom of the two samples. NAN when either n < 2. */
void stats_unpaired_interval(const struct summary *v, const struct summary *b,
			     const struct comparison *c, double *low_pct, double *high_pct,
			     double *mde_pct);

#endif
