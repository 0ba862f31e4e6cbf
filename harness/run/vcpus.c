/* vCPU counts against host cores. Under the icount clock QEMU runs every vCPU of a guest in
 * one host thread, in turn (round-robin TCG), so a guest of any vCPU count uses one
 * host core: `--cores 2,6,12,24` runs on a 2-core host without --overcommit, and without
 * the noise an overcommitted host-clock guest suffers. Under the host clock (KVM, or TCG
 * with --clock host) each vCPU is a thread of its own and wants a core. */
#include "run/vcpus.h"

#include <stdio.h>
#include <string.h>

#include "boot/clock.h"
#include "boot/vm.h"
#include "common/xalloc.h"
#include "run/matrix.h"
#include "run/run.h"
#include "workload/workload.h"

bool run_cores_unbounded(const struct run_opts *o)
{
	enum guest_clock c = vm_cli_clock(&o->vm);
	/* auto is icount unless the accel turns out to be KVM: checked again once it is
	 * resolved (run_check_vcpus). */
	return c == CLOCK_ICOUNT || (c == CLOCK_AUTO && vm_cli_accel(&o->vm) != ACCEL_KVM);
}

int run_check_cores(const struct run *r, const long *cores, size_t n, char **why)
{
	return matrix_check_cores(cores, n, r->host_cores,
				  r->opts->vm.overcommit || run_cores_unbounded(r->opts), why);
}

/* The largest vCPU count the plan gives workload w (0: none). */
static int max_cores_of(const struct run *r, const char *w)
{
	int most = 0;

	for (size_t i = 0; i < r->plan.ncells; i++)
		if (!strcmp(r->plan.cells[i].workload, w) && r->plan.cells[i].cores > most)
			most = r->plan.cells[i].cores;
	return most;
}

int run_check_vcpus(const struct run *r, char **why)
{
	if (r->opts->vm.overcommit || r->host_cores <= 0)
		return 0;
	for (size_t i = 0; i < r->nworkloads; i++) {
		const char *w = r->workloads[i]->name;
		int most = max_cores_of(r, w);
		if (r->clocks[i] != CLOCK_ICOUNT && most > r->host_cores) {
			*why = xasprintf("--cores %d: %s runs under the host clock (%s), one thread per "
					 "vCPU, and this host has %d physical cores (accepted: at most %d, "
					 "--overcommit, or --clock icount under TCG)", most, w,
					 r->clock_why[i], r->host_cores, r->host_cores);
			return -1;
		}
	}
	return 0;
}

void run_print_vcpus(const struct run *r, FILE *out)
{
	int most = 0;

	for (size_t i = 0; i < r->nworkloads; i++)
		if (r->clocks[i] == CLOCK_ICOUNT && max_cores_of(r, r->workloads[i]->name) > most)
			most = max_cores_of(r, r->workloads[i]->name);
	if (r->host_cores > 0 && most > r->host_cores)
		fprintf(out, "vCPUs: up to %d on this %d-core host: icount runs every vCPU of a guest in "
			"one host thread, in turn, so host cores do not bound them (no --overcommit); "
			"a cell's host time grows with them (1.5x at 6, 2.5x at 24: estimate)\n", most,
			r->host_cores);
}
