/* hb-vmaops, run on this host: for real (its output must parse, every time above 0) and
 * with a bad argument.
 * usage: test_helper <hb-vmaops> */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/spawn.h"
#include "fixture.h"
#include "test.h"

TEST(for_real)
{
	char *argv[] = { fixture_helper(t->argc, t->argv), "--iterations", "20", NULL };
	int status;
	char *out = hb_run_capture(argv, &status);
	struct got g;

	CHECK(out && status == 0, "hb-vmaops exited %d", status);
	fixture_run(&(struct fake_rep){ .workload = "vmaops", .out_text = out ? out : "" }, &g);
	CHECK(g.ret == 0 && (g.n == 36 || g.n == 48 || g.n == 54 || g.n == 72),
	      "%d samples (18 or 24 rows, with or without cycles), why %s", g.n, g.why);
	/* Every call costs time: a helper that timed nothing would print zeros. */
	for (int i = 0; i < g.n; i++)
		CHECK(g.s[i].value > 0, "%s: %g, want more than 0", g.s[i].metric, g.s[i].value);
	got_free(&g);
	free(out);
}

/* The address the helper's "# layout: ..., first mapping at P" note names; NULL if none. */
static char *first_mapping(int *failures, const struct test_state *t, const char *flag)
{
	char *argv[] = { fixture_helper(t->argc, t->argv), "--iterations", "1", (char *)flag, NULL };
	int status;
	char *out = hb_run_capture(argv, &status), *at = out ? strstr(out, "first mapping at ") : NULL;
	char *addr = NULL;

	CHECK(out && status == 0, "hb-vmaops %s exited %d", flag ? flag : "", status);
	if (at)
		addr = strndup(at + 17, strcspn(at + 17, "\n"));
	CHECK(addr != NULL, "no 'first mapping at' note in: %s", out ? out : "");
	free(out);
	return addr;
}

static bool host_randomizes(void)
{
	FILE *f = fopen("/proc/sys/kernel/randomize_va_space", "r");
	int level = 0;

	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = 0;
		fclose(f);
	}
	return level > 0;
}

/* --fixed-layout: two runs map at the same address; without it they do not (where the
 * host randomizes at all). */
TEST(fixed_layout)
{
	char *a = first_mapping(failures, t, "--fixed-layout"), *b = first_mapping(failures, t, "--fixed-layout");

	CHECK(a && b && !strcmp(a, b), "--fixed-layout: first mapping at %s, then %s", a, b);
	free(a);
	free(b);
	if (!host_randomizes())
		SKIP("this host does not randomize the address space (randomize_va_space 0)");
	a = first_mapping(failures, t, NULL);
	b = first_mapping(failures, t, NULL);
	CHECK(a && b && strcmp(a, b), "randomized: both runs at %s", a);
	free(a);
	free(b);
}

/* --settle-ms: the note names the host's tick, and the run sleeps before every pass (a
 * lower bound on the run's time, not a speed limit: 18 rows or more, 2 passes, 20 ms). */
TEST(settle)
{
	char *argv[] = { fixture_helper(t->argc, t->argv), "--iterations", "1", "--passes", "2",
			 "--settle-ms", "20", NULL };
	struct timespec res, t0, t1;
	char note[128];
	int status;

	clock_getres(CLOCK_MONOTONIC_COARSE, &res);
	snprintf(note, sizeof(note), "# before each pass: 20 ms asleep, then pass p of 2 starts p/2 into "
		 "the %ld us tick", res.tv_nsec / 1000);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	char *out = hb_run_capture(argv, &status);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;

	CHECK(out && status == 0, "hb-vmaops --settle-ms 20 exited %d", status);
	CHECK(out && strstr(out, note), "no '%s' in: %s", note, out ? out : "");
	CHECK(s >= 18 * 2 * 0.020, "18 rows x 2 passes x 20 ms asleep took only %.3f s", s);
	free(out);
}

TEST(refuses_bad_arguments)
{
	CHECK_REFUSES("--iterations: bad value '0'", fixture_helper(t->argc, t->argv), "--iterations", "0");
	CHECK_REFUSES("--passes: bad value '0'", fixture_helper(t->argc, t->argv), "--passes", "0");
	CHECK_REFUSES("--settle-ms: bad value '1001'", fixture_helper(t->argc, t->argv), "--settle-ms", "1001");
}

TEST_MAIN()
