/* Statistics of repeated measurements: streaming moments (Welford), summaries, ratio to a
 * baseline with its standard error (delta method), and Welch's t-test (GSL).
 *
 * Unknown values are NAN, never a made-up number: a sample standard deviation needs n >= 2,
 * so with n = 1 stddev, se, cv, the slowdown's standard error and the p-value are NAN
 * (printed "-", JSON null). */
#ifndef HB_STATS_STATS_H
#define HB_STATS_STATS_H

#include <stdbool.h>

/* Running count, mean and sum of squared deviations: one pass, constant memory, and
 * numerically stable where the naive sum of squares is not. */
struct welford {
	long n;
	double mean;
	double m2;
	double min;
	double max;
};

void welford_init(struct welford *w);
void welford_add(struct welford *w, double x);

struct summary {
	long n;
	double mean;
	double stddev;     /* sample standard deviation (n - 1); NAN when n < 2 */
	double stddev_pop; /* population standard deviation (n); 0 when n == 1 */
	double se;         /* standard error of the mean, stddev / sqrt(n); NAN when n < 2 */
	double min;
	double max;
	double cv;         /* stddev / |mean|; NAN when n < 2 or mean == 0 */
};

void summary_from_welford(const struct welford *w, struct summary *s);
/* For summaries read back from a JSON report (n, mean, sample stddev; min/max unknown). */
void summary_from_moments(long n, double mean, double stddev, struct summary *s);

struct comparison {
	double ratio;           /* mean_v / mean_b */
	double slowdown_pct;    /* (ratio - 1) * 100, sign inverted for higher-is-better */
	double slowdown_se_pct; /* delta-method standard error of slowdown_pct */
	double p_value;         /* Welch's two-sided t-test, NAN when either n < 2 */
};

/* Compares variant v to baseline b. Returns 0, or -1 when b's mean is 0 (no ratio exists:
 * *out is all NAN) or either side has no samples. */
int stats_compare(const struct summary *v, const struct summary *b, bool lower_is_better,
		  struct comparison *out);

/* Two-sided p-value of Welch's unequal-variance t-test. NAN when either n < 2. When both
 * variances are 0 the distributions are points: 1 if the means are equal, else 0. */
double stats_welch_p(const struct summary *a, const struct summary *b);
/* Welch-Satterthwaite degrees of freedom of the two means' difference; NAN when either
 * n < 2. */
double stats_welch_df(const struct summary *a, const struct summary *b);

#endif
