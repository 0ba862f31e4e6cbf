/* Every workload's parser on captured real outputs (tests/data/workloads/README.md says
 * where each was captured), through workload_rep_samples() as the run stage calls it:
 * the samples, their units and directions, and clear reasons for bad outputs.
 * usage: test_parsers <tests/data> */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/xalloc.h"
#include "fixture.h"

static void check_sample(int *failures, const struct got *g, const char *metric, const char *unit,
			 double value)
{
	const struct got_sample *s = got_find(g, metric);

	CHECK(s != NULL, "no sample %s", metric);
	if (!s)
		return;
	CHECK(!strcmp(s->unit, unit), "%s: unit %s, want %s", metric, s->unit, unit);
	CHECK(s->lower_is_better, "%s: should be lower-is-better", metric);
	/* Relative: the values run from milliseconds to tens of billions of cycles. */
	CHECK_NEAR(s->value, value, 1e-9 * fabs(value) + 1e-12);
}

/* Replaces the first occurrence of from by to in a copy of text. */
static char *edited(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);

	if (!at)
		return xstrdup(text);
	return xasprintf("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
}

/* The first n lines of a captured file: a job that died halfway. */
static char *first_lines(const char *dir, const char *file, int n)
{
	char *text = fixture_read(dir, file), *p = text;

	while (n-- > 0 && (p = strchr(p, '\n')))
		p++;
	if (p)
		*p = '\0';
	return text;
}

static void hackbench_cases(const char *dir, int *failures)
{
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hackbench",
					.out_file = "hackbench-guest-g10-l100.out" }, &g);
	CHECK(g.ret == 0 && !g.why, "why: %s", g.why);
	CHECK(g.n == 5, "%d samples, want time wall sys user guest_sys", g.n);
	check_sample(failures, &g, "time", "s", 13.364);
	check_sample(failures, &g, "wall", "s", FAKE_WALL);
	check_sample(failures, &g, "sys", "s", FAKE_SYS);
	check_sample(failures, &g, "user", "s", FAKE_USER);
	check_sample(failures, &g, "guest_sys", "s", FAKE_GUEST_SYS);
	CHECK(g.n && !strcmp(g.s[0].workload, "hackbench") && g.s[0].rep == 2 && g.s[0].cores == 2 &&
	      g.s[0].boot == 1 && !strcmp(g.s[0].variant, "baseline"), "context not carried over");
	got_free(&g);

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hackbench",
					.out_file = "hackbench-host-g4-l50-pipes-threads.out" }, &g);
	check_sample(failures, &g, "time", "s", 0.043);
	got_free(&g);

	/* Cut before its Time: line. */
	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hackbench",
					.out_text = "Running in process mode with 10 groups using 40 "
						    "file descriptors each (== 400 tasks)\n" }, &g);
	CHECK(g.ret == -1 && g.n == 0, "a cut output gave %d samples", g.n);
	CHECK_HAS(g.why, "no 'Time: <seconds>' line");
	got_free(&g);

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hackbench", .exit_code = 1,
					.out_text = "", .err_file = NULL }, &g);
	CHECK_HAS(g.why, "prog exited with status 1");
	got_free(&g);

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hackbench", .exit_code = -1,
					.term_signal = 9, .out_file = "hackbench-guest-g2-l50.out" }, &g);
	CHECK(g.n == 0, "a killed job gave %d samples", g.n);
	CHECK_HAS(g.why, "killed by signal 9");
	got_free(&g);
}

static void hugetlb_cases(const char *dir, int *failures)
{
	struct got g;
	char *cut;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hugetlb",
					.out_file = "hugetlb-guest-baseline-rep1.out" }, &g);
	CHECK(g.ret == 0 && g.n == 4, "%d samples, why %s", g.n, g.why);
	check_sample(failures, &g, "wall", "s", 0.007042);
	check_sample(failures, &g, "sys", "s", 0.007091);
	check_sample(failures, &g, "release_wall", "s", 0.012840);
	CHECK(!got_find(&g, "pages"), "pages is a setting, not a sample");
	got_free(&g);

	/* The first rep of a boot also reports its warm-up, which is not a sample. */
	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hugetlb",
					.out_file = "hugetlb-guest-baseline-rep0.out" }, &g);
	CHECK(g.ret == 0 && g.n == 4 && !got_find(&g, "warmup"), "%d samples", g.n);
	got_free(&g);

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hugetlb",
					.out_file = "hugetlb-guest-init_on_alloc-rep1.out" }, &g);
	check_sample(failures, &g, "wall", "s", 0.655478);
	got_free(&g);

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hugetlb",
					.out_file = "hugetlb-guest-init_on_free-rep1.out" }, &g);
	check_sample(failures, &g, "release_sys", "s", 0.601682);
	got_free(&g);

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hugetlb", .exit_code = 1,
					.out_file = "hugetlb-guest-too-small.out",
					.err_file = "hugetlb-guest-too-small.err" }, &g);
	CHECK(g.n == 0, "a failed job gave %d samples", g.n);
	CHECK_HAS(g.why, "hb-hugetlb: only 990 of 2000 huge pages");
	CHECK_HAS(g.why, "guest too small");
	got_free(&g);

	cut = first_lines(dir, "hugetlb-guest-baseline-rep1.out", 4);
	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hugetlb", .out_text = cut }, &g);
	CHECK(g.n == 0, "a cut output gave %d samples", g.n);
	CHECK_HAS(g.why, "no 'zero_check' line");
	got_free(&g);
	free(cut);
}

static void test_vmalloc_performance(const char *dir, int *failures)
{
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "test_vmalloc", .section = "performance",
					.out_file = "test_vmalloc-guest-baseline-performance.out" }, &g);
	CHECK(g.ret == 0 && !g.why, "why: %s", g.why);
	CHECK(g.n == 10 + 1 + 2, "%d samples, want 10 tests, total_cycles, wall, guest_sys", g.n);
	check_sample(failures, &g, "fix_size_alloc_test", "usec", 87785);
	check_sample(failures, &g, "kvfree_rcu_2_arg_vmalloc_test", "usec", 150485);
	/* Fails by design: recorded, not an error. */
	check_sample(failures, &g, "align_shift_alloc_test", "usec", 4217);
	check_sample(failures, &g, "total_cycles", "cycles", 38925627448);
	check_sample(failures, &g, "wall", "s", FAKE_WALL);
	CHECK(g.n && !strcmp(g.s[0].workload, "test_vmalloc-performance"), "workload %s",
	      g.n ? g.s[0].workload : "-");
	got_free(&g);
}

static void test_vmalloc_sequential(const char *dir, int *failures)
{
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "test_vmalloc", .section = "sequential",
					.out_file = "test_vmalloc-guest-baseline-sequential.out" }, &g);
	CHECK(g.ret == 0 && g.n == 2 * 11 + 2, "%d samples, why %s", g.n, g.why);
	check_sample(failures, &g, "worker0/fix_size_alloc_test", "usec", 284332);
	check_sample(failures, &g, "worker1/pcpu_alloc_test", "usec", 1994989);
	check_sample(failures, &g, "worker1/total_cycles", "cycles", 35367903153);
	CHECK(!got_find(&g, "fix_size_alloc_test"), "two workers must be told apart");
	CHECK(g.n && !strcmp(g.s[0].workload, "test_vmalloc-sequential"), "workload %s",
	      g.n ? g.s[0].workload : "-");
	got_free(&g);

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "test_vmalloc", .section = "sequential",
					.out_file = "test_vmalloc-guest-init_on_alloc-sequential-quick.out" }, &g);
	CHECK(g.ret == 0 && g.n == 2 * 3 + 2, "%d samples, why %s", g.n, g.why);
	check_sample(failures, &g, "worker1/full_fit_alloc_test", "usec", 1420241);
	got_free(&g);
}

static void test_vmalloc_bad(const char *dir, int *failures)
{
	struct got g;
	char *text = fixture_read(dir, "test_vmalloc-guest-init_on_alloc-performance-quick.out");
	char *failed = edited(text, "fix_size_alloc_test passed: 3 failed: 0",
			      "fix_size_alloc_test passed: 2 failed: 1");
	char *unclosed = edited(text, "All test took worker0", "All tests took worker0");

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "test_vmalloc", .section = "performance",
					.out_text = failed }, &g);
	CHECK(g.n == 0, "a failed test gave %d samples", g.n);
	CHECK_HAS(g.why, "fix_size_alloc_test failed 1 of 3 runs");
	got_free(&g);

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "test_vmalloc", .section = "performance",
					.out_text = unclosed }, &g);
	CHECK_HAS(g.why, "without the closing 'All test took' line");
	got_free(&g);

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "test_vmalloc", .section = "performance",
					.out_text = "random_size_alloc_test: nothing here\n" }, &g);
	CHECK_HAS(g.why, "no 'Summary:' or 'All test took' lines");
	got_free(&g);

	/* Worker 1's block cut after two of its Summary lines. */
	{
		char *seq = fixture_read(dir, "test_vmalloc-guest-baseline-sequential.out");
		char *p = strstr(seq, "All test took worker0");
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
	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "test_vmalloc", .section = "performance",
					.out_file = "test_vmalloc-guest-unknown-param.out" }, &g);
	CHECK(g.n == 0, "an ignored parameter gave %d samples", g.n);
	CHECK_HAS(g.why, "unknown parameter 'no_such_param' ignored");
	got_free(&g);
	free(text);
	free(failed);
	free(unclosed);
}

static void vmaops_cases(const char *dir, int *failures)
{
	struct got g;
	char *cut;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "vmaops",
					.out_file = "vmaops-guest-linux6.1.out" }, &g);
	CHECK(g.ret == 0 && g.n == 3 * 6 * 2, "%d samples, why %s", g.n, g.why);
	check_sample(failures, &g, "mprotect/1", "ns", 4390.8);
	check_sample(failures, &g, "madvise/32/per_vma", "ns", 1461.3);
	CHECK(!got_find(&g, "mseal/1"), "Linux 6.1 has no mseal rows");
	got_free(&g);

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "vmaops",
					.out_file = "vmaops-host-linux6.18.out" }, &g);
	CHECK(g.ret == 0 && g.n == 4 * 6 * 2, "%d samples, why %s", g.n, g.why);
	check_sample(failures, &g, "mseal/32", "ns", 3160.5);
	check_sample(failures, &g, "munmap/16/per_vma", "ns", 435.8);
	got_free(&g);

	cut = first_lines(dir, "vmaops-guest-linux6.1.out", 19);
	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "vmaops", .out_text = cut }, &g);
	CHECK(g.n == 0, "a cut output gave %d samples", g.n);
	CHECK_HAS(g.why, "no row for madvise over 32 VMAs");
	got_free(&g);
	free(cut);

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "vmaops",
					.out_text = "mprotect 1 calls 10 ns_per_call fast\n" }, &g);
	CHECK_HAS(g.why, "unexpected line 'mprotect 1 calls 10 ns_per_call fast'");
	got_free(&g);
}

static void kbuild_cases(const char *dir, int *failures)
{
	struct got g;
	char *cut;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "kbuild",
					.out_file = "kbuild-host-tinyconfig-sched.out" }, &g);
	CHECK(g.ret == 0 && g.n == 4, "%d samples, why %s", g.n, g.why);
	check_sample(failures, &g, "wall", "s", 22.297);
	check_sample(failures, &g, "sys", "s", 0.759);
	check_sample(failures, &g, "guest_sys", "s", 3.26);
	got_free(&g);

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "kbuild",
					.out_file = "kbuild-guest-tinyconfig-sched-rep1.out" }, &g);
	CHECK(g.ret == 0 && g.n == 4, "%d samples, why %s", g.n, g.why);
	check_sample(failures, &g, "wall", "s", 125.673);
	check_sample(failures, &g, "user", "s", 139.067);
	check_sample(failures, &g, "guest_sys", "s", 52.36);
	CHECK(!got_find(&g, "setup"), "the untimed setup is not a sample");
	got_free(&g);

	cut = first_lines(dir, "kbuild-host-tinyconfig-sched.out", 3);
	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "kbuild", .out_text = cut }, &g);
	CHECK_HAS(g.why, "no 'user_s <seconds>' line");
	got_free(&g);
	free(cut);
}

int main(int argc, char **argv)
{
	int failures = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s TESTS_DATA_DIR\n", argv[0]);
		return 2;
	}
	hackbench_cases(argv[1], &failures);
	hugetlb_cases(argv[1], &failures);
	test_vmalloc_performance(argv[1], &failures);
	test_vmalloc_sequential(argv[1], &failures);
	test_vmalloc_bad(argv[1], &failures);
	vmaops_cases(argv[1], &failures);
	kbuild_cases(argv[1], &failures);
	return check_done("workload parsers", failures);
}
