/* Feeding captured job outputs through the workload glue, as the run stage will. */
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
	int ret;
};

/* What the guest init measured besides the output (fixed, so tests can check them). */
#define FAKE_WALL 1.5
#define FAKE_USER 0.25
#define FAKE_SYS 0.75
#define FAKE_GUEST_USER 0.5
#define FAKE_GUEST_SYS 1.25

struct fake_rep {
	const char *dir;       /* tests/data */
	const char *workload;  /* the workload to load */
	const char *section;   /* job section or NULL */
	const char *out_file;  /* under the data dir, or NULL for "" */
	const char *err_file;  /* under the data dir, or NULL for "" */
	const char *out_text;  /* instead of out_file */
	int exit_code;
	int term_signal;
};

/* Runs one fake repetition through workload_rep_samples(). */
void fixture_run(const struct fake_rep *f, struct got *g);
void got_free(struct got *g);
const struct got_sample *got_find(const struct got *g, const char *metric);
/* The text of tests/data/workloads/<name> (fatal when missing). */
char *fixture_read(const char *dir, const char *name);

#endif
