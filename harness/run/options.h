/* `harness run` options, as given on the command line (defaults are filled in later, by
 * run/setup.c, once the host and kernel-configs/ are known). */
#ifndef HB_RUN_OPTIONS_H
#define HB_RUN_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "adhoc/adhoc.h"
#include "boot/vm.h"
#include "boot/vm_options.h"
#include "run/exec_options.h"
#include "run/plan.h"

struct run_opts {
	char **lines;          /* --kernels; NULL: the default line */
	char **variants;       /* NULL: default */
	char **workloads;      /* NULL: default */
	char **keep;           /* the main job's groups (run/main_job.h), or a resumed plan's;
				* NULL: the whole cross product */
	int reps;
	bool reps_given;       /* on the command line, not the table's default */
	int boots;             /* with until_ci the minimum number of rounds */
	bool boots_given;
	char **workload_boots; /* "WORKLOAD=N": the main job's own rounds of a workload
				* (workload.ini icount_boots), or a resumed plan's; NULL: none */
	double until_ci;       /* > 0: add rounds until every 95% CI half-width <= this (pp) */
	int max_boots;         /* with until_ci: at most this many rounds (at least --boots) */
	bool max_boots_given;
	char **params;         /* "W.KEY=VALUE", NULL-terminated (never NULL) */
	enum plan_order order;
	bool order_given;
	unsigned long seed;
	bool seed_given;
	/* cores (NULL: default), mem_mib (0: default, raised to what a workload needs),
	 * timeout_s (0: per cell from the workload's estimate), accel, machine, rootfs,
	 * entry, pin, overcommit: the VM options boot has too. */
	struct vm_cli vm;
	int max_failures;      /* failed cells tolerated before the run stops */
	const char *out;       /* NULL: results/<run-id> */
	const char *resume;    /* resume this result set */
	bool dry_run;
	bool no_report;        /* skip the report and plots at the end */
	char **sources;        /* --source values, [LINE=]DIR|TARBALL (configs/kline.h) */
	int jobs;              /* kernel build jobs (0: host cores) */
	struct exec_cli exec;  /* --executor, --partition, --slurm-opt, --cache (run/exec_options.h) */
	struct adhoc_cli adhoc; /* --configs, --patch, --patch-cmdline, --variant (adhoc/adhoc.h) */
	char **prebuilt;       /* --kernel NAME=IMAGE[,modules=DIR][,cmdline=ARGS] (run/prebuilt.c) */
	bool profile;          /* --profile: instructions per kernel function (run/profile.h) */
};

/* Parses argv: HB_OPTS_OK, HB_OPTS_HELP (--help printed), or HB_OPTS_BAD with *why. */
int run_opts_parse(int argc, char **argv, struct run_opts *o, char **why);
void run_opts_free(struct run_opts *o);

#endif
