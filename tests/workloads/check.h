/* Minimal assertions for the workload unit tests: a failed check prints where and why
 * and counts in *failures, which every test function receives (no global counter). */
#ifndef HB_TESTS_WORKLOADS_CHECK_H
#define HB_TESTS_WORKLOADS_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#define CHECK(cond, ...)                                                                  \
	do {                                                                              \
		if (!(cond)) {                                                            \
			(*failures)++;                                                 \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                                     \
			fputc('\n', stderr);                                              \
		}                                                                         \
	} while (0)

#define CHECK_NEAR(got, want)                                                             \
	CHECK(fabs((double)(got) - (double)(want)) <= 1e-9 * fabs((double)(want)) + 1e-12, \
	      "got %.10g, want %.10g", (double)(got), (double)(want))

/* s contains part (s may be NULL: fails). */
#define CHECK_HAS(s, part) \
	CHECK((s) && strstr((s), (part)), "'%s' does not contain '%s'", (s) ? (s) : "(null)", (part))

static inline int check_done(const char *name, int failures)
{
	if (failures)
		fprintf(stderr, "%s: %d checks failed\n", name, failures);
	else
		printf("%s: all checks passed\n", name);
	return failures ? 1 : 0;
}

#endif
