#include "run/estimate.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "workload/workload.h"

/* Boot to the init's hello and power-off: measured about 4-8 s under TCG on the 2-core
 * development machine; a KVM boot of the same kernel is well under 2 s. */
static const double boot_tcg_s = 8.0;
static const double boot_kvm_s = 1.5;
/* An icount boot costs what a host-clock one does since the kernel takes the APIC
 * timer's rate from lapic_timer_khz= (before: 11-21 s to the init's hello, 9 s of it the
 * calibration spin). Measured here at load 10, 1 vCPU, 5 boots each interleaved
 * (bench/boot-clocks.sh): init up after 4.07 s median under icount, 4.20 s under host. */
static const double boot_icount_s = 8.0;
/* icount runs every vCPU in one host thread, where TCG at 2 vCPUs used two: a workload
 * without its own icount figure is assumed to take twice its TCG time. */
static const double icount_serial_factor = 2.0;
/* Kernel-heavy guest work runs several times faster under KVM than under TCG. This only
 * shapes the first ETA; observations replace it after the first cell. */
static const double kvm_speedup = 8.0;
/* A cold tinyconfig-based 6.1 build took 10m48s with -j2 here: about 22 core-minutes. */
static const double kernel_build_core_s = 22.0 * 60.0;

void estimator_init(struct estimator *e, const struct workload *const *ws, size_t n,
		    enum accel_kind accel, const enum guest_clock *clocks)
{
	*e = (struct estimator){ .accel = accel, .n = n, .workloads = ws, .clocks = clocks,
				 .observed = xcalloc(n, sizeof(double)),
				 .expected = xcalloc(n, sizeof(double)) };
}

void estimator_free(struct estimator *e)
{
	free(e->observed);
	free(e->expected);
}

static long find(const struct estimator *e, const char *name)
{
	for (size_t i = 0; i < e->n; i++)
		if (!strcmp(e->workloads[i]->name, name))
			return (long)i;
	return -1;
}

static double raw_estimate(const struct estimator *e, size_t i, int reps)
{
	const struct workload *w = e->workloads[i];
	double per_rep = w->est_rep_s > 0 ? w->est_rep_s : 10.0;

	if (e->clocks && e->clocks[i] == CLOCK_ICOUNT) { /* TCG-only */
		double factor = w->est_icount_rep_s > 0 ? w->est_icount_rep_s / per_rep
			: icount_serial_factor;
		return boot_icount_s + (w->est_boot_s + per_rep * reps) * factor;
	}
	if (e->accel == ACCEL_KVM)
		return boot_kvm_s + (w->est_boot_s + per_rep * reps) / kvm_speedup;
	return boot_tcg_s + w->est_boot_s + per_rep * reps;
}

double estimate_cell_s(const struct estimator *e, const char *workload, int reps)
{
	long i = find(e, workload);
	double raw;

	if (i < 0)
		return 0;
	raw = raw_estimate(e, (size_t)i, reps);
	if (e->expected[i] > 0)
		raw *= e->observed[i] / e->expected[i];
	return raw;
}

void estimator_observe(struct estimator *e, const char *workload, int reps, double seconds)
{
	long i = find(e, workload);

	if (i < 0)
		return;
	e->expected[i] += raw_estimate(e, (size_t)i, reps);
	e->observed[i] += seconds;
}

double estimate_kernel_build_s(int jobs)
{
	return kernel_build_core_s / (jobs > 0 ? jobs : 1);
}
