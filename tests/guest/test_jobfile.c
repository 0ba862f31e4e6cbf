/* The job file: rendered by the host (boot/jobfile.c), parsed by the guest init
 * (guest/init/jobfile.c), both compiled here: what goes in must come out. */
#include <stdlib.h>
#include <string.h>

#include "boot/jobfile.h"
#include "test.h"
#include "init.h"

#define STR(x) #x
#define XSTR(x) STR(x)
#define HEAD HB_JOBFILE_MAGIC " " XSTR(HB_PROTOCOL_VERSION)

TEST(roundtrip)
{
	char *argv0[] = { "sh", "-c", "echo 'a b' % 100%; printf '\\t\\n'", "", "\xc3\xa9t\xc3\xa9", NULL };
	char *env0[] = { "LANG=C.UTF-8", "X=a=b c", NULL };
	char *argv1[] = { "true", NULL };
	char *irq0[] = { "CAL", "TLB", "48", NULL };
	struct guest_job jobs[] = {
		{ .argv = argv0, .env = env0, .cwd = "/root/dir with space", .reps = 3, .irq = irq0 },
		{ .argv = argv1, .reps = 0 },
	};
	char *text = jobfile_render("/home/u ser", "/cache/mods", jobs, 2);
	char why[INIT_WHY_MAX] = "";
	struct init_spec spec;

	/* Every value on one line, no raw spaces or control bytes inside values. */
	CHECK(strstr(text, "arg echo%20'a%20b'%20%25%20100%25;") != NULL);
	CHECK(jobfile_parse(text, &spec, why) == 0);
	CHECK_STR(spec.home, "/home/u ser");
	CHECK_STR(spec.modules, "/cache/mods");
	CHECK(spec.njobs == 2);
	if (spec.njobs == 2) {
		for (int i = 0; argv0[i]; i++)
			CHECK_STR(spec.jobs[0].argv[i], argv0[i]);
		CHECK(spec.jobs[0].argv[5] == NULL);
		CHECK_STR(spec.jobs[0].env[0], "LANG=C.UTF-8");
		CHECK_STR(spec.jobs[0].env[1], "X=a=b c");
		CHECK(spec.jobs[0].env[2] == NULL);
		CHECK_STR(spec.jobs[0].cwd, "/root/dir with space");
		CHECK(spec.jobs[0].reps == 3);
		for (int i = 0; irq0[i]; i++)
			CHECK_STR(spec.jobs[0].irq[i], irq0[i]);
		CHECK(spec.jobs[0].irq[3] == NULL);
		CHECK(spec.jobs[1].irq == NULL); /* no irq lines: nothing read per rep */
		CHECK_STR(spec.jobs[1].argv[0], "true");
		CHECK(spec.jobs[1].env && spec.jobs[1].env[0] == NULL);
		CHECK_STR(spec.jobs[1].cwd, "/tmp"); /* the default */
		CHECK(spec.jobs[1].reps == 1);       /* reps 0 means once */
	}
	jobfile_free(&spec);
	free(text);
}

static void expect_error(int *failures, const char *text, const char *why_part)
{
	char *copy = strdup(text), why[INIT_WHY_MAX] = "";
	struct init_spec spec;

	CHECK(jobfile_parse(copy, &spec, why) == -1);
	CHECK(strstr(why, why_part) != NULL, "reason '%s' lacks '%s'", why, why_part);
	jobfile_free(&spec); /* what it had read before the bad line */
	free(copy);
}

TEST(errors)
{
	expect_error(failures, "hardbench-job 9\n", "does not start with '" HEAD "'");
	expect_error(failures, HEAD "\njob\narg x\n", "missing 'end'");
	expect_error(failures, HEAD "\njob\nend\n", "'end' without an open job");
	expect_error(failures, HEAD "\njob\narg x\nreps 0\nend\n", "bad reps '0'");
	expect_error(failures, HEAD "\njob\narg %4\nend\n", "bad %-escape");
	expect_error(failures, HEAD "\ncolour blue\n", "unknown key 'colour'");
	expect_error(failures, HEAD "\njob\narg x\nirq CAL%20X\nend\n", "bad irq label 'CAL X'");
	expect_error(failures, HEAD "\njob\narg x\nirq ABCDEFGHIJKLMNOP\nend\n", "bad irq label");
}

TEST_MAIN()
