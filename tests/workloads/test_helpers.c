/* The static guest helpers, run on this host where that is harmless: hb-vmaops for real
 * (its output must parse), and the command-line checks of the others, which refuse bad
 * arguments before touching anything (hb-hugetlb and hb-test-vmalloc change kernel state
 * and only ever run for real inside a guest).
 * usage: test_helpers <hb-vmaops> <hb-hugetlb> <hb-test-vmalloc> <hb-kbuild> */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/log.h"
#include "common/spawn.h"
#include "common/xalloc.h"
#include "fixture.h"
#include "test.h"

/* The helper programs, in the order of the usage line. */
enum { VMAOPS = 1, HUGETLB, TEST_VMALLOC, KBUILD, NHELPERS };

static char *helper(const struct test_state *t, int which)
{
	if (t->argc != NHELPERS)
		hb_fatal("usage: %s VMAOPS HUGETLB TEST_VMALLOC KBUILD", t->argv[0]);
	return t->argv[which];
}

/* Exit status and stderr of argv. */
static int run_err(char *const argv[], char **err)
{
	char path[] = "/tmp/hb-test-helper.XXXXXX";
	int fd = mkstemp(path), status;
	struct spawn_opts so = { .stderr_path = path, .stdout_path = "/dev/null", .stdin_null = true };

	close(fd);
	status = hb_run(argv, &so);
	*err = NULL;
	{
		FILE *f = fopen(path, "r");
		char buf[1024] = "";
		if (f) {
			size_t n = fread(buf, 1, sizeof(buf) - 1, f);
			buf[n] = '\0';
			fclose(f);
		}
		*err = xstrdup(buf);
	}
	unlink(path);
	return status;
}

static void refuses(int *failures, char *const argv[], const char *part)
{
	char *err;
	int status = run_err(argv, &err);

	CHECK(status == 2, "%s %s: exit %d, want 2", argv[0], argv[1] ? argv[1] : "", status);
	CHECK_HAS(err, part);
	free(err);
}

TEST(vmaops_for_real)
{
	char *argv[] = { helper(t, VMAOPS), "--iterations", "20", NULL };
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

TEST(vmaops_refuses)
{
	refuses(failures, (char *[]){ helper(t, VMAOPS), "--iterations", "0", NULL },
		"--iterations: bad value '0'");
}

TEST(hugetlb_refuses)
{
	refuses(failures, (char *[]){ helper(t, HUGETLB), "--pages", "0", NULL }, "--pages: bad value '0'");
	refuses(failures, (char *[]){ helper(t, HUGETLB), "extra", NULL }, "unexpected argument 'extra'");
}

TEST(test_vmalloc_refuses)
{
	refuses(failures, (char *[]){ helper(t, TEST_VMALLOC), "--module", "/nonexistent.ko", "nr_threads", NULL },
		"bad module parameter 'nr_threads'");
}

TEST(kbuild_refuses)
{
	refuses(failures, (char *[]){ helper(t, KBUILD), "--config", "tinyconfig", NULL }, "--tree is required");
	refuses(failures, (char *[]){ helper(t, KBUILD), "--tree", "/x", "--config", "tinyconfig", NULL },
		"give either --prepared or both --config and --out");
	refuses(failures, (char *[]){ helper(t, KBUILD), "--tree", "/x", "--prepared", "rel", NULL },
		"'rel' is not an absolute path");
}

TEST_MAIN()
