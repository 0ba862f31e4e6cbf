/* hb-test-vmalloc's command-line checks, which refuse bad arguments before touching
 * anything (it loads a kernel module: it only ever runs for real inside a guest).
 * usage: test_helper <hb-test-vmalloc> */
#include "fixture.h"
#include "test.h"

TEST(refuses_bad_arguments)
{
	CHECK_REFUSES("bad module parameter 'nr_threads'", fixture_helper(t->argc, t->argv),
		      "--module", "/nonexistent.ko", "nr_threads");
}

TEST_MAIN()
