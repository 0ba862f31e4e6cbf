#include "run/estimate.h"

#include <stdlib.h>
#include <string.h>

#include "boot/clock.h"
#include "common/argparse.h"
#include "common/xalloc.h"
#include "run/plan.h"
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
	pace_free(&e->pace);
	hb_free_strv(e->groups);
	e->groups = NULL;
}

/* The workload.ini seconds a pace is a factor of: part of its group (pace.h). */
static char *estimate_basis(const struct workload *w)
{
	return xasprintf("est_rep_s=%g est_boot_s=%g est_icount_rep_s=%g", w->est_rep_s,
			 w->est_boot_s, w->est_icount_rep_s);
}

void estimator_use_pace(struct estimator *e, char *const *params)
{
	struct hb_strv groups = { 0 };

	pace_free(&e->pace);
	hb_free_strv(e->groups);
	pace_load(&e->pace);
	for (size_t i = 0; i < e->n; i++) {
		char *basis = estimate_basis(e->workloads[i]);

		hb_strv_push(&groups, pace_group(vm_accel_name(e->accel == ACCEL_KVM ? ACCEL_KVM : ACCEL_TCG),
						 guest_clock_name(e->clocks ? e->clocks[i] : CLOCK_HOST),
						 e->workloads[i]->name, params, basis));
		free(basis);
	}
	hb_strv_push(&groups, NULL);
	e->groups = groups.v;
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

	if (e->clocks && clock_runs_icount(e->clocks[i])) { /* TCG-only */
		double factor = w->est_icount_rep_s > 0 ? w->est_icount_rep_s / per_rep
			: icount_serial_factor;
		return boot_icount_s + (w->est_boot_s + per_rep * reps) * factor;
	}
	if (e->accel == ACCEL_KVM)
		return boot_kvm_s + (w->est_boot_s + per_rep * reps) / kvm_speedup;
	return boot_tcg_s + w->est_boot_s + per_rep * reps;
}

/* Under icount QEMU runs every vCPU of a guest in one host thread, in turn, so each vCPU
 * above the two workload.ini's figures were taken at adds host time: bringing it online
 * (the kernel calibrates each secondary's delay loop) and its ticks. Measured on the
 * project's 2-core machine, one boot per count, as the host CPU seconds of QEMU and
 * virtiofsd per cell (cells.jsonl cpu_seconds: what a cell costs on an idle host, whatever
 * the load; the host was at load 12): hackbench 8.68 s at 2 vCPUs, 13.27 at 6, 17.27 at
 * 12, 24.82 at 24; hugetlb 10.70, 16.02, 21.44, 23.09. The table holds the two workloads'
 * mean ratio to the 2-vCPU cell, interpolated between counts and extended past 24 at the
 * 12-24 slope; 1 and 2 vCPUs keep workload.ini's figures. A factor of its own, so that a
 * workload's pace (run/pace.h) still scales it. */
static const struct {
	int vcpus;
	double ratio;
} icount_vcpu_cost[] = { { 2, 1.0 }, { 6, 1.515 }, { 12, 1.995 }, { 24, 2.51 } };

static double vcpu_factor(const struct estimator *e, size_t i, const struct plan_cell *c)
{
	size_t n = sizeof(icount_vcpu_cost) / sizeof(icount_vcpu_cost[0]), k = 1;

	if (!c || !e->clocks || e->clocks[i] != CLOCK_ICOUNT || c->cores <= 2)
		return 1.0;
	while (k < n - 1 && c->cores > icount_vcpu_cost[k].vcpus)
		k++;
	return icount_vcpu_cost[k - 1].ratio + (c->cores - icount_vcpu_cost[k - 1].vcpus) *
		(icount_vcpu_cost[k].ratio - icount_vcpu_cost[k - 1].ratio) /
		(icount_vcpu_cost[k].vcpus - icount_vcpu_cost[k - 1].vcpus);
}

/* The pace of workload i's cell c (NULL: of its group as a whole). */
static double pace_of(const struct estimator *e, size_t i, const struct plan_cell *c,
		      enum pace_match *match)
{
	char *kind;
	double f;

	*match = PACE_NONE;
	if (!e->groups)
		return 1.0;
	kind = c ? pace_kind(c->line, c->variant, c->cores) : NULL;
	f = pace_factor(&e->pace, e->groups[i], kind, match);
	free(kind);
	return f;
}

static double paced(const struct estimator *e, size_t i, const struct plan_cell *c, int reps)
{
	enum pace_match match;
	return raw_estimate(e, i, reps) * vcpu_factor(e, i, c) * pace_of(e, i, c, &match);
}

static double corrected(const struct estimator *e, size_t i, double s)
{
	return e->expected[i] > 0 ? s * e->observed[i] / e->expected[i] : s;
}

double estimate_cell_s(const struct estimator *e, const struct plan_cell *c, int reps)
{
	long i = find(e, c->workload);
	return i < 0 ? 0 : corrected(e, (size_t)i, paced(e, (size_t)i, c, reps));
}

double estimate_workload_s(const struct estimator *e, const char *workload, int reps)
{
	long i = find(e, workload);
	return i < 0 ? 0 : corrected(e, (size_t)i, paced(e, (size_t)i, NULL, reps));
}

double estimate_reference_s(const struct estimator *e, const char *workload, int reps)
{
	long i = find(e, workload);
	return i < 0 ? 0 : raw_estimate(e, (size_t)i, reps);
}

enum pace_match estimate_pace_match(const struct estimator *e, const struct plan_cell *c)
{
	long i = find(e, c->workload);
	enum pace_match match = PACE_NONE;

	if (i >= 0)
		pace_of(e, (size_t)i, c, &match);
	return match;
}

void estimate_plan(const struct estimator *e, const struct plan *p, size_t from,
		   struct plan_estimate *out)
{
	*out = (struct plan_estimate){ 0 };
	for (size_t i = from; i < p->ncells; i++) {
		const struct plan_cell *c = &p->cells[i];
		int k = plan_cell_missing(p, c);

		if (!k)
			continue;
		out->cells++;
		out->seconds += estimate_cell_s(e, c, k);
		long w = find(e, c->workload);
		out->reference_s += w < 0 ? 0 : raw_estimate(e, (size_t)w, k) * vcpu_factor(e, (size_t)w, c);
		out->matched[estimate_pace_match(e, c)]++;
	}
}

static void observe(struct estimator *e, size_t i, const struct plan_cell *c, int reps,
		    double seconds)
{
	e->expected[i] += paced(e, i, c, reps);
	e->observed[i] += seconds;
}

void estimator_observe(struct estimator *e, const struct plan_cell *c, int reps, double seconds,
		       double booted_s)
{
	long i = find(e, c->workload);
	char *kind;

	if (i < 0)
		return;
	observe(e, (size_t)i, c, reps, seconds);
	if (!e->groups)
		return;
	kind = pace_kind(c->line, c->variant, c->cores);
	pace_learn(&e->pace, e->groups[i], kind, booted_s,
		   raw_estimate(e, (size_t)i, reps) * vcpu_factor(e, (size_t)i, c));
	free(kind);
}

void estimator_observe_workload(struct estimator *e, const char *workload, int reps,
				double seconds)
{
	long i = find(e, workload);

	if (i >= 0)
		observe(e, (size_t)i, NULL, reps, seconds);
}

void estimator_save_pace(const struct estimator *e)
{
	if (e->groups)
		pace_save(&e->pace);
}

double estimate_kernel_build_s(int jobs)
{
	return kernel_build_core_s / (jobs > 0 ? jobs : 1);
}
