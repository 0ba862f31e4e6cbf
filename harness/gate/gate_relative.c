/* The relative gate: instead of absolute means (meaningless between hosts, and under TCG
 * between runs of the same host under different load), compare what each variant COSTS
 * against its own baseline on both sides: the run's ratio variant/baseline against the
 * reference's. A regression is a cost that grew by more than max_slowdown_pct with a
 * significant difference of the log ratios (z-test; each log ratio's standard error from
 * the delta method, or the spread of the per-round ratios where the set paired its rounds:
 * gate.h's cost_paired). This is the question a hardening review asks: did init_on_free get
 * more expensive? */
#include "gate/gate.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <string.h>

/* The two-sided 95% normal quantile: the z-test's interval. */
#define Z95 1.959963984540054

/* Entry of the same workload, metric and cores as e, for variant. */
static const struct gate_entry *find_variant(const struct gate_set *set, const struct gate_entry *e,
					     const char *variant)
{
	for (size_t i = 0; i < set->n; i++) {
		const struct gate_entry *c = &set->e[i];
		if (c->cores == e->cores && !strcmp(c->clock, e->clock) && !strcmp(c->line, e->line) &&
		    !strcmp(c->workload, e->workload) && !strcmp(c->metric, e->metric) &&
		    !strcmp(c->variant, variant))
			return c;
	}
	return NULL;
}

/* ln(mean_v / mean_b) and its standard error; false when undefined. The paired estimate
 * (mean log ratio over the rounds, the report's headline) when the set measured one. */
static bool log_ratio(const struct gate_entry *v, const struct gate_entry *b, double *lr, double *se)
{
	if (v->cost_paired) {
		*lr = v->cost_log;
		*se = v->cost_se_log;
		return isfinite(*lr) && isfinite(*se);
	}
	if (v->s.mean <= 0 || b->s.mean <= 0 || v->s.n < 2 || b->s.n < 2 ||
	    !isfinite(v->s.se) || !isfinite(b->s.se))
		return false;
	*lr = log(v->s.mean / b->s.mean);
	*se = sqrt(pow(v->s.se / v->s.mean, 2) + pow(b->s.se / b->s.mean, 2));
	return true;
}

void gate_judge_relative(const struct gate_set *run, const struct gate_set *ref,
			 const struct gate_entry *e, const char *baseline,
			 const struct gate_opts *opts, struct gate_result *out)
{
	const struct gate_entry *ref_v = find_variant(ref, e, e->variant);
	const struct gate_entry *run_b = find_variant(run, e, baseline);
	const struct gate_entry *ref_b = find_variant(ref, e, baseline);
	double lr_run, se_run, lr_ref, se_ref, d, se;

	*out = (struct gate_result){ .run = e, .ref = ref_v, .outcome = GATE_NOT_COMPARABLE,
				     .slowdown_pct = NAN, .p_value = NAN, .ci95_low_pct = NAN,
				     .ci95_high_pct = NAN };
	if (!ref_v || !run_b || !ref_b) {
		out->why = "needs this variant and the baseline on both sides";
		return;
	}
	if (!log_ratio(e, run_b, &lr_run, &se_run) || !log_ratio(ref_v, ref_b, &lr_ref, &se_ref)) {
		out->why = "needs n >= 2 and positive means for variant and baseline on both sides";
		return;
	}
	d = (lr_run - lr_ref) * (e->lower_is_better ? 1 : -1);
	se = sqrt(se_run * se_run + se_ref * se_ref);
	out->run_ratio = exp(lr_run);
	out->ref_ratio = exp(lr_ref);
	out->slowdown_pct = (exp(d) - 1) * 100;
	out->ci95_low_pct = (exp(d - Z95 * se) - 1) * 100;
	out->ci95_high_pct = (exp(d + Z95 * se) - 1) * 100;
	out->p_value = se > 0 ? 2 * gsl_cdf_ugaussian_Q(fabs(d) / se) : (d == 0 ? 1.0 : 0.0);
	out->outcome = GATE_OK;
	if (out->p_value < opts->alpha && out->slowdown_pct > opts->max_slowdown_pct)
		out->outcome = GATE_REGRESSION;
	else if (out->p_value < opts->alpha && out->slowdown_pct < -opts->max_slowdown_pct)
		out->outcome = GATE_IMPROVEMENT;
}
