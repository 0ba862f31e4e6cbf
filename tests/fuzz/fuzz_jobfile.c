/* The job file, both sides (guest/init/jobfile.c reads what harness/boot/jobfile.c
 * writes): the input is read by the guest's parser as a job file; and its NUL-separated
 * pieces become a job's home, cwd, arguments and environment, which the host renders and
 * the guest must read back byte for byte. Seeds: job files the host rendered for the real
 * workloads (tests/fuzz/seeds/jobfile/). */
#include <stdlib.h>
#include <string.h>

#include "boot/jobfile.h"
#include "fuzz.h"
#include "init.h"

#define MAX_PIECES 12

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void parse_as_job_file(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), why[INIT_WHY_MAX] = "";
	struct init_spec spec;

	if (jobfile_parse(text, &spec, why) < 0 && !why[0])
		abort(); /* a refusal always says why */
	jobfile_free(&spec);
	free(text);
}

static bool same_strv(char *const *want, char *const *got)
{
	size_t i = 0;

	for (; want && want[i]; i++)
		if (!got || !got[i] || strcmp(want[i], got[i]))
			return false;
	return !got || !got[i];
}

/* pieces: home, cwd, then alternately an argument and an environment entry. */
static void round_trip(char **pieces, size_t n)
{
	char *argv[MAX_PIECES + 1] = { 0 }, *env[MAX_PIECES + 1] = { 0 };
	size_t nargs = 0, nenv = 0;

	for (size_t i = 2; i < n; i++) {
		if (i % 2)
			env[nenv++] = pieces[i];
		else
			argv[nargs++] = pieces[i];
	}
	if (!nargs)
		return;
	struct guest_job job = { .argv = argv, .env = nenv ? env : NULL, .cwd = pieces[1], .reps = 2 };
	char *text = jobfile_render(pieces[0], NULL, &job, 1), why[INIT_WHY_MAX] = "";
	struct init_spec spec;
	if (jobfile_parse(text, &spec, why) < 0 || spec.njobs != 1 || strcmp(spec.home, pieces[0]) ||
	    strcmp(spec.jobs[0].cwd, pieces[1]) || !same_strv(argv, spec.jobs[0].argv) ||
	    !same_strv(nenv ? env : NULL, spec.jobs[0].env) || spec.jobs[0].reps != 2)
		abort(); /* what the host writes, the guest must read back */
	jobfile_free(&spec);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1), *pieces[MAX_PIECES];
	size_t n = 0;

	parse_as_job_file(data, size);
	memcpy(copy, data, size);
	copy[size] = '\0';
	for (char *p = copy; n < MAX_PIECES && p <= copy + size; p += strlen(p) + 1)
		pieces[n++] = p;
	if (n >= 3 && *pieces[1])
		round_trip(pieces, n);
	free(copy);
	return 0;
}
