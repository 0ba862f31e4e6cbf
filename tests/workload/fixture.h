/* Shared by the tests in the workload folders: feeding captured job outputs through the
 * workload glue as the run stage does (workloads/<name>/test_parse.c, run with their
 * testdata/ folder as argv[1]), and running a guest helper on this host where that is
 * harmless (workloads/<name>/test_helper.c, run with the helper program as argv[1]). */
#ifndef HB_TESTS_WORKLOADS_FIXTURE_H
#define HB_TESTS_WORKLOADS_FIXTURE_H

#include <stdbool.h>

#include "workload/workload.h"

#define GOT_MAX 256

struct got_sample {
	char workload[64];
	char metric[96];
	char unit[16];
	double value;
	bool lower_is_better;
	int rep, cores, boot;
	char variant[32];
};

struct got {
	struct got_sample s[GOT_MAX];
	int n;
	char *why;  /* NULL when the rep gave samples */
	char *gaps; /* workload_rep_gaps: metrics the rep has no sample of, or NULL */
	int ret;
};

/* What the guest init measured besides the output (fixed, so tests can check them). */
#define FAKE_WALL 1.5
#define FAKE_USER 0.25
#define FAKE_SYS 0.75
#define FAKE_GUEST_USER 0.5
#define FAKE_GUEST_SYS 1.25
/* and its /proc/interrupts counts (irq.CAL, irq.TLB) */
#define FAKE_IRQ_CAL 4321
#define FAKE_IRQ_TLB 17
#define FAKE_NO_TLB_ROW "no row 'TLB' in the guest's /proc/interrupts"

struct fake_rep {
	const char *dir;       /* the workload's testdata/ */
	const char *workload;  /* the workload to load */
	const char *section;   /* job section or NULL */
	const char *out_file;  /* under dir, or NULL for "" */
	const char *err_file;  /* under dir, or NULL for "" */
	const char *out_text;  /* instead of out_file */
	int exit_code;
	int term_signal;
	bool no_tlb_row;       /* the guest sent "noirq TLB FAKE_NO_TLB_ROW" */
};

/* Runs one fake repetition through workload_rep_samples(). */
void fixture_run(const struct fake_rep *f, struct got *g);
void got_free(struct got *g);
const struct got_sample *got_find(const struct got *g, const char *metric);
/* The testdata folder a parser test is given (argv[1]); fatal when missing. */
const char *fixture_dir(int argc, char **argv);
/* The guest helper a helper test is given (argv[1]); fatal when missing. */
char *fixture_helper(int argc, char **argv);
/* The text of <dir>/<name> (fatal when missing). */
char *fixture_read(const char *dir, const char *name);
/* Its first n lines: a job that died halfway. */
char *fixture_first_lines(const char *dir, const char *name, int n);

/* The sample called metric exists, has this unit, is lower-is-better and has this value
 * (relative: the values run from milliseconds to tens of billions of cycles). */
#define CHECK_SAMPLE(g, metric, unit, value) \
	fixture_check_sample(failures, __FILE__, __LINE__, (g), (metric), (unit), (value))
void fixture_check_sample(int *failures, const char *file, int line, const struct got *g,
			  const char *metric, const char *unit, double value);

/* The helper run with these arguments exits 2 (a usage error, before it touches anything)
 * with part in its stderr. */
#define CHECK_REFUSES(part, ...) \
	fixture_check_refuses(failures, __FILE__, __LINE__, (char *[]){ __VA_ARGS__, NULL }, (part))
void fixture_check_refuses(int *failures, const char *file, int line, char *const argv[],
			   const char *part);

#endif
