/* Paired (per-round) estimates, confidence intervals and minimum detectable effects. */
#include "stats/paired.h"

#include <math.h>
#include <gsl/gsl_cdf.h>

int paired_add(struct welford *logs, double variant, double baseline)
{
	if (!(variant > 0) || !(baseline > 0) || !isfinite(variant) || !isfinite(baseline))
		return -1;
	welford_add(logs, log(variant / baseline));
	return 0;
}

/* log-scale value -> signed percent slowdown. */
static double log_to_pct(double l, double sign)
{
	return (exp(sign * l) - 1) * 100;
}

/* t_{1-alpha/2, df}: P(|T| > t) = alpha. */
static double t_two_sided(double alpha, double df)
{
	return gsl_cdf_tdist_Qinv(alpha / 2, df);
}

/* A true effect of (t_{1-alpha/2} + t_{power}) standard errors is detected with that
 * power by a two-sided test at alpha (the usual normal-theory formula, with t for small n). */
static double mde_factor(double df)
{
	return t_two_sided(STATS_MDE_ALPHA, df) + gsl_cdf_tdist_Pinv(STATS_MDE_POWER, df);
}

void paired_estimate(const struct welford *logs, bool lower_is_better,
		     struct paired_estimate *out)
{
	struct summary s;
	double sign = lower_is_better ? 1 : -1, t, lo, hi;

	*out = (struct paired_estimate){ 0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
	if (logs->n < 1)
		return;
	summary_from_welford(logs, &s);
	out->n_pairs = s.n;
	out->mean_log = s.mean;
	out->sd_log = s.stddev;
	out->slowdown_pct = log_to_pct(s.mean, sign);
	if (s.n < 2)
		return;
	out->se_pct = 100 * exp(sign * s.mean) * s.se;
	t = t_two_sided(1 - STATS_CI_LEVEL, (double)(s.n - 1));
	lo = log_to_pct(s.mean - t * s.se, sign);
	hi = log_to_pct(s.mean + t * s.se, sign);
	out->ci95_low_pct = fmin(lo, hi);
	out->ci95_high_pct = fmax(lo, hi);
	if (s.se == 0) /* identical ratios every round (an exact clock): a point */
		out->p_value = s.mean == 0 ? 1.0 : 0.0;
	else
		out->p_value = 2 * gsl_cdf_tdist_Q(fabs(s.mean) / s.se, (double)(s.n - 1));
	out->mde_pct = log_to_pct(mde_factor((double)(s.n - 1)) * s.se, 1);
}

double paired_ci_halfwidth(const struct paired_estimate *e)
{
	if (isnan(e->ci95_low_pct) || isnan(e->ci95_high_pct))
		return NAN;
	return fmax(e->ci95_high_pct - e->slowdown_pct, e->slowdown_pct - e->ci95_low_pct);
}

void stats_unpaired_interval(const struct summary *v, const struct summary *b,
			     const struct comparison *c, double *low_pct, double *high_pct,
			     double *mde_pct)
{
	double df = stats_welch_df(v, b), t;

	*low_pct = *high_pct = *mde_pct = NAN;
	if (isnan(df) || isnan(c->slowdown_se_pct))
		return;
	t = t_two_sided(1 - STATS_CI_LEVEL, df);
	*low_pct = c->slowdown_pct - t * c->slowdown_se_pct;
	*high_pct = c->slowdown_pct + t * c->slowdown_se_pct;
	*mde_pct = mde_factor(df) * c->slowdown_se_pct;
}
