/* seed_agree(): published vs measured effects, by sign and order of magnitude, on the
 * seeds' own figures. */
#include <math.h>
#include <string.h>

#include "test.h"
#include "seeds/seeds.h"

static struct seed_figure figure(enum seed_kind kind, double value, double stderr_pct, bool noise)
{
	return (struct seed_figure){ .kind = kind, .value = value, .stderr_pct = stderr_pct,
				     .noise = noise, .variant_value = NAN, .baseline_value = NAN };
}

/* Ratios (seed 000's kind): 85x measured under TCG for 76.55x published. */
TEST(ratio_figures)
{
	struct seed_agreement a;
	struct seed_figure f;

	f = figure(SEED_RATIO, 76.55, NAN, false);
	seed_agree(&f, 85.0, 2.0, &a);
	CHECK(a.sign == SIGN_SAME && a.same_order, "%s", a.text);
	CHECK_NEAR(a.factor, 84.0 / 75.55, 1e-9);
	CHECK(!strcmp(a.text, "same sign, same order of magnitude, within 2x (effect 1.11x published)"),
	      "%s", a.text);
	CHECK(a.within_2x);
	/* 193x measured for 76.55x: same order, but outside 2x (icount's clearing, docs/validation-log.md) */
	seed_agree(&f, 193.5, 0.5, &a);
	CHECK(a.same_order && !a.within_2x, "%s", a.text);
	CHECK(strstr(a.text, "outside 2x (effect 2.55x published)") != NULL, "%s", a.text);
	/* a ratio below 1 against one above 1 */
	seed_agree(&f, 0.9, 0.01, &a);
	CHECK(a.sign == SIGN_OPPOSITE && !strcmp(a.text, "opposite sign"), "%s", a.text);
	/* 1.05x for 1.50x published: both slower, the effect a tenth */
	f = figure(SEED_RATIO, 1.50, NAN, false);
	seed_agree(&f, 1.049, 0.005, &a);
	CHECK(a.sign == SIGN_SAME && !a.same_order, "%s", a.text);
	CHECK(strstr(a.text, "another order of magnitude") != NULL, "%s", a.text);
	/* the same with one sample a side: no error estimate, so no judgement of the order */
	seed_agree(&f, 1.049, NAN, &a);
	CHECK(a.sign == SIGN_NO_ERROR, "%s", a.text);
	CHECK(!strcmp(a.text, "n=1: no judgement (effect 0.10x published)"), "%s", a.text);
}

/* Slowdowns in percent with their standard errors (seed 001: +7.71%, st.err 0.45%). */
TEST(slowdown_figures)
{
	struct seed_agreement a;
	struct seed_figure f;


	f = figure(SEED_SLOWDOWN_PCT, 7.71, 0.45, false);
	seed_agree(&f, 3.0, 0.5, &a);
	CHECK(a.sign == SIGN_SAME && a.same_order, "%s", a.text);
	seed_agree(&f, -3.0, 0.5, &a);
	CHECK(a.sign == SIGN_OPPOSITE, "%s", a.text);
	seed_agree(&f, -3.0, 23.6, &a); /* the noisy hackbench of a busy host */
	CHECK(a.sign == SIGN_MEASURED_NOISE, "%s", a.text);
	seed_agree(&f, 3.0, NAN, &a); /* n=1: no st.err, so no judgement */
	CHECK(a.sign == SIGN_NO_ERROR && !strcmp(a.text, "n=1: no judgement (effect 0.39x published)"), "%s", a.text);
	/* -0.04% (st.err 0.46%): the published effect is noise */
	f = figure(SEED_SLOWDOWN_PCT, -0.04, 0.46, false);
	seed_agree(&f, 5.0, 0.2, &a);
	CHECK(a.sign == SIGN_PUBLISHED_NOISE, "%s", a.text);
	seed_agree(&f, 0.1, 0.2, &a);
	CHECK(a.sign == SIGN_BOTH_NOISE, "%s", a.text);
	/* Cook's "0.25% faster (within the std dev noise)": noise by the author's word */
	f = figure(SEED_SLOWDOWN_PCT, -0.25, NAN, true);
	seed_agree(&f, -0.25, 0.05, &a);
	CHECK(a.sign == SIGN_PUBLISHED_NOISE, "%s", a.text);
	/* +24.13% published, +1000% measured: same sign, beyond 10x */
	f = figure(SEED_SLOWDOWN_PCT, 24.13, 0.47, false);
	seed_agree(&f, 1000, 10, &a);
	CHECK(a.sign == SIGN_SAME && !a.same_order, "%s", a.text);
}

TEST_MAIN()
