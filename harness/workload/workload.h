/* Workloads: what a guest runs and how its output becomes samples.
 *
 * A workload is a folder workloads/<name>/ holding workload.ini (description, seed,
 * parameters, metrics; format in workloads/README.md), parse.c (its jobs and its output
 * parser, see parser.h) and, when it needs one, a static guest helper. Adding a workload
 * adds a folder and its name in workloads/meson.build; nothing here lists them.
 *
 * How the run stage uses this, per workload of the plan:
 *   struct workload *w = workload_require("hackbench", &why); NULL if unknown or broken
 *   workload_apply_param(ws, n, "hackbench.groups=4", &why);  per --param, -1 if bad
 *   ... for each cell (variant, cores, boot):
 *   struct workload_cell cell;
 *   struct workload_target t = { .cores, .mem_mib, .reps, .prepare = !dry_run, .kernel };
 *   workload_cell_init_target(w, &t, &cell);                jobs, disks, min memory, notes
 *   opts.disks = (const char *const *)cell.disks; opts.mem_mib >= cell.min_mem_mib
 *   vm_run(kernel, cmdline, cell.jobs, cell.njobs, &opts, &res);
 *   for each res.reps[i]:
 *       workload_rep_samples(w, &cell, &res.reps[i], &base, rs_append-like sink, ctx, &why)
 *           -> 0: samples were handed to the sink; -1: *why says why (record it, go on)
 *   workload_cell_free(&cell);
 *   workload_free(w);
 */
#ifndef HB_WORKLOAD_WORKLOAD_H
#define HB_WORKLOAD_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>

#include "boot/vm.h"
#include "results/store.h"

#define WORKLOAD_INI "workload.ini"

enum workload_param_type {
	PARAM_INT,    /* integer in [min, max], or "auto" when allow_auto */
	PARAM_CHOICE, /* one of choices */
	PARAM_LIST,   /* comma-separated, each one of choices, no repeats */
	PARAM_STRING, /* matches pattern (POSIX extended regex, anchored) */
	PARAM_PATH,   /* the default value, or an existing file or directory */
};

struct workload_param {
	char *key;
	enum workload_param_type type;
	char *help;
	char *default_value;
	char *value;          /* the default, or the last --param override */
	long min, max;        /* PARAM_INT */
	bool allow_auto;      /* PARAM_INT: "auto" lets the workload decide (help says how) */
	char **choices;       /* PARAM_CHOICE, PARAM_LIST: NULL-terminated */
	char *pattern;        /* PARAM_STRING */
	char *accepted;       /* what the usage error and `harness list` say is accepted */
};

/* Where a metric's value comes from. */
enum metric_source {
	METRIC_OUTPUT,     /* the workload's parser, from the job's output */
	METRIC_JOB_WALL,   /* struct job_rep_result: the guest init's measurement of the job */
	METRIC_JOB_USER,
	METRIC_JOB_SYS,
	METRIC_GUEST_USER, /* whole guest, /proc/stat, over the job's run */
	METRIC_GUEST_SYS,
};

struct workload_metric {
	char *name;           /* exact, or an fnmatch(3) pattern such as "*_test" */
	char *unit;
	bool lower_is_better;
	char *description;
	enum metric_source source;
};

struct workload {
	char *name;
	char *dir;            /* workloads/<name> in the source tree */
	char *description;
	char *seed;           /* the list mails it reproduces, e.g. "000" or "001,002"; may be "" */
	char *helper;         /* guest helper (in the workload's build folder), or NULL */
	double est_rep_s;     /* seconds per rep, measured under TCG with 2 vCPUs at the defaults */
	double est_boot_s;    /* extra seconds once per boot (e.g. hugetlb's warm-up), same way */
	bool per_test;        /* report hint: many metrics, one row each (test_vmalloc, vmaops) */
	char **sections;      /* jobs filed as <name>-<section>, e.g. test_vmalloc-performance;
			       * NULL when none */
	struct workload_param *params;
	size_t nparams;
	struct workload_metric *metrics; /* exact names and patterns in any order */
	size_t nmetrics;
	const struct workload_parser *parser;
};

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
	long min_mem_mib;        /* the guest RAM the jobs need (0: no particular need) */
	char **notes;            /* NULL-terminated lines for --dry-run, e.g. "image X: to be made" */
};

/* Sorted, NULL-terminated names of the built-in workloads (hb_free_strv). */
char **workload_names(void);
/* Loads workloads/<name>/workload.ini. An unknown name: NULL with *why naming the known
 * ones (a usage error); a broken workload.ini: printed with file and line, then NULL with
 * *why NULL (a failure). */
struct workload *workload_require(const char *name, char **why);
void workload_free(struct workload *w);

/* --param: sets KEY of w: 0; or -1 with *why naming an unknown key or a bad value and
 * what is accepted (a usage error). */
int workload_set_param(struct workload *w, const char *key, const char *value, char **why);
/* --param W.KEY=VALUE for one of the n loaded workloads: a W that is not among them is
 * refused too. */
int workload_apply_param(struct workload *const *ws, size_t n, const char *spec, char **why);
/* Current value (string form) of a declared key; asking for an undeclared key is a bug
 * (fatal). */
const char *workload_param(const struct workload *w, const char *key);
/* PARAM_INT value; "auto" yields auto_value. */
long workload_param_long(const struct workload *w, const char *key, long auto_value);
/* {"key": "value", ...} of every parameter, for meta.json. */
json_object *workload_params_json(const struct workload *w);

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

/* The metadata of a metric name: an exact entry, else the first pattern that matches
 * ('*' does not cross '/': "*_test" does not match "worker1/fix_size_alloc_test"). */
const struct workload_metric *workload_find_metric(const struct workload *w, const char *metric);
/* For reports (hint.c): 1 when the workload owning sample_workload (itself or a section)
 * declares per_test, 0 when it does not, -1 when no built-in workload owns it. */
int workload_per_test_hint(const char *sample_workload);
/* Is a sample with this workload field part of workload name (itself or a section)? */
bool workload_sample_belongs(const char *name, const char *sample_workload);

#endif
