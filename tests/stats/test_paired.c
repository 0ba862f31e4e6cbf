/* Paired estimates (harness/stats/paired.c): per-round log ratios, their t interval and
 * MDE, against values worked by hand (Python's statistics module, t quantiles from
 * tables: t(0.975, 2) = 4.302653, t(0.8, 2) = 1.060660). */
#include <math.h>

#include "test.h"
#include "stats/paired.h"

static void add_rounds(struct welford *w, const double *v, const double *b, int n)
{
	welford_init(w);
	for (int i = 0; i < n; i++)
		paired_add(w, v[i], b[i]);
}

TEST(three_rounds_by_hand)
{
	/* Ratios 1.10, 1.12, 1.08 with different baselines per round: only ratios count. */
	const double v[] = { 11.0, 22.4, 5.4 }, b[] = { 10.0, 20.0, 5.0 };
	struct welford w;
	struct paired_estimate e;

	add_rounds(&w, v, b, 3);
	paired_estimate(&w, true, &e);
	CHECK(e.n_pairs == 3);
	CHECK_NEAR(e.slowdown_pct, 9.987877, 1e-5);
	CHECK_NEAR(e.se_pct, 1.154716, 1e-5);
	CHECK_NEAR(e.ci95_low_pct, 5.130077, 1e-4);
	CHECK_NEAR(e.ci95_high_pct, 15.070144, 1e-4);
	CHECK_NEAR(e.mde_pct, 5.792259, 1e-4);
	/* Two-sided, 2 df, where the t distribution's tail is closed-form: P(|T| > t) =
	 * 1 - t / sqrt(t^2 + 2), t = mean log ratio / its st.err = 9.067891. */
	CHECK_NEAR(e.p_value, 0.0119441, 1e-6);
	CHECK_NEAR(paired_ci_halfwidth(&e), 15.070144 - 9.987877, 1e-4);
}

TEST(higher_is_better_inverts)
{
	/* Throughput halves every round: a 100% slowdown, and the interval stays ordered. */
	const double v[] = { 50, 51, 49 }, b[] = { 100, 100, 100 };
	struct welford w;
	struct paired_estimate e;

	add_rounds(&w, v, b, 3);
	paired_estimate(&w, false, &e);
	CHECK(e.slowdown_pct > 95 && e.slowdown_pct < 105, "%g", e.slowdown_pct);
	CHECK(e.ci95_low_pct < e.slowdown_pct && e.slowdown_pct < e.ci95_high_pct);
}

TEST(drift_cancels_in_pairs)
{
	/* The host got 30% slower each round; the variant costs 5% throughout. Paired: exactly
	 * 5% with a zero-width interval; the unpaired comparison of the same numbers is wide. */
	const double b[] = { 100, 130, 169 }, v[] = { 105, 136.5, 177.45 };
	struct welford w, wv, wb;
	struct paired_estimate e;
	struct summary sv, sb;
	struct comparison c;
	double lo, hi, mde;

	add_rounds(&w, v, b, 3);
	paired_estimate(&w, true, &e);
	CHECK_NEAR(e.slowdown_pct, 5.0, 1e-9);
	CHECK_NEAR(e.ci95_high_pct - e.ci95_low_pct, 0, 1e-9);
	CHECK(e.p_value < 1e-9, "a point estimate away from 0 is certain: p %g", e.p_value);
	welford_init(&wv);
	welford_init(&wb);
	for (int i = 0; i < 3; i++) {
		welford_add(&wv, v[i]);
		welford_add(&wb, b[i]);
	}
	summary_from_welford(&wv, &sv);
	summary_from_welford(&wb, &sb);
	stats_compare(&sv, &sb, true, &c);
	stats_unpaired_interval(&sv, &sb, &c, &lo, &hi, &mde);
	CHECK(lo < 0 && hi > 10, "unpaired interval [%g, %g] contains 0 and 10", lo, hi);
	CHECK(mde > 20, "unpaired MDE %g", mde);
}

TEST(too_few_rounds)
{
	const double v[] = { 11 }, b[] = { 10 };
	struct welford w;
	struct paired_estimate e;

	add_rounds(&w, v, b, 1);
	paired_estimate(&w, true, &e);
	CHECK(e.n_pairs == 1);
	CHECK_NEAR(e.slowdown_pct, 10.0, 1e-9);
	CHECK_NAN(e.ci95_low_pct);
	CHECK_NAN(e.mde_pct);
	CHECK_NAN(paired_ci_halfwidth(&e));
	welford_init(&w);
	paired_estimate(&w, true, &e);
	CHECK(e.n_pairs == 0);
	CHECK_NAN(e.slowdown_pct);
}

TEST(rounds_without_a_log_are_refused)
{
	struct welford w;

	welford_init(&w);
	CHECK(paired_add(&w, 0, 1) == -1);
	CHECK(paired_add(&w, 1, 0) == -1);
	CHECK(paired_add(&w, NAN, 1) == -1);
	CHECK(paired_add(&w, 1, INFINITY) == -1);
	CHECK(w.n == 0);
	CHECK(paired_add(&w, 2, 1) == 0 && w.n == 1);
}

TEST_MAIN()
