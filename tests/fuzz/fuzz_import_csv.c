/* The CSV importer (harness/import/import_csv.c): the input is the CSV. Seeds: the
 * seeds' raw numbers (tests/data/seed*.csv). */
#include <stdlib.h>

#include "fuzz.h"
#include "import/import.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *path = fuzz_write("in.csv", data, size), *why = NULL;
	long rows = 0;

	/* The checking pass: the one that reads every byte (the writing pass reads the
	 * same rows again after it, with the result set's fsyncs, too slow to fuzz). */
	if (import_csv(path, NULL, &rows, &why) != 0 && !why)
		abort(); /* a refusal says why */
	free(why);
	free(path);
	return 0;
}
