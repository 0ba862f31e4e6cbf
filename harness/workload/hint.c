/* Report hints from workload metadata, for readers that only have samples: the report
 * asks whether a sample's workload is per-test (one row per test, seed 004's shape). */
#include <stdlib.h>

#include "common/argparse.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "workload/internal.h"
#include "workload/workload.h"

int workload_per_test_hint(const char *sample_workload)
{
	char **names = workload_names();
	int hint = -1;

	for (size_t i = 0; names[i] && hint < 0; i++) {
		char *path;
		struct workload *w;

		if (!workload_sample_belongs(names[i], sample_workload))
			continue;
		path = xasprintf("%s/workloads/%s/" WORKLOAD_INI, hb_source_dir(), names[i]);
		w = hb_is_file(path) ? workload_load_path(names[i], path, workload_find_parser(names[i])) : NULL;
		if (w)
			hint = w->per_test;
		workload_free(w);
		free(path);
	}
	hb_free_strv(names);
	return hint;
}
