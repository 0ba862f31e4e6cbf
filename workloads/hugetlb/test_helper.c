/* hb-hugetlb's command-line checks, which refuse bad arguments before touching anything
 * (it changes the kernel's huge page pool: it only ever runs for real inside a guest).
 * usage: test_helper <hb-hugetlb> */
#include "fixture.h"
#include "test.h"

TEST(refuses_bad_arguments)
{
	char *prog = fixture_helper(t->argc, t->argv);

	CHECK_REFUSES("--pages: bad value '0'", prog, "--pages", "0");
	CHECK_REFUSES("unexpected argument 'extra'", prog, "extra");
}

TEST_MAIN()
