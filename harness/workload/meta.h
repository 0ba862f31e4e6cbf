/* Workloads: their metadata, for every stage (analysis included): what a workload is,
 * its parameters and its metrics. Nothing here reaches the guest side (boot/, kernel/):
 * the cells a guest runs are in workload/cell.h.
 *
 * A workload is a folder workloads/<name>/ holding workload.ini (description, seed,
 * parameters, metrics; format in workloads/README.md), parse.c (its jobs and its output
 * parser, see parser.h) and, when it needs one, a static guest helper. Adding a workload
 * adds a folder and its name in workloads/meson.build; nothing here lists them. */
#ifndef HB_WORKLOAD_META_H
#define HB_WORKLOAD_META_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>

#include "model/model.h"

struct workload_parser; /* workload/parser.h */

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
	METRIC_IRQ,        /* "irq.LABEL": that /proc/interrupts row over the job, all CPUs */
};

struct workload_metric {
	char *name;           /* exact, or an fnmatch(3) pattern such as "*_test" */
	char *unit;
	bool lower_is_better;
	char *description;
	enum metric_source source;
	char *irq_label;      /* METRIC_IRQ: the row's label ("CAL"), else NULL */
	int marker;           /* the section marker (guest/marker.h) around the interval this
			       * metric times, for --profile; -1: none */
	int model;            /* enum model_scope from `model =`, -1 when not said: see
			       * workload_metric_model() */
};

/* How --clock model prices a metric (docs/model.md): its `model` key, else all modes for a
 * time unit and none (kept as measured) for a count. */
enum model_scope workload_metric_model(const struct workload_metric *m);
/* The marker id (guest/marker.h) of the section that times a metric; 0: the repetition's. */
int workload_metric_marker(const struct workload_metric *m);

struct workload {
	char *name;
	char *dir;            /* workloads/<name> in the source tree */
	char *description;
	char *seed;           /* the list mails it reproduces, e.g. "000" or "001,002"; may be "" */
	char *primary;        /* the metric that answers "what does it cost" (--until-ci) */
	char *helper;         /* guest helper (in the workload's build folder), or NULL */
	double est_rep_s;     /* seconds per rep, measured under TCG with 2 vCPUs at the defaults */
	double est_boot_s;    /* extra seconds once per boot (e.g. hugetlb's warm-up), same way */
	double est_icount_rep_s; /* host seconds per rep under the icount clock at the defaults
				  * (one host thread runs every vCPU); 0: not measured */
	char *icount_caveat;  /* why the workload is not deterministic under icount (--clock
			       * auto then gives it the host clock); NULL: it is */
	bool per_test;        /* report hint: many metrics, one row each (test_vmalloc, vmaops) */
	int default_order;    /* position in the set `harness run` runs without --workloads
			       * (1 first); 0: not in it */
	/* The main job's cells of this workload (run without --variants, --kernels, --patch):
	 * the variants its seeds compare (NULL: every variant), the kernel line they need
	 * (NULL: the default line) and its vCPU counts (NULL: run's default counts). */
	char **default_variants;
	char *default_kernel;
	long *icount_cores;
	size_t nicount_cores;
	char **icount_params; /* "KEY=VALUE" the main job sets with icount_cores (a --param of
			       * the same key wins); NULL when none */
	int icount_boots;     /* the main job's rounds of it under icount, unless --boots or
			       * --until-ci is given; 0: run's --boots default */
	char **sections;      /* jobs filed as <name>-<section>, e.g. test_vmalloc-performance;
			       * NULL when none */
	struct workload_param *params;
	size_t nparams;
	struct workload_metric *metrics; /* exact names and patterns in any order */
	size_t nmetrics;
	const struct workload_parser *parser;
};

/* Sorted, NULL-terminated names of the built-in workloads (hb_free_strv). */
char **workload_names(void);
/* The workloads whose workload.ini sets default_order, in that order (ties by name): what
 * `harness run` runs without --workloads. A workload whose workload.ini does not load is
 * in the set too (after the others), so that loading it for the run says why. */
char **workload_default_names(void);
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

/* The metadata of a metric name: an exact entry, else the first pattern that matches
 * ('*' does not cross '/': "*_test" does not match "worker1/fix_size_alloc_test"). */
const struct workload_metric *workload_find_metric(const struct workload *w, const char *metric);
/* For reports (hint.c): 1 when the workload owning sample_workload (itself or a section)
 * declares per_test, 0 when it does not, -1 when no built-in workload owns it. */
int workload_per_test_hint(const char *sample_workload);
/* Is a sample with this workload field part of workload name (itself or a section)? */
bool workload_sample_belongs(const char *name, const char *sample_workload);

#endif
