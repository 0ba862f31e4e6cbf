/* The state of one `harness run`, shared by the files of harness/run/. */
#ifndef HB_RUN_RUN_H
#define HB_RUN_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <json-c/json.h>

#include "boot/vm.h"
#include "kernel/kernel.h"
#include "results/store.h"
#include "run/estimate.h"
#include "run/options.h"
#include "run/plan.h"

struct workload;

struct run_variant {
	char *line;                   /* kernel line */
	char *name;
	char *build;
	char *cmdline;
	struct kernel_image *kernel;  /* points into run.kernels once built */
};

/* A --kernel NAME=IMAGE: its variant is NAME, its build NAME, on the run's one line. */
struct run_prebuilt {
	char *name;
	char *cmdline;
	struct kernel_image image;
};

struct run {
	struct run_opts *opts;
	struct plan plan;
	struct workload **workloads;  /* in plan.workloads order */
	size_t nworkloads;
	struct run_variant *variants; /* in plan.variants order */
	size_t nvariants;
	struct kernel_image *kernels; /* one per distinct (line, build) */
	char **kernel_builds;
	char **kernel_lines;          /* the line of each kernel_builds entry */
	size_t nkernels;
	struct run_prebuilt *prebuilt; /* --kernel NAME=IMAGE, checked (run/prebuilt.c) */
	size_t nprebuilt;
	struct adhoc adhoc;           /* what --patch and --variant made (adhoc/adhoc.h) */
	long mem_mib;
	int host_cores;
	enum accel_kind accel;        /* resolved before the first boot */
	char *accel_reason;
	enum guest_clock *clocks;     /* per workload, in plan.workloads order (run/clocks.c) */
	char **clock_why;             /* why each has its clock ("auto: TCG") */
	char *dir;                    /* the result set */
	struct result_set *rs;
	json_object *meta;
	struct estimator est;
	int failures;
	bool interrupted;
	bool precise;                 /* --until-ci: the rule was met; later rounds not needed */
	int rounds_judged;            /* --until-ci: rounds the last verdict looked at */
	int run_lock_fd;
};

/* run/lock.c: one `harness run` at a time per result set (flock on RUN/.run.lock). */
int lock_run_dir(struct run *r);

/* run/setup.c: defaults, checks, workloads, variants, plan, memory. 0; or HB_EXIT_USAGE
 * (a bad option) or HB_EXIT_FAIL (a workload that cannot be loaded) with *why. */
int run_setup(struct run *r, char **why);

/* run/cell.c: boots one cell, appends its complete repetitions, journals the attempt.
 * Returns 0 (even when the cell failed: failures are counted in r), or -1 when the run
 * must stop (interrupted, or the result set cannot be written). */
int run_cell(struct run *r, struct plan_cell *c);
/* The workload / variant of a plan cell. */
struct workload *run_workload(const struct run *r, const char *name);
struct run_variant *run_variant(const struct run *r, const char *line, const char *name);

/* run/resume.c */
/* Marks the repetitions the journal lists as measured and drops samples of any other
 * repetition from samples.jsonl (a run that died between samples and journal line). */
int resume_load(struct run *r);
/* Rebuilds the options of the original run from meta.json "plan": 0; or -1 with *why (a
 * usage error) when the set has no plan or when options that define the plan were given too. */
int resume_read_plan(const char *dir, struct run_opts *o, char **why);

/* The strings of a JSON array (NULL-terminated; not an array: empty). */
char **strv_from_json(json_object *a);

/* run/meta.c */
/* --until-ci: records the rule's verdict after `rounds` rounds in meta.json "stop". */
void run_meta_set_stop(struct run *r, int rounds, const char *reason, double widest,
		       const char *widest_what);
json_object *run_meta_build(const struct run *r, int argc, char **argv);
void run_meta_set_status(struct run *r, const char *status);
/* Records machine, rootfs and the first vCPU -> PU map per vCPU count. */
void run_meta_note_boot(struct run *r, const struct vm_result *res, int cores);
/* meta.json "metric_gaps": {"<cell>": "no ipi_tlb sample: ..."}: what a cell's samples lack. */
void run_meta_note_gap(struct run *r, const char *cell, const char *gap);

/* run/prebuilt.c: --kernel NAME=IMAGE values loaded and checked into r->prebuilt (0, or
 * -1 with *why: a bad value, a taken name, an image without the guest's options). */
int run_prebuilt_load(struct run *r, char **why);
/* The prebuilt kernel named name, or NULL. */
const struct run_prebuilt *run_prebuilt_find(const struct run *r, const char *name);
/* A copy of its image for r->kernels. */
struct kernel_image run_prebuilt_image(const struct run_prebuilt *p);
void run_prebuilt_free(struct run *r);

/* run/clocks.c */
/* The accel, then each workload's clock (auto's follows the accel) and the estimator
 * that depends on both. may_probe false (a dry run; the plan printed before the kernels
 * exist): the probe's cached answer or TCG, never a boot. -1 when the first kernel boots
 * under neither accel (printed): no cell could run; HB_EXIT_USAGE (printed) when a workload
 * under the host clock has more vCPUs than host cores (run/vcpus.h). */
int run_resolve_accel(struct run *r, bool may_probe);
/* The clock of each workload, once r->accel is known (KVM or TCG). */
void run_choose_clocks(struct run *r);
void run_free_clocks(struct run *r);
enum guest_clock run_clock_of(const struct run *r, const char *workload);
/* "clock: icount (auto: TCG)", then a line for each workload that differs from it. */
void run_print_clocks(const struct run *r, FILE *out);
/* meta.json's "clock" (store.h RS_META_CLOCK). */
json_object *run_clocks_json(const struct run *r);

/* run/kernels.c: kernels for every variant of the plan (cached builds cost nothing). */
/* The distinct (line, build) pairs of the variants (r->kernel_lines, r->kernel_builds),
 * nothing built yet. */
void run_collect_builds(struct run *r);
int run_build_kernels(struct run *r);
/* Kernels not yet in the cache, for the dry-run estimate. */
size_t run_kernels_missing(const struct run *r);

#endif
