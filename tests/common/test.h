/* Test cases registered by name, in the spirit of kselftest's TEST(): each case is a
 * function, the runner reports every case as a TAP line ("ok 3 - name", "not ok",
 * "# SKIP reason"), and Meson reads them with protocol: 'tap'.
 *
 *   TEST(parses_hackbench) { CHECK(x == 1); }
 *   TEST(needs_kvm) { if (!kvm) SKIP("no /dev/kvm"); ... }
 *   TEST_MAIN()
 *
 * Registration puts a constant descriptor in its own ELF section; the linker's
 * __start_/__stop_ symbols bound the array, so there is no mutable global list (the
 * project keeps none) and no constructor order to depend on. Cases run in the order
 * the compiler lays them out (GCC 12: last declared first), so no case may depend on
 * another having run.
 *
 * Inside a case, `failures` (int *) is what CHECK() counts into, and `t` gives the
 * command line (t->argc, t->argv: data folders and programs the test is handed). */
#ifndef HB_TESTS_COMMON_TEST_H
#define HB_TESTS_COMMON_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

struct test_state {
	int argc;
	char **argv;
	const char *skip;   /* set by SKIP(): the reason */
};

struct test_case {
	const char *name;
	void (*fn)(int *failures, struct test_state *t);
};

#define TEST(name)                                                                           \
	static void test_fn_##name(int *failures, struct test_state *t);                     \
	static const struct test_case test_case_##name                                       \
		__attribute__((used, section("hb_tests"), aligned(sizeof(void *)))) = {      \
			#name, test_fn_##name};                                              \
	static void test_fn_##name(int *failures __attribute__((unused)),                    \
				   struct test_state *t __attribute__((unused)))

/* Ends the case as skipped, with the reason on its TAP line. */
#define SKIP(reason)               \
	do {                       \
		t->skip = (reason); \
		return;            \
	} while (0)

/* Argument i of the test's command line (a data folder, a program), or NULL after counting
 * a failure: meson.build passes the arguments, so a missing one is a broken registration,
 * not a reason to skip. */
static inline const char *test_arg(int *failures, const struct test_state *t, int i)
{
	if (i < t->argc)
		return t->argv[i];
	check_failed_at(failures, __FILE__, __LINE__, "test argument");
	fprintf(stderr, ": %s needs argument %d (see its meson.build)\n", t->argv[0], i);
	return NULL;
}

extern const struct test_case __start_hb_tests[], __stop_hb_tests[];

/* Runs every case in order.
 * The status is 1 when any case failed: Meson reads the TAP lines, a shell reads this. */
static inline int test_run_all(int argc, char **argv)
{
	const struct test_case *c;
	int n = (int)(__stop_hb_tests - __start_hb_tests), i = 0, failed = 0;

	printf("TAP version 13\n1..%d\n", n);
	for (c = __start_hb_tests; c < __stop_hb_tests; c++) {
		struct test_state t = {argc, argv, NULL};
		int failures = 0;

		fflush(stdout);
		c->fn(&failures, &t);
		fflush(stderr);
		i++;
		if (failures)
			printf("not ok %d - %s # %d check(s) failed\n", i, c->name, failures);
		else if (t.skip)
			printf("ok %d - %s # SKIP %s\n", i, c->name, t.skip);
		else
			printf("ok %d - %s\n", i, c->name);
		failed += failures != 0;
	}
	fflush(stdout);
	return failed ? 1 : 0;
}

#define TEST_MAIN()                               \
	int main(int argc, char **argv)           \
	{                                         \
		return test_run_all(argc, argv);  \
	}

#endif
