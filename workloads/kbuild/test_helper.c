/* hb-kbuild's command-line checks, which refuse bad arguments before touching anything.
 * usage: test_helper <hb-kbuild> */
#include "fixture.h"
#include "test.h"

TEST(refuses_bad_arguments)
{
	char *prog = fixture_helper(t->argc, t->argv);

	CHECK_REFUSES("--tree is required", prog, "--config", "tinyconfig");
	CHECK_REFUSES("give either --prepared or both --config and --out", prog, "--tree", "/x",
		      "--config", "tinyconfig");
	CHECK_REFUSES("'rel' is not an absolute path", prog, "--tree", "/x", "--prepared", "rel");
}

TEST_MAIN()
