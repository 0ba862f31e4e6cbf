/* hb-test-vmalloc's command-line checks, which refuse bad arguments before touching
 * anything (it loads a kernel module: it only ever runs for real inside a guest).
 * usage: test_helper <hb-test-vmalloc> */
#include "fixture.h"
#include "test.h"

TEST(refuses_bad_arguments)
{
	CHECK_REFUSES("bad module parameter 'nr_threads'", fixture_helper(t->argc, t->argv),
		      "--module", "/nonexistent.ko", "nr_threads");
	CHECK_REFUSES("--each-test: bad value '0' (accepted: an integer from 1 to 2147483647)",
		      fixture_helper(t->argc, t->argv), "--module", "/nonexistent.ko", "--each-test", "0");
	CHECK_REFUSES("--each-test sets run_test_mask itself: drop 'run_test_mask=3'",
		      fixture_helper(t->argc, t->argv), "--module", "/nonexistent.ko", "--each-test", "3",
		      "run_test_mask=3");
	CHECK_REFUSES("--prime 65: tests not in --each-test 1 (accepted: a subset of --each-test's bits)",
		      fixture_helper(t->argc, t->argv), "--module", "/nonexistent.ko", "--each-test", "1",
		      "--prime", "65");
	CHECK_REFUSES("--prime 64: tests not in --each-test 0 (accepted: a subset of --each-test's bits)",
		      fixture_helper(t->argc, t->argv), "--module", "/nonexistent.ko", "--prime", "64");
	CHECK_REFUSES("--repeat: bad value '64' (accepted: MASK=N, e.g. 64=20)", fixture_helper(t->argc, t->argv),
		      "--module", "/nonexistent.ko", "--each-test", "64", "--repeat", "64");
	CHECK_REFUSES("--repeat N: bad value '0'", fixture_helper(t->argc, t->argv), "--module",
		      "/nonexistent.ko", "--each-test", "64", "--repeat", "64=0");
	CHECK_REFUSES("--repeat 65=2: tests not in --each-test 64 (accepted: a subset of --each-test's bits)",
		      fixture_helper(t->argc, t->argv), "--module", "/nonexistent.ko", "--each-test", "64",
		      "--repeat", "65=2");
	CHECK_REFUSES("--repeat sets test_repeat_count itself: drop 'test_repeat_count=3'",
		      fixture_helper(t->argc, t->argv), "--module", "/nonexistent.ko", "--each-test", "64",
		      "--repeat", "64=2", "test_repeat_count=3");
}

TEST_MAIN()
