/* hugetlb's parser on captured real outputs (testdata/README.md says where each was
 * captured), through workload_rep_samples() as the run stage calls it.
 * usage: test_parse <workloads/hugetlb/testdata> */
#include <stdlib.h>

#include "fixture.h"
#include "test.h"

TEST(baseline)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hugetlb",
					.out_file = "guest-baseline-rep1.out" }, &g);
	CHECK(g.ret == 0 && g.n == 4, "%d samples, why %s", g.n, g.why);
	CHECK_SAMPLE(&g, "wall", "s", 0.007042);
	CHECK_SAMPLE(&g, "sys", "s", 0.007091);
	CHECK_SAMPLE(&g, "release_wall", "s", 0.012840);
	CHECK(!got_find(&g, "pages"), "pages is a setting, not a sample");
	got_free(&g);
}

/* The first rep of a boot also reports its warm-up, which is not a sample. */
TEST(first_rep_warmup)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hugetlb",
					.out_file = "guest-baseline-rep0.out" }, &g);
	CHECK(g.ret == 0 && g.n == 4 && !got_find(&g, "warmup"), "%d samples", g.n);
	got_free(&g);
}

TEST(init_on_alloc_and_free)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hugetlb",
					.out_file = "guest-init_on_alloc-rep1.out" }, &g);
	CHECK_SAMPLE(&g, "wall", "s", 0.655478);
	got_free(&g);

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hugetlb",
					.out_file = "guest-init_on_free-rep1.out" }, &g);
	CHECK_SAMPLE(&g, "release_sys", "s", 0.601682);
	got_free(&g);
}

TEST(guest_too_small)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hugetlb", .exit_code = 1,
					.out_file = "guest-too-small.out",
					.err_file = "guest-too-small.err" }, &g);
	CHECK(g.n == 0, "a failed job gave %d samples", g.n);
	CHECK_HAS(g.why, "hb-hugetlb: only 990 of 2000 huge pages");
	CHECK_HAS(g.why, "guest too small");
	got_free(&g);
}

TEST(cut_output)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	char *cut = fixture_first_lines(dir, "guest-baseline-rep1.out", 4);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hugetlb", .out_text = cut }, &g);
	CHECK(g.n == 0, "a cut output gave %d samples", g.n);
	CHECK_HAS(g.why, "no 'zero_check' line");
	got_free(&g);
	free(cut);
}

TEST_MAIN()
