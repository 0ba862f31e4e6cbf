/* How long a run will take: before it starts, from each workload's measured seconds per
 * repetition (workload.ini est_rep_s, taken under TCG with 2 vCPUs; est_icount_rep_s under
 * the icount clock, which adds its own boot cost); while it runs,
 * corrected per workload by the ratio of what its cells really took to what was
 * estimated, so the ETA converges on this host's pace. */
#ifndef HB_RUN_ESTIMATE_H
#define HB_RUN_ESTIMATE_H

#include <stddef.h>

#include "boot/vm.h"

struct workload;

struct estimator {
	enum accel_kind accel;     /* ACCEL_AUTO: assume TCG (the slow case) */
	size_t n;
	const struct workload *const *workloads;
	const enum guest_clock *clocks; /* per workload (host or icount); NULL: host for all */
	double *observed;          /* per workload: sum of actual seconds */
	double *expected;          /* per workload: sum of estimated seconds for those cells */
};

/* clocks: the resolved clock of each of the n workloads (kept, not copied), or NULL. */
void estimator_init(struct estimator *e, const struct workload *const *ws, size_t n,
		    enum accel_kind accel, const enum guest_clock *clocks);
void estimator_free(struct estimator *e);
/* Seconds for one boot of workload running reps repetitions, corrected by observations. */
double estimate_cell_s(const struct estimator *e, const char *workload, int reps);
void estimator_observe(struct estimator *e, const char *workload, int reps, double seconds);
/* Seconds to build one kernel from scratch with jobs parallel compilers (rough). */
double estimate_kernel_build_s(int jobs);

#endif
