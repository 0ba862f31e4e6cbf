/* Workloads on the guest side: the jobs a cell boots, and its repetitions' results turned
 * into samples. For the run stage; analysis needs only workload/meta.h.
 *
 * How the run stage uses this, per workload of the plan:
 *   struct workload *w = workload_require("hackbench", &why); NULL if unknown or broken
 *   workload_apply_param(ws, n, "hackbench.groups=4", &why);  per --param, -1 if bad
 *   ... for each cell (variant, cores, boot):
 *   struct workload_cell cell;
 *   struct workload_target t = { .cores, .mem_mib, .reps, .prepare = !dry_run, .kernel };
 *   workload_cell_init_target(w, &t, &cell);                jobs, disks, min memory, notes
 *   opts.disks = (const char *const *)cell.disks; opts.mem_mib >= cell.min_mem_mib
 *   opts.accel: resolved once per run (accel_resolve(), boot/accel.h)
 *   vm_run(kernel, cmdline, cell.jobs, cell.njobs, &opts, &res);
 *   for each res.reps[i]:
 *       workload_rep_samples(w, &cell, &res.reps[i], &base, rs_append-like sink, ctx, &why)
 *           -> 0: samples were handed to the sink; -1: *why says why (record it, go on)
 *   workload_cell_free(&cell);
 *   workload_free(w);
 */
#ifndef HB_WORKLOAD_CELL_H
#define HB_WORKLOAD_CELL_H

#include <stdbool.h>
#include <stddef.h>

#include "boot/vm.h"
#include "kernel/kernel.h"
#include "results/store.h"
#include "workload/meta.h"

/* What a cell runs on. */
struct workload_target {
	int cores;               /* vCPUs */
	long mem_mib;            /* guest RAM (0: not known yet) */
	int reps;                /* repetitions of each job in one boot */
	bool prepare;            /* false (dry run): compute only, create no host files */
	/* The kernel the boot will run, or NULL when it is not built yet (dry run): with it,
	 * jobs can use the build's files through the host root (e.g. test_vmalloc.ko) and
	 * fail before the boot when the build lacks them. */
	const struct kernel_image *kernel;
};

/* One cell's guest side: the jobs a boot runs and what the boot needs. */
struct workload_cell {
	struct workload_target target;
	struct guest_job *jobs;  /* njobs entries, each with .reps = reps */
	size_t njobs;
	char **job_workload;     /* per job: the sample's workload name (<name> or <name>-<section>) */
	char **disks;            /* NULL-terminated, for vm_opts.disks (never NULL) */
	char **shares;           /* host paths the jobs read, for vm_opts.shares (never NULL) */
	long min_mem_mib;        /* the guest RAM the jobs need (0: no particular need) */
	char **notes;            /* NULL-terminated lines for --dry-run, e.g. "image X: to be made" */
};

/* A --param value the cell shows to be wrong (e.g. a make target not in the tree): a
 * usage error, where -1 is a failure. */
#define WORKLOAD_BAD_PARAM (-2)

/* Builds the cell's jobs. With t->prepare, also creates what the jobs need on the host
 * (e.g. kbuild's source image, made once and cached). 0, or -1 (WORKLOAD_BAD_PARAM)
 * after printing why. */
int workload_cell_init_target(const struct workload *w, const struct workload_target *t,
			      struct workload_cell *cell);
/* The same with the kernel not known (t->kernel = NULL). */
int workload_cell_init(const struct workload *w, int cores, long mem_mib, int reps, bool prepare,
		       struct workload_cell *cell);
void workload_cell_free(struct workload_cell *cell);
/* A host path the jobs read (the guest sees only what is declared: boot/host_view.h); for
 * the jobs callbacks, and the run stage adds --share. */
void workload_add_share(struct workload_cell *cell, const char *path);

/* Receives one sample; non-zero stops (e.g. rs_append failed). */
typedef int (*workload_sample_fn)(const struct sample *s, void *ctx);
/* One finished repetition -> its samples. base gives variant, cores and boot; this fills
 * workload (per job), metric, unit, lower_is_better, rep and value. All-or-nothing: when
 * the job failed (non-zero exit, signal) or its output does not parse, no sample is
 * handed out and *why (malloc'd, one line) says why. Returns 0, -1 (why set), or the
 * sink's non-zero value. */
int workload_rep_samples(const struct workload *w, const struct workload_cell *cell,
			 const struct job_rep_result *r, const struct sample *base,
			 workload_sample_fn sink, void *ctx, char **why);
/* The metrics a repetition that gave samples still has none of, and why: an irq.LABEL
 * whose row the guest's /proc/interrupts lacks ("no ipi_tlb sample: no row 'TLB' in the
 * guest's /proc/interrupts"). One malloc'd line ("; " between them), or NULL. */
char *workload_rep_gaps(const struct workload *w, const struct job_rep_result *r);

#endif
