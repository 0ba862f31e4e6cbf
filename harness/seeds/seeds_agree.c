/* How a measured effect agrees with a published one: the sign, and the order of
 * magnitude. Effects, not raw figures, are compared: 1.05x and 1.50x are both "slower",
 * but one effect is ten times the other, which comparing 1.05 with 1.50 would hide. */
#include "seeds/seeds.h"

#include <math.h>
#include <stdio.h>

/* Beyond 2 standard errors an effect is taken as real (about 95% two-sided). */
#define NOISE_SE 2.0
/* Effects within this factor of each other are of the same order of magnitude. */
#define SAME_ORDER_FACTOR 10.0
/* The third test of agreement (docs/interpreting.md): the measured effect within 2x of the published. */
#define WITHIN_FACTOR 2.0

static double effect(const struct seed_figure *f, double figure)
{
	return f->kind == SEED_RATIO ? figure - 1 : figure;
}

static bool published_is_noise(const struct seed_figure *f)
{
	return f->noise || f->expect_none || effect(f, f->value) == 0 ||
	       (isfinite(f->stderr_pct) && fabs(f->value) < NOISE_SE * f->stderr_pct);
}

static bool measured_is_noise(const struct seed_figure *f, double measured, double se)
{
	double e = effect(f, measured);
	return e == 0 || (isfinite(se) && fabs(e) < NOISE_SE * se);
}

void seed_agree(const struct seed_figure *f, double measured, double measured_se,
		struct seed_agreement *out)
{
	double pub = effect(f, f->value), meas = effect(f, measured);
	bool pub_noise = published_is_noise(f), meas_noise = measured_is_noise(f, measured, measured_se);

	*out = (struct seed_agreement){ .factor = pub != 0 ? meas / pub : NAN };
	out->same_order = isfinite(out->factor) && out->factor != 0 &&
			  fabs(log10(fabs(out->factor))) < log10(SAME_ORDER_FACTOR);
	out->within_2x = isfinite(out->factor) && out->factor >= 1 / WITHIN_FACTOR &&
			 out->factor <= WITHIN_FACTOR;
	if (!isfinite(measured_se)) {
		/* With one sample a side nothing says whether 1.05x against 1.50x is another order
		 * of magnitude or the same effect seen through noise. */
		out->sign = SIGN_NO_ERROR;
		if (isfinite(out->factor))
			snprintf(out->text, sizeof(out->text), "n=1: no judgement (effect %.*fx published)",
				 fabs(out->factor) < 100 ? 2 : 0, out->factor);
		else
			snprintf(out->text, sizeof(out->text), "n=1: no judgement");
	} else if (pub_noise && meas_noise) {
		out->sign = SIGN_BOTH_NOISE;
		snprintf(out->text, sizeof(out->text), "%s", f->expect_none ? "no effect expected, none measured: agree"
									   : "both within noise: agree");
	} else if (pub_noise) {
		out->sign = SIGN_PUBLISHED_NOISE;
		snprintf(out->text, sizeof(out->text), "%s", f->expect_none ? "no effect expected, measured one"
									   : "published within noise, measured not");
	} else if (meas_noise) {
		out->sign = SIGN_MEASURED_NOISE;
		snprintf(out->text, sizeof(out->text), "measured within noise (< %.0f st.err)", NOISE_SE);
	} else if ((meas > 0) != (pub > 0)) {
		out->sign = SIGN_OPPOSITE;
		snprintf(out->text, sizeof(out->text), "opposite sign");
	} else {
		out->sign = SIGN_SAME;
		snprintf(out->text, sizeof(out->text), "same sign, %s, %s 2x (effect %.*fx published)",
			 out->same_order ? "same order of magnitude" : "another order of magnitude",
			 out->within_2x ? "within" : "outside", out->factor < 100 ? 2 : 0, out->factor);
	}
}
