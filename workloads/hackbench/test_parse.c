/* hackbench's parser on captured real outputs (testdata/README.md says where each was
 * captured), through workload_rep_samples() as the run stage calls it: the samples, their
 * units and directions, and clear reasons for bad outputs.
 * usage: test_parse <workloads/hackbench/testdata> */
#include <string.h>

#include "fixture.h"
#include "test.h"

TEST(guest_output)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hackbench",
					.out_file = "guest-g10-l100.out" }, &g);
	CHECK(g.ret == 0 && !g.why, "why: %s", g.why);
	CHECK(g.n == 7, "%d samples, want time wall sys user guest_sys ipi_call ipi_tlb", g.n);
	CHECK_SAMPLE(&g, "time", "s", 13.364);
	CHECK_SAMPLE(&g, "wall", "s", FAKE_WALL);
	CHECK_SAMPLE(&g, "sys", "s", FAKE_SYS);
	CHECK_SAMPLE(&g, "user", "s", FAKE_USER);
	CHECK_SAMPLE(&g, "guest_sys", "s", FAKE_GUEST_SYS);
	CHECK_SAMPLE(&g, "ipi_call", "IPIs", FAKE_IRQ_CAL);
	CHECK_SAMPLE(&g, "ipi_tlb", "IPIs", FAKE_IRQ_TLB);
	CHECK(!g.gaps, "gaps: %s", g.gaps);
	CHECK(g.n && !strcmp(g.s[0].workload, "hackbench") && g.s[0].rep == 2 && g.s[0].cores == 2 &&
	      g.s[0].boot == 1 && !strcmp(g.s[0].variant, "baseline"), "context not carried over");
	got_free(&g);
}

TEST(host_pipes_threads)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hackbench",
					.out_file = "host-g4-l50-pipes-threads.out" }, &g);
	CHECK_SAMPLE(&g, "time", "s", 0.043);
	got_free(&g);
}

/* A guest kernel without a TLB row: no ipi_tlb sample (never a zero), the rest kept, and
 * the reason for the run to record. */
TEST(missing_irq_row)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hackbench",
					.out_file = "guest-g10-l100.out", .no_tlb_row = true }, &g);
	CHECK(g.ret == 0 && !g.why, "why: %s", g.why);
	CHECK(g.n == 6 && !got_find(&g, "ipi_tlb"), "%d samples; ipi_tlb must have none", g.n);
	CHECK_SAMPLE(&g, "ipi_call", "IPIs", FAKE_IRQ_CAL);
	CHECK_STR(g.gaps, "no ipi_tlb sample: " FAKE_NO_TLB_ROW);
	got_free(&g);
}

/* Cut before its Time: line. */
TEST(cut_output)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hackbench",
					.out_text = "Running in process mode with 10 groups using 40 "
						    "file descriptors each (== 400 tasks)\n" }, &g);
	CHECK(g.ret == -1 && g.n == 0, "a cut output gave %d samples", g.n);
	CHECK_HAS(g.why, "no 'Time: <seconds>' line");
	got_free(&g);
}

TEST(failed_or_killed)
{
	const char *dir = fixture_dir(t->argc, t->argv);
	struct got g;

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hackbench", .exit_code = 1,
					.out_text = "", .err_file = NULL }, &g);
	CHECK_HAS(g.why, "prog exited with status 1");
	got_free(&g);

	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "hackbench", .exit_code = -1,
					.term_signal = 9, .out_file = "guest-g2-l50.out" }, &g);
	CHECK(g.n == 0, "a killed job gave %d samples", g.n);
	CHECK_HAS(g.why, "killed by signal 9");
	got_free(&g);
}

TEST_MAIN()
