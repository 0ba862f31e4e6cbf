#include "stats/stats.h"

#include <math.h>
#include <gsl/gsl_cdf.h>

void welford_init(struct welford *w)
{
	*w = (struct welford){ .min = INFINITY, .max = -INFINITY };
}

void welford_add(struct welford *w, double x)
{
	double delta = x - w->mean;

	w->n++;
	w->mean += delta / (double)w->n;
	w->m2 += delta * (x - w->mean);
	if (x < w->min)
		w->min = x;
	if (x > w->max)
		w->max = x;
}

static void fill_spread(struct summary *s, double variance_sample)
{
	s->stddev = s->n >= 2 ? sqrt(variance_sample) : NAN;
	s->se = s->n >= 2 ? s->stddev / sqrt((double)s->n) : NAN;
	s->cv = s->n >= 2 && s->mean != 0 ? s->stddev / fabs(s->mean) : NAN;
}

void summary_from_welford(const struct welford *w, struct summary *s)
{
	double m2 = w->m2 > 0 ? w->m2 : 0; /* rounding can leave -0.0000001 for equal samples */

	*s = (struct summary){ .n = w->n, .mean = w->n ? w->mean : NAN,
			       .min = w->n ? w->min : NAN, .max = w->n ? w->max : NAN };
	s->stddev_pop = w->n ? sqrt(m2 / (double)w->n) : NAN;
	fill_spread(s, w->n >= 2 ? m2 / (double)(w->n - 1) : NAN);
}

void summary_from_moments(long n, double mean, double stddev, struct summary *s)
{
	*s = (struct summary){ .n = n, .mean = mean, .min = NAN, .max = NAN };
	s->stddev_pop = n >= 2 && isfinite(stddev) ? stddev * sqrt((double)(n - 1) / (double)n)
						   : (n == 1 ? 0 : NAN);
	fill_spread(s, n >= 2 && isfinite(stddev) ? stddev * stddev : NAN);
}

int stats_compare(const struct summary *v, const struct summary *b, bool lower_is_better,
		  struct comparison *out)
{
	double var_ratio;

	*out = (struct comparison){ NAN, NAN, NAN, NAN };
	if (v->n < 1 || b->n < 1 || b->mean == 0)
		return -1;
	out->ratio = v->mean / b->mean;
	out->slowdown_pct = (out->ratio - 1) * 100 * (lower_is_better ? 1 : -1);
	/* Delta method, written as sqrt(se_v^2 + ratio^2 se_b^2) / |mean_b|: the same as
	 * ratio * sqrt((se_v/mean_v)^2 + (se_b/mean_b)^2) but defined when mean_v is 0. */
	var_ratio = v->se * v->se + out->ratio * out->ratio * b->se * b->se;
	out->slowdown_se_pct = sqrt(var_ratio) / fabs(b->mean) * 100; /* NAN when a se is */
	out->p_value = stats_welch_p(v, b);
	return 0;
}

double stats_welch_df(const struct summary *a, const struct summary *b)
{
	double va, vb;

	if (a->n < 2 || b->n < 2 || !isfinite(a->stddev) || !isfinite(b->stddev))
		return NAN;
	va = a->stddev * a->stddev / (double)a->n;
	vb = b->stddev * b->stddev / (double)b->n;
	if (va + vb == 0)
		return (double)(a->n + b->n - 2); /* no spread: any df gives the same answer */
	return (va + vb) * (va + vb) /
	       (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
}

double stats_welch_p(const struct summary *a, const struct summary *b)
{
	double va, vb, t;

	if (a->n < 2 || b->n < 2 || !isfinite(a->stddev) || !isfinite(b->stddev))
		return NAN;
	va = a->stddev * a->stddev / (double)a->n;
	vb = b->stddev * b->stddev / (double)b->n;
	if (va + vb == 0)
		return a->mean == b->mean ? 1.0 : 0.0;
	t = fabs(a->mean - b->mean) / sqrt(va + vb);
	return 2 * gsl_cdf_tdist_Q(t, stats_welch_df(a, b));
}
