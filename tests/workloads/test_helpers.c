/* The static guest helpers, run on this host where that is harmless: hb-vmaops for real
 * (its output must parse), and the command-line checks of the others, which refuse bad
 * arguments before touching anything (hb-hugetlb and hb-test-vmalloc change kernel state
 * and only ever run for real inside a guest).
 * usage: test_helpers <tests/data> <hb-vmaops> <hb-hugetlb> <hb-test-vmalloc> <hb-kbuild> */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "common/spawn.h"
#include "common/xalloc.h"
#include "fixture.h"

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

static void vmaops_for_real(int *failures, const char *dir, const char *helper)
{
	char *argv[] = { (char *)helper, "--iterations", "20", NULL };
	int status;
	char *out = hb_run_capture(argv, &status);
	struct got g;

	CHECK(out && status == 0, "hb-vmaops exited %d", status);
	fixture_run(&(struct fake_rep){ .dir = dir, .workload = "vmaops", .out_text = out ? out : "" }, &g);
	CHECK(g.ret == 0 && (g.n == 36 || g.n == 48 || g.n == 54 || g.n == 72),
	      "%d samples (18 or 24 rows, with or without cycles), why %s", g.n, g.why);
	got_free(&g);
	free(out);
}

int main(int argc, char **argv)
{
	int failures = 0;

	if (argc != 6) {
		fprintf(stderr, "usage: %s DATA VMAOPS HUGETLB TEST_VMALLOC KBUILD\n", argv[0]);
		return 2;
	}
	vmaops_for_real(&failures, argv[1], argv[2]);
	refuses(&failures, (char *[]){ argv[2], "--iterations", "0", NULL }, "--iterations: bad value '0'");
	refuses(&failures, (char *[]){ argv[3], "--pages", "0", NULL }, "--pages: bad value '0'");
	refuses(&failures, (char *[]){ argv[3], "extra", NULL }, "unexpected argument 'extra'");
	refuses(&failures, (char *[]){ argv[4], "--module", "/nonexistent.ko", "nr_threads", NULL },
		"bad module parameter 'nr_threads'");
	refuses(&failures, (char *[]){ argv[5], "--config", "tinyconfig", NULL }, "--tree is required");
	refuses(&failures, (char *[]){ argv[5], "--tree", "/x", "--config", "tinyconfig", NULL },
		"give either --prepared or both --config and --out");
	refuses(&failures, (char *[]){ argv[5], "--tree", "/x", "--prepared", "rel", NULL },
		"'rel' is not an absolute path");
	return check_done("workload helpers", failures);
}
