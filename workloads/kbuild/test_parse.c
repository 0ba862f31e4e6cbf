/* kbuild's parser on captured real outputs (testdata/README.md says where each was
 * captured), through workload_rep_samples() as the run stage calls it.
 * usage: test_parse <workloads/kbuild/testdata> */
#include <stdlib.h>

#include "fixture.h"
#include "test.h"

TEST(host_build)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "kbuild",
					.out_file = "host-tinyconfig-sched.out" }, &g);
	CHECK(g.ret == 0 && g.n == 6, "%d samples, why %s", g.n, g.why);
	CHECK_SAMPLE(&g, "wall", "s", 22.297);
	CHECK_SAMPLE(&g, "ipi_call", "IPIs", FAKE_IRQ_CAL); /* the guest init's, not the output's */
	CHECK_SAMPLE(&g, "ipi_tlb", "IPIs", FAKE_IRQ_TLB);
	CHECK_SAMPLE(&g, "sys", "s", 0.759);
	CHECK_SAMPLE(&g, "guest_sys", "s", 3.26);
	got_free(&g);
}

TEST(guest_second_rep)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "kbuild",
					.out_file = "guest-tinyconfig-sched-rep1.out" }, &g);
	CHECK(g.ret == 0 && g.n == 6, "%d samples, why %s", g.n, g.why);
	CHECK_SAMPLE(&g, "wall", "s", 125.673);
	CHECK_SAMPLE(&g, "user", "s", 139.067);
	CHECK_SAMPLE(&g, "guest_sys", "s", 52.36);
	CHECK(!got_find(&g, "setup"), "the untimed setup is not a sample");
	got_free(&g);
}

/* Since 2026-12-02 the helper also says whether the make waited: idle, iowait and disk
 * reads over the make (all 0 here). Older outputs without them still parse (above). */
TEST(guest_wait_lines)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "kbuild",
					.out_file = "guest-icount-memroot-rep0.out" }, &g);
	CHECK(g.ret == 0 && g.n == 9, "%d samples, why %s", g.n, g.why);
	CHECK_SAMPLE(&g, "wall", "s", 14.712);
	CHECK_SAMPLE(&g, "guest_sys", "s", 2.03);
	CHECK(got_find(&g, "guest_idle") && got_find(&g, "guest_iowait"), "idle and iowait samples");
	CHECK_SAMPLE(&g, "disk_read", "KiB", 0);
	got_free(&g);

	/* A negative count from a guest is not a sample. */
	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "kbuild",
					.out_text = "wall_s 1\nuser_s 1\nsys_s 1\nguest_sys_s 1\ndisk_read_kib -5\n" }, &g);
	CHECK(g.ret == 0 && !got_find(&g, "disk_read"), "negative disk_read kept");
	got_free(&g);
}

TEST(cut_output)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	char *cut = fixture_first_lines(dir, "host-tinyconfig-sched.out", 3);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "kbuild", .out_text = cut }, &g);
	CHECK_HAS(g.why, "no 'user_s <seconds>' line");
	got_free(&g);
	free(cut);
}

TEST_MAIN()
