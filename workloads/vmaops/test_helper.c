/* hb-vmaops, run on this host: for real (its output must parse) and with a bad argument.
 * usage: test_helper <hb-vmaops> */
#include <stdlib.h>

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
	got_free(&g);
	free(out);
}

TEST(refuses_bad_arguments)
{
	CHECK_REFUSES("--iterations: bad value '0'", fixture_helper(t->argc, t->argv), "--iterations", "0");
}

TEST_MAIN()
