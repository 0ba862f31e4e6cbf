/* One workload's parser (workloads/<FUZZ_WORKLOAD>/parse.c): the input is a rep's stdout
 * up to its first NUL byte and its stderr after it. Every metric must be finite, and a
 * failure must say why. Seeds: the workload's captured outputs (workloads/<name>/testdata). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "workload/internal.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!workload_find_parser(FUZZ_WORKLOAD))
		abort();
	return 0;
}

static void emit(void *ctx, const char *metric, double value)
{
	(void)ctx;
	if (!metric || !*metric || !isfinite(value))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct workload_parser *parser = workload_find_parser(FUZZ_WORKLOAD);
	char *out = fuzz_text(data, size);
	size_t out_len = strlen(out);
	char *err = out_len < size ? fuzz_text(data + out_len + 1, size - out_len - 1)
				   : fuzz_text(data, 0);
	char *why = NULL;

	if (parser->parse(out, err, emit, NULL, &why) < 0 && !why)
		abort();
	free(why);
	free(out);
	free(err);
	return 0;
}
