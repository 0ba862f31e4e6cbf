/* Answers about all workloads at once, from their metadata: for readers that only have
 * samples, whether a sample's workload is per-test (one row per test, seed 004's shape);
 * for the run stage, the default set (each workload.ini says whether it is in it). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "workload/internal.h"
#include "workload/workload.h"

/* workloads/<name>/workload.ini, or NULL when it is missing or broken (printed). */
static struct workload *load_named(const char *name)
{
	char *path = xasprintf("%s/workloads/%s/" WORKLOAD_INI, hb_source_dir(), name);
	struct workload *w = hb_is_file(path) ? workload_load_path(name, path, workload_find_parser(name))
					      : NULL;

	free(path);
	return w;
}

int workload_per_test_hint(const char *sample_workload)
{
	char **names = workload_names();
	int hint = -1;

	for (size_t i = 0; names[i] && hint < 0; i++) {
		struct workload *w;

		if (!workload_sample_belongs(names[i], sample_workload))
			continue;
		w = load_named(names[i]);
		if (w)
			hint = w->per_test;
		workload_free(w);
	}
	hb_free_strv(names);
	return hint;
}

struct ranked {
	const char *name;
	int order;
};

static int compare_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return strcmp(x->name, y->name);
}

char **workload_default_names(void)
{
	char **names = workload_names(), **out;
	size_t n = hb_strv_len(names), k = 0;
	struct ranked *r = xcalloc(n + 1, sizeof(*r));

	for (size_t i = 0; i < n; i++) {
		struct workload *w = load_named(names[i]);
		/* Unloadable: kept, last, so that the run's own load of it reports why. */
		int order = w ? w->default_order : INT_MAX;

		if (order > 0)
			r[k++] = (struct ranked){ names[i], order };
		workload_free(w);
	}
	qsort(r, k, sizeof(*r), compare_ranked);
	out = xcalloc(k + 1, sizeof(*out));
	for (size_t i = 0; i < k; i++)
		out[i] = xstrdup(r[i].name);
	free(r);
	hb_free_strv(names);
	return out;
}
