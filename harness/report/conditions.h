/* The conditions of a run, as the HTML page and the mail reply state them: host CPU and
 * cores, accel, clock, kernel lines with their releases and kernel keys (or commits),
 * variants with their command lines, rounds and reps, guest time, and the `harness run`
 * line that reproduces the run. Read from meta.json and cells.jsonl; whatever they do not
 * say is NULL (or -1), never a guess. Internal to report/. */
#ifndef HB_REPORT_CONDITIONS_H
#define HB_REPORT_CONDITIONS_H

#include <stddef.h>

#include "report/report_ctx.h"

struct cond_variant {
	const char *name;   /* the dataset's, in canonical order */
	char *build;        /* NULL: unknown (imported sets) */
	char *cmdline;
};

struct cond_line {
	char *line;    /* "6.1" */
	char *release; /* "6.1.192", NULL when unknown */
	char *kernels; /* "base 4b50a4af97ce, xpfo 1e2f..." (key or commit per build), or NULL */
};

struct report_conditions {
	char *cpu;          /* "AMD EPYC (AuthenticAMD family 25 model 17)" */
	long cores, threads, numa_nodes; /* -1: unknown */
	char *hostname;
	char *accel, *accel_reason;
	char *clock, *clock_means;
	char *qemu;         /* meta.json qemu.version ("7.2.22 (Debian ...)"), or NULL */
	struct cond_line *lines;
	size_t nlines;
	struct cond_variant *variants;
	size_t nvariants;
	long rounds, reps;  /* the plan's boots and reps; -1: unknown */
	char *rounds_own;   /* workloads with rounds of their own ("hackbench 8"), NULL: none;
			     * rounds is then the others' (-1 when every workload has its own) */
	char *order;        /* "interleaved" or "grouped"; NULL: unknown */
	int until_ci;       /* the rounds are --until-ci's most */
	char *params;       /* "hackbench.groups=2, ..." or NULL */
	size_t cells;       /* cells.jsonl records with a time */
	double guest_seconds; /* their sum: the guests' time, builds excluded */
	char *created;
	char *imported;     /* the CSV an imported set came from */
	char *host_load;    /* meta.json "host_load" when the run recorded it, else NULL */
	char *rerun;        /* "harness run ..." from meta.json's command line, shell-quoted */
};

void conditions_read(const struct report_ctx *ctx, struct report_conditions *c);
/* "8 rounds of every variant", "3 rounds of every variant (hackbench 8)", "rounds of
 * every variant: hackbench 8, kbuild 4" ("up to" under --until-ci); NULL when the set
 * does not say. Caller frees. */
char *conditions_rounds(const struct report_conditions *c);
void conditions_free(struct report_conditions *c);
/* "1h02m03s", "4m05s", "12.3s". buf: 32 bytes. */
const char *conditions_duration(char *buf, double seconds);
/* "guests of 1 vCPU and 1024M of memory", "guests of 1,2 vCPUs (hackbench 2, kbuild 1)
 * and 2048M of memory" (conditions_guest.c); NULL when the set says neither. Caller frees. */
char *conditions_guest(const struct report_ctx *ctx);
/* meta.json's value at keys[0].keys[1]...; NULL when a step is missing. */
json_object *report_meta_at(const struct report_ctx *ctx, const char *const *keys);

#endif
