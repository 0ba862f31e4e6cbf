/* How long a run will take: before it starts, from each workload's measured seconds per
 * repetition (workload.ini est_rep_s, taken under TCG with 2 vCPUs; est_icount_rep_s under
 * the icount clock, which adds its own boot cost), times this host's pace for that kind of
 * cell when an earlier run recorded one (run/pace.h); while it runs, corrected per
 * workload by the ratio of what its cells really took to what was estimated, so the ETA
 * converges on this host's pace. Each cell's real time is recorded as the next run's pace. */
#ifndef HB_RUN_ESTIMATE_H
#define HB_RUN_ESTIMATE_H

#include <stddef.h>

#include "boot/vm.h"
#include "run/pace.h"

struct plan;
struct plan_cell;
struct workload;

struct estimator {
	enum accel_kind accel;     /* ACCEL_AUTO: assume TCG (the slow case) */
	size_t n;
	const struct workload *const *workloads;
	const enum guest_clock *clocks; /* per workload (host or icount); NULL: host for all */
	double *observed;          /* per workload: sum of actual seconds */
	double *expected;          /* per workload: sum of estimated seconds for those cells */
	struct pace pace;          /* empty unless estimator_use_pace */
	char **groups;             /* per workload: its pace group; NULL: no pace */
};

/* clocks: the resolved clock of each of the n workloads (kept, not copied), or NULL. */
void estimator_init(struct estimator *e, const struct workload *const *ws, size_t n,
		    enum accel_kind accel, const enum guest_clock *clocks);
void estimator_free(struct estimator *e);
/* Reads this host's pace (after estimator_init): params are the run's --param list, which
 * with the accel and each workload's clock names the cells' groups. */
void estimator_use_pace(struct estimator *e, char *const *params);
/* Seconds for one boot of cell c running reps repetitions: paced, corrected by
 * observations. */
double estimate_cell_s(const struct estimator *e, const struct plan_cell *c, int reps);
/* The same for a cell of workload in general (its group's pace): the Slurm shards' ETA. */
double estimate_workload_s(const struct estimator *e, const char *workload, int reps);
/* workload.ini's seconds alone, no pace and no observation: what the dry run compares. */
double estimate_reference_s(const struct estimator *e, const char *workload, int reps);
/* Which pace figure answers for cell c. */
enum pace_match estimate_pace_match(const struct estimator *e, const struct plan_cell *c);
/* Cell c took seconds for reps repetitions, booted_s of them from its boot on (without a
 * workload's one-time preparation, such as kbuild's first source image): seconds correct
 * the ETA, booted_s is learned as this host's pace. */
void estimator_observe(struct estimator *e, const struct plan_cell *c, int reps, double seconds,
		       double booted_s);
/* A cell of workload in general took seconds (a Slurm shard's mean): the ETA only. */
void estimator_observe_workload(struct estimator *e, const char *workload, int reps,
				double seconds);
/* The cells of plan p still to run, from index from on: their estimated seconds (paced and
 * corrected, as estimate_cell_s), workload.ini's seconds alone, and how many cells each
 * pace figure answered for. */
struct plan_estimate {
	double seconds;
	double reference_s;
	size_t cells;
	size_t matched[PACE_KIND + 1]; /* by enum pace_match */
};
void estimate_plan(const struct estimator *e, const struct plan *p, size_t from,
		   struct plan_estimate *out);
/* Records what this run's cells took in pace.json for later estimates. */
void estimator_save_pace(const struct estimator *e);
/* Seconds to build one kernel from scratch with jobs parallel compilers (rough). */
double estimate_kernel_build_s(int jobs);

#endif
