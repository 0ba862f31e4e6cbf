/* Assertions for the C unit tests. A failed check prints "file:line: check failed: <what>"
 * and why, counts in *failures and lets the test go on, so one run shows every broken
 * check; test.h's runner reports each TEST() case that counted one (a test with its own
 * main() returns check_done()). Each function that checks takes `int *failures`
 * (a counter passed down, not a global one: the project keeps no mutable globals).
 *
 * CHECK(cond) or CHECK(cond, fmt, ...): the message is optional through __VA_OPT__ (C23;
 * GCC and Clang accept it in C11 mode, only -pedantic warns), which keeps the condition's
 * text as written, where dispatching on the argument count would print it macro-expanded. */
#ifndef HB_TESTS_COMMON_CHECK_H
#define HB_TESTS_COMMON_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Counts a failure and starts its line; the caller ends the line. */
static inline void check_failed_at(int *failures, const char *file, int line, const char *what)
{
	(*failures)++;
	fprintf(stderr, "%s:%d: check failed: %s", file, line, what);
}

#define CHECK(cond, ...)                                                               \
	do {                                                                           \
		if (!(cond)) {                                                         \
			check_failed_at(failures, __FILE__, __LINE__, #cond);          \
			__VA_OPT__(fputs(": ", stderr); fprintf(stderr, __VA_ARGS__);) \
			fputc('\n', stderr);                                           \
		}                                                                      \
	} while (0)

/* The helpers below are functions so that each argument is evaluated once, also when the
 * failure message shows it. */

/* |got - want| <= tol; a NaN is never near anything. */
static inline void check_near(int *failures, const char *file, int line, const char *what,
			      double got, double want, double tol)
{
	if (fabs(got - want) <= tol)
		return;
	check_failed_at(failures, file, line, what);
	fprintf(stderr, ": got %.10g, want %.10g (tol %g)\n", got, want, tol);
}

#define CHECK_NEAR(got, want, tol) \
	check_near(failures, __FILE__, __LINE__, #got, (got), (want), (tol))

static inline void check_nan(int *failures, const char *file, int line, const char *what,
			     double got)
{
	if (isnan(got))
		return;
	check_failed_at(failures, file, line, what);
	fprintf(stderr, ": got %.10g, want NAN\n", got);
}

#define CHECK_NAN(got) check_nan(failures, __FILE__, __LINE__, #got, (got))

/* got equals want; NULL on either side fails. */
static inline void check_str(int *failures, const char *file, int line, const char *what,
			     const char *got, const char *want)
{
	if (got && want && !strcmp(got, want))
		return;
	check_failed_at(failures, file, line, what);
	fprintf(stderr, ": got '%s', want '%s'\n", got ? got : "(null)", want ? want : "(null)");
}

#define CHECK_STR(got, want) check_str(failures, __FILE__, __LINE__, #got, (got), (want))

/* s contains part; a NULL s fails. */
static inline void check_has(int *failures, const char *file, int line, const char *what,
			     const char *s, const char *part)
{
	if (s && strstr(s, part))
		return;
	check_failed_at(failures, file, line, what);
	fprintf(stderr, ": '%s' does not contain '%s'\n", s ? s : "(null)", part);
}

#define CHECK_HAS(s, part) check_has(failures, __FILE__, __LINE__, #s, (s), (part))

/* The test's exit status: 1 when any check failed, after a summary line. */
static inline int check_done(const char *name, int failures)
{
	if (failures)
		fprintf(stderr, "%s: %d check(s) failed\n", name, failures);
	else
		printf("%s: all checks passed\n", name);
	return failures ? 1 : 0;
}

#endif
