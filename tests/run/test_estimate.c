/* The time estimate (run/estimate.c): per-cell seconds from workload.ini's figures (TCG:
 * boot + warm-up + reps x per-rep; KVM: a faster boot and the guest work 8x faster; icount:
 * its own boot and per-rep figures),
 * corrected by what cells really took; and the kernel build time. */
#include "test.h"
#include "run/estimate.h"
#include "workload/workload.h"

/* a: 5 s a repetition, 2 s warm-up per boot; b: no per-repetition figure (10 s assumed). */
struct fixture {
	struct workload w[2];
	const struct workload *ws[2];
	struct estimator e;
};

static struct estimator *two_workloads(struct fixture *f, enum accel_kind accel)
{
	f->w[0] = (struct workload){ .name = "a", .est_rep_s = 5, .est_boot_s = 2 };
	f->w[1] = (struct workload){ .name = "b" };
	f->ws[0] = &f->w[0];
	f->ws[1] = &f->w[1];
	estimator_init(&f->e, f->ws, 2, accel, NULL);
	return &f->e;
}

TEST(tcg_estimate_from_workload_figures)
{
	struct fixture f, slow;
	struct estimator *e = two_workloads(&f, ACCEL_TCG);

	CHECK_NEAR(estimate_cell_s(e, "a", 3), 8 + 2 + 5 * 3, 1e-9);
	CHECK_NEAR(estimate_cell_s(e, "a", 1), 8 + 2 + 5, 1e-9);
	CHECK_NEAR(estimate_cell_s(e, "b", 2), 8 + 10 * 2, 1e-9);
	CHECK_NEAR(estimate_cell_s(e, "nope", 2), 0, 0);
	estimator_free(e);
	/* AUTO assumes the slow case. */
	e = two_workloads(&slow, ACCEL_AUTO);
	CHECK_NEAR(estimate_cell_s(e, "a", 3), 25, 1e-9);
	estimator_free(e);
}

TEST(kvm_estimate_is_faster)
{
	struct fixture f;
	struct estimator *e = two_workloads(&f, ACCEL_KVM);

	CHECK_NEAR(estimate_cell_s(e, "a", 3), 1.5 + (2 + 15) / 8.0, 1e-9);
	CHECK_NEAR(estimate_cell_s(e, "b", 1), 1.5 + 10 / 8.0, 1e-9);
	estimator_free(e);
}

/* Cells that took twice the estimate double the next estimate of that workload only;
 * the ratio is over all observations (15 s + 60 s actual for 25 + 25 estimated). */
TEST(observations_correct_per_workload)
{
	struct fixture f;
	struct estimator *e = two_workloads(&f, ACCEL_TCG);

	estimator_observe(e, "a", 3, 50);
	CHECK_NEAR(estimate_cell_s(e, "a", 3), 50, 1e-9);
	CHECK_NEAR(estimate_cell_s(e, "a", 1), 30, 1e-9);
	CHECK_NEAR(estimate_cell_s(e, "b", 2), 28, 1e-9);
	estimator_observe(e, "a", 3, 10);
	CHECK_NEAR(estimate_cell_s(e, "a", 3), 25 * 60 / 50.0, 1e-9);
	estimator_observe(e, "nope", 3, 1000);
	CHECK_NEAR(estimate_cell_s(e, "b", 2), 28, 1e-9);
	estimator_free(e);
}

/* Under icount (a clock per workload): the icount boot, and the workload's own icount
 * figure per repetition (a: 20 s, four times its TCG 5 s, the warm-up scaled alike), or
 * twice the TCG figure without one (b); a host-clock workload keeps the TCG estimate. */
TEST(icount_estimate_per_workload)
{
	struct fixture f;
	enum guest_clock clocks[2] = { CLOCK_ICOUNT, CLOCK_ICOUNT };
	struct estimator *e = two_workloads(&f, ACCEL_TCG);

	f.w[0].est_icount_rep_s = 20;
	estimator_free(e);
	estimator_init(e, f.ws, 2, ACCEL_TCG, clocks);
	CHECK_NEAR(estimate_cell_s(e, "a", 3), 8 + (2 + 15) * 4, 1e-9);
	CHECK_NEAR(estimate_cell_s(e, "b", 2), 8 + 10 * 2 * 2, 1e-9);
	clocks[1] = CLOCK_HOST;
	CHECK_NEAR(estimate_cell_s(e, "b", 2), 8 + 10 * 2, 1e-9);
	estimator_free(e);
}

/* About 22 core-minutes, split over the jobs; 0 jobs counts as one. */
TEST(kernel_build_estimate)
{
	CHECK_NEAR(estimate_kernel_build_s(1), 1320, 1e-9);
	CHECK_NEAR(estimate_kernel_build_s(2), 660, 1e-9);
	CHECK_NEAR(estimate_kernel_build_s(0), 1320, 1e-9);
}

TEST_MAIN()
