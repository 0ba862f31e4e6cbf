/* Test cases registered by name, in the spirit of kselftest's TEST(): each case is a
 * function, the runner reports every case as a TAP line ("ok 3 - name", "not ok",
 * "# SKIP reason"), and Meson reads them with protocol: 'tap'.
 *
 *   TEST(parses_hackbench) { CHECK(x == 1); }
 *   TEST(needs_kvm) { if (!kvm) SKIP("no /dev/kvm"); ... }
 *   TEST_TIMEOUT(builds_a_tree, 120) { ... }      (seconds; TEST() has TEST_TIMEOUT_S)
 *   TEST_MAIN()
 *
 * Parameterised cases (kselftest's FIXTURE_VARIANT): a struct of parameters, any number
 * of named variants of it, and cases that run once per variant, as "case/variant":
 *
 *   VARIANT_TYPE(cores) { int n; const char *want; };
 *   VARIANT(cores, one) { .n = 1, .want = "1 vCPU" };
 *   VARIANT(cores, four) { .n = 4, .want = "4 vCPUs" };
 *   TEST_V(cores, label) { CHECK_STR(label_of(variant->n), variant->want); }
 *
 * Each case runs in a child process of its own: a case that crashes or hangs fails alone
 * ("not ok ... # killed by signal 11", "# timed out after 30 s") and the others still run
 * and report; nothing a case changes (globals of the code under test, the environment,
 * the working folder) reaches the next one. The timeout is a guard against hangs, not a
 * speed assertion: set it far above what the case needs on a loaded machine.
 *
 * Registration puts a constant descriptor in its own ELF section; the linker's
 * __start_/__stop_ symbols bound the array, so there is no mutable global list (the
 * project keeps none) and no constructor order to depend on. Cases run in the order
 * the compiler lays them out (GCC 12: last declared first), so no case may depend on
 * another having run.
 *
 * Inside a case, `failures` (int *) is what CHECK() counts into, `t` gives the command
 * line (t->argc, t->argv: data folders and programs the test is handed), and in a TEST_V
 * case `variant` points at the variant's parameters. */
#ifndef HB_TESTS_COMMON_TEST_H
#define HB_TESTS_COMMON_TEST_H

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

/* The default timeout of a case, in seconds (below Meson's 30 s for a whole test, so a
 * hung case is reported as such while the other cases' lines are still read). */
#define TEST_TIMEOUT_S 20

struct test_state {
	int argc;
	char **argv;
	const char *skip;   /* set by SKIP(): the reason */
};

/* A variant of a parameterised case: its name and its parameters. */
struct test_variant_ref {
	const char *name;
	const void *params;
};

struct test_case {
	const char *name;
	void (*fn)(int *failures, struct test_state *t, const void *params);
	unsigned timeout_s;
	/* TEST_V: the group's variants (both NULL for a plain case). */
	const struct test_variant_ref *variants, *variants_end;
};

#define TEST_REGISTER_(id, label, timeout, first, last)                                      \
	static void test_fn_##id(int *failures, struct test_state *t, const void *params);  \
	static const struct test_case test_case_##id                                         \
		__attribute__((used, section("hb_tests"), aligned(sizeof(void *)))) = {      \
			label, test_fn_##id, timeout, first, last};

#define TEST_TIMEOUT(name, seconds)                                                          \
	TEST_REGISTER_(name, #name, seconds, NULL, NULL)                                     \
	static void test_body_##name(int *failures, struct test_state *t);                   \
	static void test_fn_##name(int *failures, struct test_state *t, const void *params) \
	{                                                                                    \
		(void)params;                                                                \
		test_body_##name(failures, t);                                               \
	}                                                                                    \
	static void test_body_##name(int *failures __attribute__((unused)),                  \
				     struct test_state *t __attribute__((unused)))

#define TEST(name) TEST_TIMEOUT(name, TEST_TIMEOUT_S)

/* The parameters' struct of a group of variants; the definition's body follows. */
#define VARIANT_TYPE(group) struct test_variant_##group

/* One named variant of group; its initializer follows: VARIANT(g, v) { .x = 1 }; */
#define VARIANT(group, vname)                                                                \
	static const VARIANT_TYPE(group) test_params_##group##_##vname;                      \
	static const struct test_variant_ref test_variant_##group##_##vname                  \
		__attribute__((used, section("hb_var_" #group), aligned(sizeof(void *)))) = {\
			#vname, &test_params_##group##_##vname};                             \
	static const VARIANT_TYPE(group) test_params_##group##_##vname =

/* A case run once per variant of group, with `variant` pointing at its parameters. */
#define TEST_V_TIMEOUT(group, name, seconds)                                                 \
	extern const struct test_variant_ref __start_hb_var_##group[], __stop_hb_var_##group[];\
	TEST_REGISTER_(group##_##name, #name, seconds, __start_hb_var_##group,               \
		       __stop_hb_var_##group)                                                \
	static void test_body_##group##_##name(int *failures, struct test_state *t,          \
					       const VARIANT_TYPE(group) *variant);           \
	static void test_fn_##group##_##name(int *failures, struct test_state *t,            \
					     const void *params)                               \
	{                                                                                    \
		test_body_##group##_##name(failures, t, params);                             \
	}                                                                                    \
	static void test_body_##group##_##name(int *failures __attribute__((unused)),        \
					       struct test_state *t __attribute__((unused)),  \
					       const VARIANT_TYPE(group) *variant)

#define TEST_V(group, name) TEST_V_TIMEOUT(group, name, TEST_TIMEOUT_S)

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

/* What a case's child sends its parent: the failures counted and the SKIP reason. */
struct test_outcome {
	int failures;
	int skipped;
	char skip[200];
};

/* The child: runs the case with the alarm set, sends the outcome, exits. */
__attribute__((noreturn)) static inline void test_child(const struct test_case *c, const void *params,
							int argc, char **argv, int out)
{
	struct test_state t = {argc, argv, NULL};
	struct test_outcome o = {0, 0, ""};

	alarm(c->timeout_s); /* SIGALRM's default action ends a hung case */
	c->fn(&o.failures, &t, params);
	alarm(0);
	if (t.skip) {
		o.skipped = 1;
		snprintf(o.skip, sizeof(o.skip), "%s", t.skip);
	}
	fflush(stdout);
	fflush(stderr);
	_exit(write(out, &o, sizeof(o)) == (ssize_t)sizeof(o) ? 0 : 1);
}

/* Runs one case (one variant of it) in a child and prints its TAP line; 1 when it failed. */
static inline int test_run_one(const struct test_case *c, const struct test_variant_ref *v,
			       int i, int argc, char **argv)
{
	struct test_outcome o = {0, 0, ""};
	char label[256];
	int fd[2], status = 0;
	ssize_t n = 0;
	pid_t pid;

	snprintf(label, sizeof(label), "%s%s%s", c->name, v ? "/" : "", v ? v->name : "");
	fflush(stdout);
	fflush(stderr);
	if (pipe(fd) < 0 || (pid = fork()) < 0) {
		printf("not ok %d - %s # cannot fork: %s\n", i, label, strerror(errno));
		return 1;
	}
	if (pid == 0) {
		close(fd[0]);
		test_child(c, v ? v->params : NULL, argc, argv, fd[1]);
	}
	close(fd[1]);
	do
		n = read(fd[0], &o, sizeof(o));
	while (n < 0 && errno == EINTR);
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		printf("not ok %d - %s # timed out after %u s\n", i, label, c->timeout_s);
	else if (WIFSIGNALED(status))
		printf("not ok %d - %s # killed by signal %d (%s)\n", i, label, WTERMSIG(status),
		       strsignal(WTERMSIG(status)));
	else if (n != (ssize_t)sizeof(o) || !WIFEXITED(status) || WEXITSTATUS(status))
		printf("not ok %d - %s # the case exited (status %d) before it ended\n", i, label,
		       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	else if (o.failures)
		printf("not ok %d - %s # %d check(s) failed\n", i, label, o.failures);
	else if (o.skipped)
		printf("ok %d - %s # SKIP %s\n", i, label, o.skip);
	else
		printf("ok %d - %s\n", i, label);
	return !(n == (ssize_t)sizeof(o) && WIFEXITED(status) && !WEXITSTATUS(status) && !o.failures);
}

/* Runs every case (every variant of a parameterised one) in order.
 * The status is 1 when any case failed: Meson reads the TAP lines, a shell reads this. */
static inline int test_run_all(int argc, char **argv)
{
	const struct test_case *c;
	int n = 0, i = 0, failed = 0;

	for (c = __start_hb_tests; c < __stop_hb_tests; c++)
		n += c->variants ? (int)(c->variants_end - c->variants) : 1;
	printf("TAP version 13\n1..%d\n", n);
	for (c = __start_hb_tests; c < __stop_hb_tests; c++) {
		if (!c->variants)
			failed += test_run_one(c, NULL, ++i, argc, argv);
		for (const struct test_variant_ref *v = c->variants; v && v < c->variants_end; v++)
			failed += test_run_one(c, v, ++i, argc, argv);
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
