/* The result-set readers: FUZZ_RESULTS is samples (samples.jsonl through dataset_load,
 * the reader report, plot and gate share) or meta (meta.json). Seeds: the committed
 * reference set (ci/reference/). */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "results/dataset.h"
#include "results/store.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	free(fuzz_dir("set"));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *dir = fuzz_path("set");

	if (!strcmp(FUZZ_RESULTS, "samples")) {
		struct dataset ds;
		free(fuzz_write("set/samples.jsonl", data, size));
		if (dataset_load(&ds, dir) >= 0) {
			dataset_sort(&ds);
			free(dataset_variant_list(&ds));
		}
		dataset_free(&ds);
	} else {
		free(fuzz_write("set/meta.json", data, size));
		json_object_put(rs_read_meta(dir));
	}
	free(dir);
	return 0;
}
