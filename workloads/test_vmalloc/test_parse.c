/* test_vmalloc's parser on captured real outputs (testdata/README.md says where each was
 * captured), through workload_rep_samples() as the run stage calls it, in both modes
 * (the job sections performance and sequential).
 * usage: test_parse <workloads/test_vmalloc/testdata> */
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "fixture.h"
#include "test.h"

/* Replaces the first occurrence of from by to in a copy of text. */
static char *edited(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);

	if (!at)
		return xstrdup(text);
	return xasprintf("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
}

/* The quick performance capture with from replaced by to: refused, for a reason that
 * holds want. */
static void refuses_edited(int *failures, const char *dir, const char *from, const char *to,
			   const char *want)
{
	char *text = fixture_read(dir, "guest-init_on_alloc-performance-quick.out");
	char *bad = edited(text, from, to);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "test_vmalloc", .section = "performance",
					.out_text = bad }, &g);
	CHECK(g.n == 0, "a bad output gave %d samples", g.n);
	CHECK_HAS(g.why, want);
	got_free(&g);
	free(text);
	free(bad);
}

TEST(performance)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "test_vmalloc", .section = "performance",
					.out_file = "guest-baseline-performance.out" }, &g);
	CHECK(g.ret == 0 && !g.why, "why: %s", g.why);
	CHECK(g.n == 10 + 1 + 2, "%d samples, want 10 tests, total_cycles, wall, guest_sys", g.n);
	CHECK_SAMPLE(&g, "fix_size_alloc_test", "usec", 87785);
	CHECK_SAMPLE(&g, "kvfree_rcu_2_arg_vmalloc_test", "usec", 150485);
	/* Fails by design: recorded, not an error. */
	CHECK_SAMPLE(&g, "align_shift_alloc_test", "usec", 4217);
	CHECK_SAMPLE(&g, "total_cycles", "cycles", 38925627448);
	CHECK_SAMPLE(&g, "wall", "s", FAKE_WALL);
	CHECK(g.n && !strcmp(g.s[0].workload, "test_vmalloc-performance"), "workload %s",
	      g.n ? g.s[0].workload : "-");
	got_free(&g);
}

TEST(sequential)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "test_vmalloc", .section = "sequential",
					.out_file = "guest-baseline-sequential.out" }, &g);
	CHECK(g.ret == 0 && g.n == 2 * 11 + 2, "%d samples, why %s", g.n, g.why);
	CHECK_SAMPLE(&g, "worker0/fix_size_alloc_test", "usec", 284332);
	CHECK_SAMPLE(&g, "worker1/pcpu_alloc_test", "usec", 1994989);
	CHECK_SAMPLE(&g, "worker1/total_cycles", "cycles", 35367903153);
	CHECK(!got_find(&g, "fix_size_alloc_test"), "two workers must be told apart");
	CHECK(g.n && !strcmp(g.s[0].workload, "test_vmalloc-sequential"), "workload %s",
	      g.n ? g.s[0].workload : "-");
	got_free(&g);

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "test_vmalloc", .section = "sequential",
					.out_file = "guest-init_on_alloc-sequential-quick.out" }, &g);
	CHECK(g.ret == 0 && g.n == 2 * 3 + 2, "%d samples, why %s", g.n, g.why);
	CHECK_SAMPLE(&g, "worker1/full_fit_alloc_test", "usec", 1420241);
	got_free(&g);
}

/* hb-test-vmalloc --each-test: one load per test, so each worker closes one block per test;
 * the parser joins a worker's blocks and sums its cycles. */
TEST(sequential_per_test)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "test_vmalloc", .section = "sequential",
					.out_file = "guest-baseline-sequential-per-test.out" }, &g);
	CHECK(g.ret == 0 && g.n == 2 * 11 + 2, "%d samples, why %s", g.n, g.why);
	CHECK_SAMPLE(&g, "worker0/fix_size_alloc_test", "usec", 8800);
	CHECK_SAMPLE(&g, "worker1/kvfree_rcu_2_arg_vmalloc_test", "usec", 3822);
	/* The sum of worker0's ten "All test took" lines. */
	CHECK_SAMPLE(&g, "worker0/total_cycles", "cycles", 3603495110);
	CHECK(!got_find(&g, "worker2/total_cycles"), "two workers, not one per load");
	got_free(&g);
	/* A guest's worker number indexes a table: one past its end is refused. */
	char *text = fixture_read(dir, "guest-baseline-sequential-per-test.out");
	char *bad = edited(text, "took worker1=", "took worker4096=");
	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "test_vmalloc", .section = "sequential",
					.out_text = bad }, &g);
	CHECK(g.n == 0, "a bad worker number gave %d samples", g.n);
	CHECK_HAS(g.why, "'All test took worker4096': not a worker number (0 to 4095)");
	got_free(&g);
	free(bad);
	free(text);
}

TEST(failed_test)
{
	refuses_edited(failures, fixture_dir(t->argc, t->argv), "fix_size_alloc_test passed: 3 failed: 0",
		       "fix_size_alloc_test passed: 2 failed: 1", "fix_size_alloc_test failed 1 of 3 runs");
}

TEST(unclosed_or_empty)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	refuses_edited(failures, dir, "All test took worker0", "All tests took worker0",
		       "without the closing 'All test took' line");
	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "test_vmalloc", .section = "performance",
					.out_text = "random_size_alloc_test: nothing here\n" }, &g);
	CHECK_HAS(g.why, "no 'Summary:' or 'All test took' lines");
	got_free(&g);
}

/* "-1" where a count goes (%llu would read it as 2^64-1): not a count. */
TEST(negative_counts)
{
	const char *dir = fixture_dir(t->argc, t->argv);

	char *text = fixture_read(dir, "guest-init_on_alloc-performance-quick.out");
	char *bad = edited(text, "avg: ", "avg: -");
	struct got g;

	refuses_edited(failures, dir, "All test took worker0=", "All test took worker0=-",
		       "without the closing 'All test took' line");
	/* A negative average loses that test's sample, not the others. */
	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "test_vmalloc", .section = "performance",
					.out_text = bad }, &g);
	CHECK(g.n > 0);
	for (int i = 0; i < g.n; i++)
		CHECK(strcmp(g.s[i].metric, "fix_size_alloc_test"), "sample of a negative average");
	got_free(&g);
	free(text);
	free(bad);
}

/* Worker 1's block cut after two of its Summary lines. */
TEST(sequential_cut)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	char *seq = fixture_read(dir, "guest-baseline-sequential.out");
	char *p = strstr(seq, "All test took worker0");
	struct got g;

	for (int n = 0; p && n < 3; n++)
		p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
	if (p)
		*p = '\0';
	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "test_vmalloc",
					.section = "sequential", .out_text = seq }, &g);
	CHECK(g.n == 0, "a cut output gave %d samples", g.n);
	CHECK_HAS(g.why, "without the closing 'All test took' line (output cut?)");
	got_free(&g);
	free(seq);
}

/* A real load where the module ignored a parameter and ran its 1M-loop default. */
TEST(unknown_param)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "test_vmalloc", .section = "performance",
					.out_file = "guest-unknown-param.out" }, &g);
	CHECK(g.n == 0, "an ignored parameter gave %d samples", g.n);
	CHECK_HAS(g.why, "unknown parameter 'no_such_param' ignored");
	got_free(&g);
}

TEST_MAIN()
