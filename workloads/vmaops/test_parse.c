/* vmaops's parser on captured real outputs (testdata/README.md says where each was
 * captured), through workload_rep_samples() as the run stage calls it.
 * usage: test_parse <workloads/vmaops/testdata> */
#include <stdlib.h>

#include "fixture.h"
#include "test.h"

TEST(guest_linux61)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "vmaops",
					.out_file = "guest-linux6.1.out" }, &g);
	CHECK(g.ret == 0 && g.n == 3 * 6 * 2, "%d samples, why %s", g.n, g.why);
	CHECK_SAMPLE(&g, "mprotect/1", "ns", 4390.8);
	CHECK_SAMPLE(&g, "madvise/32/per_vma", "ns", 1461.3);
	CHECK(!got_find(&g, "mseal/1"), "Linux 6.1 has no mseal rows");
	got_free(&g);
}

TEST(host_linux618_mseal)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "vmaops",
					.out_file = "host-linux6.18.out" }, &g);
	CHECK(g.ret == 0 && g.n == 4 * 6 * 2, "%d samples, why %s", g.n, g.why);
	CHECK_SAMPLE(&g, "mseal/32", "ns", 3160.5);
	CHECK_SAMPLE(&g, "munmap/16/per_vma", "ns", 435.8);
	got_free(&g);
}

TEST(cut_output)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	char *cut = fixture_first_lines(dir, "guest-linux6.1.out", 19);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "vmaops", .out_text = cut }, &g);
	CHECK(g.n == 0, "a cut output gave %d samples", g.n);
	CHECK_HAS(g.why, "no row for madvise over 32 VMAs");
	got_free(&g);
	free(cut);
}

TEST(bad_line)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "vmaops",
					.out_text = "mprotect 1 calls 10 ns_per_call fast\n" }, &g);
	CHECK_HAS(g.why, "unexpected line 'mprotect 1 calls 10 ns_per_call fast'");
	got_free(&g);
}

TEST_MAIN()
