/* --until-ci's stop rule (run/stop_rule.c): from the samples of complete rounds, the widest
 * paired 95% CI half-width of every variant's cost on each workload's primary metric.
 *
 * The plan: baseline, slow x hackbench (primary "time") x 1 vCPU x 6 rounds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "scratch.h"
#include "results/store.h"
#include "run/run.h"
#include "run/stop_rule.h"
#include "workload/workload.h"

struct fixture {
	struct run run;
	struct run_opts opts;
	struct workload w;
	struct workload *wp;
	struct result_set *rs;
};

static char **strv(const char *a, const char *b)
{
	char **v = xcalloc(3, sizeof(char *));

	v[0] = xstrdup(a);
	v[1] = b ? xstrdup(b) : NULL;
	return v;
}

static void fixture_init(struct fixture *f, double until_ci)
{
	long *cores = xcalloc(1, sizeof(long));
	json_object *meta = json_object_new_object();

	memset(f, 0, sizeof(*f));
	cores[0] = 1;
	f->w = (struct workload){ .name = "hackbench", .primary = "time" };
	f->wp = &f->w;
	f->opts = (struct run_opts){ .until_ci = until_ci, .boots = 2 };
	f->run = (struct run){ .opts = &f->opts, .workloads = &f->wp, .nworkloads = 1,
			       .dir = scratch_dir() };
	f->run.plan = (struct plan){ .variants = strv("baseline", "slow"), .workloads = strv("hackbench", NULL),
				     .cores = cores, .ncores = 1, .boots = 6, .reps = 2,
				     .order = ORDER_INTERLEAVED, .seed = 1 };
	plan_build(&f->run.plan);
	f->rs = rs_create(f->run.dir, meta);
	json_object_put(meta);
}

static void add(struct fixture *f, const char *variant, const char *metric, int boot, double v)
{
	struct sample s = { .variant = variant, .workload = "hackbench", .metric = metric, .unit = "s",
			    .cores = 1, .boot = boot, .rep = 0, .value = v, .lower_is_better = true };
	rs_append(f->rs, &s);
}

static void fixture_free(struct fixture *f)
{
	rs_close(f->rs);
	plan_free(&f->run.plan);
	hb_remove_tree(f->run.dir);
	free(f->run.dir);
}

/* Host drift of 20% per round, a steady 5% cost: pairs see 5.0% every round, so two rounds
 * already pin it (half-width ~0), and the drift never widens it. */
TEST(steady_cost_under_drift_is_precise_after_two_rounds)
{
	struct fixture f;
	struct stop_verdict v;

	fixture_init(&f, 1.0);
	for (int b = 0; b < 3; b++) {
		double base = 10.0 * pow(1.2, b);
		add(&f, "baseline", "time", b, base);
		add(&f, "slow", "time", b, base * 1.05);
		add(&f, "slow", "wall", b, base * (b ? 9.0 : 1.0)); /* not the primary: ignored */
	}
	CHECK(stop_rule_check(&f.run, 1, &v) == 0);
	CHECK(!v.precise, "one round has no interval");
	CHECK_NAN(v.widest);
	CHECK_HAS(v.widest_what, "slow hackbench 1 vCPU");
	stop_verdict_free(&v);
	CHECK(stop_rule_check(&f.run, 2, &v) == 0);
	CHECK(v.precise, "widest %g", v.widest);
	CHECK(v.widest < 1e-6, "widest %g", v.widest);
	stop_verdict_free(&v);
	fixture_free(&f);
}

/* Noisy ratios: 3 rounds are not within 1 point; rounds beyond `rounds` are not read. */
TEST(noisy_cost_needs_more_rounds)
{
	struct fixture f;
	struct stop_verdict v;
	const double ratio[] = { 1.00, 1.10, 1.05, 1.05, 1.05 };

	fixture_init(&f, 1.0);
	for (int b = 0; b < 5; b++) {
		add(&f, "baseline", "time", b, 10.0);
		add(&f, "slow", "time", b, 10.0 * ratio[b]);
	}
	CHECK(stop_rule_check(&f.run, 3, &v) == 0);
	CHECK(!v.precise && v.widest > 5, "3 rounds: widest %g", v.widest);
	stop_verdict_free(&v);
	f.opts.until_ci = 50;
	CHECK(stop_rule_check(&f.run, 3, &v) == 0);
	CHECK(v.precise, "the same rounds are within 50 points: widest %g", v.widest);
	stop_verdict_free(&v);
	fixture_free(&f);
}

/* A huge cost (about 194x, as hugetlb under init_on_alloc) with 2% spread between rounds is
 * some 400 points wide, yet known to about 2% of itself: the bound scales with the ratio. */
TEST(huge_cost_is_judged_relative_to_its_ratio)
{
	struct fixture f;
	struct stop_verdict v;
	const double ratio[] = { 190.0, 194.0, 198.0, 194.0 };

	fixture_init(&f, 5.0);
	for (int b = 0; b < 4; b++) {
		add(&f, "baseline", "time", b, 0.02);
		add(&f, "slow", "time", b, 0.02 * ratio[b]);
	}
	CHECK(stop_rule_check(&f.run, 4, &v) == 0);
	CHECK(v.precise, "4 rounds of 190-198x are within 5%%: widest %g", v.widest);
	CHECK(v.widest > 1 && v.widest < 5, "widest %g (relative)", v.widest);
	stop_verdict_free(&v);
	f.opts.until_ci = 1.0;
	CHECK(stop_rule_check(&f.run, 4, &v) == 0);
	CHECK(!v.precise, "not within 1%%: widest %g", v.widest);
	stop_verdict_free(&v);
	fixture_free(&f);
}

/* A variant with no samples at all leaves its estimate unknown: never precise. */
TEST(missing_variant_is_never_precise)
{
	struct fixture f;
	struct stop_verdict v;

	fixture_init(&f, 100.0);
	for (int b = 0; b < 3; b++)
		add(&f, "baseline", "time", b, 10.0);
	CHECK(stop_rule_check(&f.run, 3, &v) == 0);
	CHECK(!v.precise);
	CHECK_HAS(v.widest_what, "slow");
	stop_verdict_free(&v);
	fixture_free(&f);
}

static void add_on(struct fixture *f, const char *line, const char *variant, int boot, double v)
{
	struct sample s = { .variant = variant, .workload = "hackbench", .metric = "time", .unit = "s",
			    .cores = 1, .boot = boot, .rep = 0, .value = v, .lower_is_better = true,
			    .kernel_line = line };
	rs_append(f->rs, &s);
}

/* Two lines: each variant is paired with its own line's baseline (6.12's slow is a steady
 * 50% over 6.12's baseline, which is twice 6.1's: against 6.1's baseline it would be 200%
 * and noisy), and the widest names its line. */
TEST(lines_pair_within_their_line)
{
	struct fixture f;
	struct stop_verdict v;
	const double noise[] = { 1.00, 1.30, 0.80 };

	fixture_init(&f, 1.0);
	f.run.plan.lines = strv("6.1", "6.12");
	for (int b = 0; b < 3; b++) {
		add_on(&f, NULL, "baseline", b, 10.0);        /* a sample with no line is 6.1's */
		add_on(&f, "6.1", "slow", b, 10.5);
		add_on(&f, "6.12", "baseline", b, 20.0 * noise[b]);
		add_on(&f, "6.12", "slow", b, 30.0 * noise[b]);
	}
	CHECK(stop_rule_check(&f.run, 3, &v) == 0);
	CHECK(v.precise, "widest %g (%s)", v.widest, v.widest_what ? v.widest_what : "-");
	stop_verdict_free(&v);
	/* 6.12's slow drifting against its own baseline: the widest is 6.12's, named so. */
	add_on(&f, "6.12", "baseline", 3, 20.0);
	add_on(&f, "6.12", "slow", 3, 40.0);
	add_on(&f, NULL, "baseline", 3, 10.0);
	add_on(&f, "6.1", "slow", 3, 10.5);
	CHECK(stop_rule_check(&f.run, 4, &v) == 0);
	CHECK(!v.precise);
	CHECK_HAS(v.widest_what, "6.12 slow hackbench 1 vCPU");
	stop_verdict_free(&v);
	fixture_free(&f);
}

TEST_MAIN()
