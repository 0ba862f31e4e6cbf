/* `harness run` options, as given on the command line (defaults are filled in later, by
 * run/defaults.c, once the host and kernel-configs/ are known). */
#ifndef HB_RUN_OPTIONS_H
#define HB_RUN_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "boot/vm.h"
#include "run/plan.h"

struct run_opts {
	char **variants;       /* NULL: default */
	char **workloads;      /* NULL: default */
	long *cores;           /* NULL: default */
	size_t ncores;
	int reps;              /* 0: default */
	int boots;             /* 0: default */
	char **params;         /* "W.KEY=VALUE", NULL-terminated (never NULL) */
	enum plan_order order;
	bool order_given;
	unsigned long seed;
	bool seed_given;
	long mem_mib;          /* 0: default (raised to what a workload needs) */
	double timeout_s;      /* 0: per cell from the workload's estimate */
	enum accel_kind accel;
	const char *machine;
	const char *rootfs;
	bool no_pin;
	bool overcommit;
	int max_failures;      /* failed cells tolerated before the run stops */
	const char *out;       /* NULL: results/<run-id> */
	const char *resume;    /* resume this result set */
	bool dry_run;
	bool no_report;        /* skip the report and plots at the end */
	const char *source;    /* kernel source for builds */
	int jobs;              /* kernel build jobs (0: host cores) */
};

/* Parses argv; usage errors exit 2. Returns -1 when --help was printed (exit 0). */
int run_opts_parse(int argc, char **argv, struct run_opts *o);
void run_opts_free(struct run_opts *o);

#endif
