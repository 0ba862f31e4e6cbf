/* Statistics against values worked out by hand (shown in the comments). */
#include <math.h>

#include "test.h"
#include "stats/stats.h"

static void summarize(const double *x, int n, struct summary *s)
{
	struct welford w;

	welford_init(&w);
	for (int i = 0; i < n; i++)
		welford_add(&w, x[i]);
	summary_from_welford(&w, s);
}

/* n=1: the mean is the value; no sample spread exists, and nothing pretends it does. */
TEST(one_sample)
{
	struct summary s;
	double x[] = { 42.5 };

	summarize(x, 1, &s);
	CHECK(s.n == 1, "n=%ld", s.n);
	CHECK_NEAR(s.mean, 42.5, 0);
	CHECK_NAN(s.stddev);
	CHECK_NAN(s.se);
	CHECK_NAN(s.cv);
	CHECK_NEAR(s.stddev_pop, 0, 0);
	CHECK_NEAR(s.min, 42.5, 0);
	CHECK_NEAR(s.max, 42.5, 0);
}

/* n=2, {1, 3}: mean 2; squared deviations 1 + 1 = 2; sample var 2/1 -> sd sqrt(2);
 * population var 2/2 -> 1; se sqrt(2)/sqrt(2) = 1; cv sqrt(2)/2. */
TEST(two_samples)
{
	struct summary s;
	double x[] = { 1, 3 };

	summarize(x, 2, &s);
	CHECK_NEAR(s.mean, 2, 1e-15);
	CHECK_NEAR(s.stddev, sqrt(2), 1e-15);
	CHECK_NEAR(s.stddev_pop, 1, 1e-15);
	CHECK_NEAR(s.se, 1, 1e-15);
	CHECK_NEAR(s.cv, sqrt(2) / 2, 1e-15);
	CHECK_NEAR(s.min, 1, 0);
	CHECK_NEAR(s.max, 3, 0);
}

/* Equal samples: every spread is exactly 0, not a rounding residue. */
TEST(equal_samples)
{
	struct summary s;
	double x[] = { 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1 };

	summarize(x, 7, &s);
	CHECK_NEAR(s.mean, 0.1, 1e-17);
	CHECK(s.stddev == 0, "stddev %g", s.stddev);
	CHECK(s.stddev_pop == 0, "stddev_pop %g", s.stddev_pop);
	CHECK(s.se == 0, "se %g", s.se);
}

/* {2, 4, 4, 4, 5, 5, 7, 9}: mean 5, squared deviations sum 32, population sd 2,
 * sample sd sqrt(32/7) = 2.138089935..., se 2.138089935/sqrt(8) = 0.755928946. */
TEST(textbook)
{
	struct summary s;
	double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };

	summarize(x, 8, &s);
	CHECK_NEAR(s.mean, 5, 1e-15);
	CHECK_NEAR(s.stddev_pop, 2, 1e-15);
	CHECK_NEAR(s.stddev, 2.1380899352993950, 1e-14);
	CHECK_NEAR(s.se, 0.7559289460184544, 1e-14);
}

/* Welford stays exact where the naive sum of squares cancels: values near 1e9. */
TEST(large_offset)
{
	struct summary s;
	double x[] = { 1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16 };

	summarize(x, 4, &s);
	/* deviations -6, -3, 3, 6: sum of squares 90, sample var 30 */
	CHECK_NEAR(s.stddev, sqrt(30), 1e-6);
}

/* Baseline mean 10, se 0.1; variant mean 11, se 0.2: ratio 1.1, slowdown +10%;
 * se_ratio = sqrt(0.2^2 + 1.1^2 * 0.1^2) / 10 = sqrt(0.0521) / 10 = 0.022825... -> 2.2825%. */
TEST(compare_delta_method)
{
	struct summary b = { .n = 4, .mean = 10, .stddev = 0.2, .se = 0.1 };
	struct summary v = { .n = 4, .mean = 11, .stddev = 0.4, .se = 0.2 };
	struct comparison c;

	CHECK(stats_compare(&v, &b, true, &c) == 0, "compare failed");
	CHECK_NEAR(c.ratio, 1.1, 1e-15);
	CHECK_NEAR(c.slowdown_pct, 10, 1e-12);
	CHECK_NEAR(c.slowdown_se_pct, 100 * sqrt(0.0521) / 10, 1e-12);
	/* the same form as the brief: ratio * sqrt((se_v/m_v)^2 + (se_b/m_b)^2) */
	CHECK_NEAR(c.slowdown_se_pct, 110 * sqrt(pow(0.2 / 11, 2) + pow(0.1 / 10, 2)), 1e-12);
	/* higher is better (throughput): the same ratio is a 10% improvement, slowdown -10% */
	CHECK(stats_compare(&v, &b, false, &c) == 0, "compare failed");
	CHECK_NEAR(c.slowdown_pct, -10, 1e-12);
}

TEST(compare_baseline_zero)
{
	struct summary b = { .n = 3, .mean = 0, .stddev = 0, .se = 0 };
	struct summary v = { .n = 3, .mean = 5, .stddev = 1, .se = 0.5 };
	struct comparison c;

	CHECK(stats_compare(&v, &b, true, &c) == -1, "a zero baseline must be refused");
	CHECK_NAN(c.ratio);
	CHECK_NAN(c.slowdown_pct);
	CHECK(!isinf(c.ratio), "never inf");
}

TEST(compare_single_samples)
{
	struct summary b, v;
	struct comparison c;
	double xb[] = { 4 }, xv[] = { 5 };

	summarize(xb, 1, &b);
	summarize(xv, 1, &v);
	CHECK(stats_compare(&v, &b, true, &c) == 0, "n=1 still has a ratio");
	CHECK_NEAR(c.slowdown_pct, 25, 1e-12);
	CHECK_NAN(c.slowdown_se_pct);
	CHECK_NAN(c.p_value);
}

/* Welch by hand: a = {1,2,3,4,5} (mean 3, var 2.5), b = {2,4,6,8,10} (mean 6, var 10), n=5:
 * va = 0.5, vb = 2, t = 3/sqrt(2.5) = 1.897366596, df = 2.5^2/(0.25/4 + 4/4) = 5.882352941.
 * Two-sided p = 1 - 2 * integral_0^t of the Student t density with df degrees of freedom,
 * integrated numerically (Simpson, 200000 steps) outside GSL: 0.1075311949. */
TEST(welch)
{
	struct summary a, b;
	double xa[] = { 1, 2, 3, 4, 5 }, xb[] = { 2, 4, 6, 8, 10 };
	double p;

	summarize(xa, 5, &a);
	summarize(xb, 5, &b);
	p = stats_welch_p(&a, &b);
	CHECK_NEAR(p, 0.1075311949, 1e-8);
	CHECK_NEAR(stats_welch_p(&b, &a), p, 1e-15);
	CHECK_NEAR(stats_welch_p(&a, &a), 1, 1e-12);
}

TEST(welch_degenerate)
{
	struct summary a = { .n = 3, .mean = 5, .stddev = 0 }, b = { .n = 3, .mean = 5, .stddev = 0 };
	struct summary c = { .n = 3, .mean = 6, .stddev = 0 }, one = { .n = 1, .mean = 5, .stddev = NAN };

	CHECK_NEAR(stats_welch_p(&a, &b), 1, 0);
	CHECK_NEAR(stats_welch_p(&a, &c), 0, 0);
	CHECK_NAN(stats_welch_p(&a, &one));
}

/* From a JSON report: n, mean and sample stddev give back se and the population sd. */
TEST(from_moments)
{
	struct summary s;

	summary_from_moments(8, 5, 2.1380899352993950, &s);
	CHECK_NEAR(s.se, 0.7559289460184544, 1e-14);
	CHECK_NEAR(s.stddev_pop, 2, 1e-14);
	summary_from_moments(1, 5, NAN, &s);
	CHECK_NAN(s.stddev);
	CHECK_NAN(s.se);
}

TEST_MAIN()
