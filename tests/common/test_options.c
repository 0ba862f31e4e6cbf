/* The option tables (harness/common/options.c): defaults from .def, said in --help and
 * not counted as given; limits and choices refused with the bad value and what is
 * accepted; lists, sizes and flags; the VM fragment placed in a command's table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "boot/vm_options.h"
#include "common/options.h"

struct demo {
	int reps;
	bool reps_given;
	int color;            /* index into colors */
	long mem_mib;
	long *cores;
	size_t ncores;
	char **tags;
	bool pin;
	bool verbose;
	struct vm_cli vm;
};

static const char *const colors[] = { "red", "green", NULL };

#define D(f) offsetof(struct demo, f)

static const struct hb_option demo_options[] = {
	{ "reps", 'r', HB_OPT_INT, "N", "repetitions", 1, 10, .off = D(reps), .def = "3",
	  .given_off = D(reps_given) },
	{ "color", 0, HB_OPT_CHOICE, "C", "a color", .choices = colors, .off = D(color) },
	{ "mem", 0, HB_OPT_SIZE_MIB, "SIZE", "memory", 64, 4096, .off = D(mem_mib) },
	{ "cores", 0, HB_OPT_LONG_LIST, "LIST", "vCPU counts", 1, 64, .off = D(cores),
	  .count_off = D(ncores) },
	{ "tag", 0, HB_OPT_STR_REPEAT, "T", "a tag (repeatable)", .off = D(tags) },
	{ "no-pin", 0, HB_OPT_FLAG_OFF, NULL, "do not pin", .off = D(pin) },
	{ "verbose", 'v', HB_OPT_FLAG, NULL, "say more", .off = D(verbose) },
	{ NULL },
};

static struct hb_cmdspec spec_with(const struct hb_option *vm)
{
	return (struct hb_cmdspec){ .cmd = "demo", .usage = "usage: demo [OPTIONS]\n",
				    .groups = { { demo_options, 0 }, { vm, D(vm) }, { NULL, 0 } } };
}

/* Parses the words of args (at most 15) into *d; the status of hb_opts_parse. */
static int parse(const struct hb_cmdspec *s, struct demo *d, const char *args, char **why)
{
	char *copy = strdup(args), *save = NULL, *argv[16] = { "demo" };
	int argc = 1, first;

	for (char *w = strtok_r(copy, " ", &save); w && argc < 15; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	memset(d, 0, sizeof(*d));
	int rc = hb_opts_parse(s, argc, argv, d, &first, why);
	free(copy); /* the STRING kinds would point into it: this table has none */
	return rc;
}

/* The --help text of s (caller frees). */
static char *help_of(const struct hb_cmdspec *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	hb_opts_help(s, f);
	fclose(f);
	return text;
}

TEST(defaults_apply_and_are_not_given)
{
	struct hb_cmdspec s = spec_with(vm_cli_options);
	struct demo d;
	char *why;

	CHECK(parse(&s, &d, "", &why) == HB_OPTS_OK, "%s", why);
	CHECK(d.reps == 3 && !d.reps_given, "reps %d given %d", d.reps, d.reps_given);
	CHECK(d.pin, "a FLAG_OFF starts true");
	CHECK(d.vm.accel == 0 && d.vm.pin, "the VM fragment's defaults: accel %d", d.vm.accel);
	CHECK(parse(&s, &d, "-r 5 --no-pin -v", &why) == HB_OPTS_OK, "%s", why);
	CHECK(d.reps == 5 && d.reps_given && !d.pin && d.verbose);
	hb_opts_free(&s, &d);
}

TEST(help_says_the_table_defaults)
{
	struct hb_cmdspec s = spec_with(vm_cli_options);
	char *help = help_of(&s);

	CHECK_HAS(help, "usage: demo [OPTIONS]");
	CHECK_HAS(help, "repetitions (default 3)");
	CHECK_HAS(help, "works (default auto)"); /* --accel, from the VM fragment */
	CHECK_HAS(help, "-h, --help");
	free(help);
}

/* The help is generated from the table: change a default there and the help and the
 * parsed value follow, with nothing else edited. */
TEST(changing_a_default_changes_the_help)
{
	size_t n = 0;
	struct hb_option vm[32];
	struct demo d;
	char *why, *help;

	while (vm_cli_options[n].name)
		n++;
	CHECK(n < 32);
	memcpy(vm, vm_cli_options, (n + 1) * sizeof(vm[0]));
	for (size_t i = 0; i < n; i++)
		if (!strcmp(vm[i].name, "accel"))
			vm[i].def = "tcg";
	struct hb_cmdspec s = spec_with(vm);
	help = help_of(&s);
	CHECK_HAS(help, "works (default tcg)");
	CHECK(!strstr(help, "(default auto)"), "the old default is still said");
	CHECK(parse(&s, &d, "", &why) == HB_OPTS_OK, "%s", why);
	CHECK(d.vm.accel == 2, "accel %d, want tcg (2)", d.vm.accel);
	free(help);
	hb_opts_free(&s, &d);
}

TEST(bad_values_name_the_value_and_what_is_accepted)
{
	struct hb_cmdspec s = spec_with(vm_cli_options);
	struct demo d;
	char *why;

	CHECK(parse(&s, &d, "--reps 11", &why) == HB_OPTS_BAD);
	CHECK_HAS(why, "'11'");
	CHECK_HAS(why, "an integer from 1 to 10");
	free(why);
	CHECK(parse(&s, &d, "--color blue", &why) == HB_OPTS_BAD);
	CHECK_HAS(why, "'blue'");
	CHECK_HAS(why, "red, green");
	free(why);
	CHECK(parse(&s, &d, "--mem 8G", &why) == HB_OPTS_BAD);
	CHECK_HAS(why, "8G");
	free(why);
	CHECK(parse(&s, &d, "--frobnicate", &why) == HB_OPTS_BAD);
	CHECK_HAS(why, "demo: unknown option '--frobnicate'");
	CHECK_HAS(why, "--reps");
	free(why);
	CHECK(parse(&s, &d, "--reps", &why) == HB_OPTS_BAD);
	CHECK_HAS(why, "needs a value");
	free(why);
	hb_opts_free(&s, &d);
}

TEST(lists_sizes_and_repeats)
{
	struct hb_cmdspec s = spec_with(vm_cli_options);
	struct demo d;
	char *why;

	CHECK(parse(&s, &d, "--mem 2G --cores 2,6,12 --tag a --tag b --color green", &why) == HB_OPTS_OK,
	      "%s", why);
	CHECK(d.mem_mib == 2048, "mem %ld", d.mem_mib);
	CHECK(d.ncores == 3 && d.cores[0] == 2 && d.cores[2] == 12, "cores %zu", d.ncores);
	CHECK(d.tags && !strcmp(d.tags[0], "a") && !strcmp(d.tags[1], "b") && !d.tags[2]);
	CHECK(d.color == 1);
	hb_opts_free(&s, &d);
	CHECK(parse(&s, &d, "--cores 2,0", &why) == HB_OPTS_BAD);
	CHECK_HAS(why, "'0'");
	free(why);
	hb_opts_free(&s, &d);
}

TEST_MAIN()
