/* "Where the cost goes" (analysis/profile_view.c) on a profile.jsonl whose figures are
 * worked out by hand: per-round means over repetitions, the variant minus the same round's
 * baseline, the mean over rounds with its t interval, each function's share of the total;
 * the check of a section against its sample; which row a metric without a section falls
 * back to; corrupt lines skipped. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/profile_view.h"
#include "results/profile_set.h"
#include "scratch.h"
#include "test.h"

/* One record: marker 0 ("job.wall") unless metric says otherwise. */
static char *rec(const char *variant, int boot, int rep, const char *metric, int marker,
		 const char *functions, long insns, const char *extra)
{
	return xasprintf("{\"variant\":\"%s\",\"workload\":\"w\",\"kernel_line\":\"6.1\",\"cores\":1,"
			 "\"boot\":%d,\"rep\":%d,\"metric\":\"%s\",\"marker\":%d,\"insns\":%ld,"
			 "\"halts\":0,\"symbols\":true,\"functions\":{%s},\"rep_strings\":{}%s}\n",
			 variant, boot, rep, metric, marker, insns, functions, extra ? extra : "");
}

static char *set_with(const char *const *lines)
{
	char *d = scratch_dir(), *all = xstrdup("");

	for (const char *const *l = lines; *l; l++) {
		char *more = xasprintf("%s%s", all, *l);
		free(all);
		all = more;
	}
	scratch_write(d, PROFILE_SET_FILE, all);
	free(all);
	return d;
}

static const struct pv_fn *fn_named(const struct pv_row *r, const char *name)
{
	for (size_t k = 0; k < r->nfn; k++)
		if (!strcmp(r->fn[k].name, name))
			return &r->fn[k];
	return NULL;
}

TEST(extra_instructions_per_function_are_paired_by_round)
{
	char *l[] = {
		/* baseline: round 0 two repetitions (a 105 on average), round 1 one */
		rec("baseline", 0, 0, "wall", 0, "\"a\":100,\"b\":50,\"[user]\":10", 160, NULL),
		rec("baseline", 0, 1, "wall", 0, "\"a\":110,\"b\":50,\"[user]\":10", 170, NULL),
		rec("baseline", 1, 0, "wall", 0, "\"a\":100,\"b\":60,\"[user]\":10", 170, NULL),
		/* the variant: c appears (45, then 50), b grows by 20 in round 1 only */
		rec("v", 0, 0, "wall", 0, "\"a\":105,\"b\":50,\"c\":45,\"[user]\":10", 210, NULL),
		rec("v", 1, 0, "wall", 0, "\"a\":100,\"b\":80,\"c\":50,\"[user]\":10", 240, NULL),
		"not json\n",
		NULL,
	};
	char *d = set_with((const char *const *)l);
	struct profile_view pv;

	CHECK(profile_view_load(d, "baseline", &pv) == 1);
	CHECK(pv.n == 1);
	if (pv.n == 1) {
		const struct pv_row *r = &pv.rows[0];
		const struct pv_fn *c = fn_named(r, "c"), *b = fn_named(r, "b");
		CHECK_STR(r->variant, "v");
		CHECK(r->rounds == 2);
		CHECK_NEAR(r->base_insns, (165 + 170) / 2.0, 1e-9);
		CHECK_NEAR(r->delta, (45 + 70) / 2.0, 1e-9);
		CHECK(r->nfn == 2, "a did not change: only b and c (%zu)", r->nfn);
		CHECK(r->nfn >= 1 && !strcmp(r->fn[0].name, "c"));
		CHECK(c && b);
		if (c && b) {
			CHECK_NEAR(c->delta, 47.5, 1e-9);
			CHECK_NEAR(c->share, 47.5 / 57.5, 1e-9);
			/* t(0.975, 1) = 12.7062; sd of 45, 50 = 3.5355; se = 2.5 */
			CHECK_NEAR(c->ci, 12.7062047 * 2.5, 1e-4);
			CHECK_NEAR(b->delta, 10, 1e-9);
			CHECK_NEAR(b->base, 55, 1e-9);
		}
		static const char *const clearing[] = { "c", "z*", NULL };
		CHECK_NEAR(profile_view_share(r, clearing), 47.5 / 57.5, 1e-9);
		char *cite = profile_view_cite(r, 3);
		CHECK_STR(cite, "c 82.6%, b 17.4% of +0.00 M guest instructions per repetition "
				"(wall, 2 rounds)");
		free(cite);
	}
	profile_view_free(&pv);
	hb_remove_tree(d);
	free(d);
	for (int i = 0; i < 5; i++)
		free(l[i]);
}

TEST(a_section_is_checked_against_its_sample_when_it_can_be)
{
	struct profile_rec r = { .insns = 900, .halts = 0, .sample_ns = 1000, .idle_ns = NAN, .cores = 1 };

	CHECK_NEAR(profile_check_pct(&r), 10, 1e-9);         /* 100 ns the profile missed */
	r.halts = 3;
	CHECK(isnan(profile_check_pct(&r)));                   /* halted, idle not measured */
	r.idle_ns = 100;
	CHECK_NEAR(profile_check_pct(&r), 0, 1e-9);           /* instructions + idle = time */
	r.cores = 2;
	CHECK(isnan(profile_check_pct(&r)));                   /* idle of one vCPU is not clock time */
	r.cores = 1;
	r.sample_ns = NAN;
	CHECK(isnan(profile_check_pct(&r)));
}

TEST(a_metric_without_a_section_falls_back_to_the_workloads_step)
{
	char *l[] = {
		rec("baseline", 0, 0, "job.wall", 0, "\"a\":10", 10, NULL),
		rec("baseline", 0, 0, "release", 2, "\"a\":10", 10, NULL),
		rec("baseline", 0, 0, "grow", 1, "\"a\":10", 10, NULL),
		rec("v", 0, 0, "job.wall", 0, "\"a\":20", 20, NULL),
		rec("v", 0, 0, "release", 2, "\"a\":30", 30, NULL),
		rec("v", 0, 0, "grow", 1, "\"a\":40", 40, NULL),
		NULL,
	};
	char *d = set_with((const char *const *)l);
	struct profile_view pv;
	const struct pv_row *r;

	CHECK(profile_view_load(d, "baseline", &pv) == 1);
	CHECK(pv.n == 3);
	r = profile_view_find(&pv, "6.1", "w", 1, "v", "release");
	CHECK(r && !strcmp(r->metric, "release"));
	r = profile_view_find(&pv, "6.1", "w", 1, "v", "sys");
	CHECK(r && !strcmp(r->metric, "grow"), "the lowest step marker above 0");
	CHECK(!profile_view_find(&pv, "6.1", "w", 2, "v", "sys"));
	CHECK(!profile_view_find(&pv, "6.1", "w", 1, "baseline", "sys"));
	profile_view_free(&pv);
	hb_remove_tree(d);
	free(d);
	for (int i = 0; i < 6; i++)
		free(l[i]);
}

TEST(a_set_without_a_profile_has_none)
{
	char *d = scratch_dir();
	struct profile_view pv;

	CHECK(profile_view_load(d, "baseline", &pv) == 0);
	CHECK(pv.n == 0);
	profile_view_free(&pv);
	hb_remove_tree(d);
	free(d);
}

TEST_MAIN()
