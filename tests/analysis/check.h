/* Minimal assertions for the analysis unit tests: each failed check prints where and why,
 * and the test exits 1 if any failed. */
#ifndef HB_TESTS_CHECK_H
#define HB_TESTS_CHECK_H

#include <math.h>
#include <stdio.h>

static int check_failures;

#define CHECK(cond, ...)                                                              \
	do {                                                                          \
		if (!(cond)) {                                                        \
			check_failures++;                                             \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                                 \
			fputc('\n', stderr);                                          \
		}                                                                     \
	} while (0)

/* |got - want| <= tol */
#define CHECK_NEAR(got, want, tol)                                                    \
	CHECK(fabs((double)(got) - (double)(want)) <= (tol), "got %.10g, want %.10g (tol %g)", \
	      (double)(got), (double)(want), (double)(tol))

#define CHECK_NAN(got) CHECK(isnan(got), "got %.10g, want NAN", (double)(got))

static inline int check_done(const char *name)
{
	if (check_failures)
		fprintf(stderr, "%s: %d checks failed\n", name, check_failures);
	else
		printf("%s: all checks passed\n", name);
	return check_failures ? 1 : 0;
}

#endif
