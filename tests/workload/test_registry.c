/* The workload registry (workloads/meson.build's workload_names): every registered
 * workload loads, every workload folder is registered, and the default set `harness run`
 * uses comes from the workload.ini files. No list of workload names here to keep up to date.
 * usage: test_registry (TAP) */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "test.h"
#include "workload/internal.h"

/* Every registered workload loads with complete metadata and defaults its own checks
 * accept; the names come sorted (no list here to keep up to date). */
TEST(names_and_loading)
{
	static const char *const known[] = { "hackbench", "hugetlb", "kbuild", "test_vmalloc", "vmaops" };
	char **names = workload_names();

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		CHECK(hb_strv_contains(names, known[i]), "%s is not registered", known[i]);
	for (size_t i = 0; names[i]; i++) {
		struct workload *w = workload_require(names[i], &(char *){ NULL });
		CHECK(i == 0 || strcmp(names[i - 1], names[i]) < 0, "%s before %s: not sorted",
		      names[i - 1], names[i]);
		CHECK(w && w->parser && w->nmetrics > 0 && *w->description && w->est_rep_s > 0,
		      "%s: incomplete metadata", names[i]);
		for (size_t p = 0; w && p < w->nparams; p++) {
			char *why = workload_param_check(&w->params[p], w->params[p].default_value);
			CHECK(!why && w->params[p].accepted, "%s.%s: default refused: %s", names[i],
			      w->params[p].key, why);
			free(why);
		}
		workload_free(w);
	}
	hb_free_strv(names);
}

/* A folder of workloads/ with a workload.ini but not in workload_names (workloads/meson.build)
 * would have no parser and no tests: every such folder is registered. */
TEST(every_folder_registered)
{
	char *root = xasprintf("%s/workloads", hb_source_dir());
	char **names = workload_names();
	DIR *d = opendir(root);
	struct dirent *e;

	CHECK(d != NULL, "cannot list %s", root);
	while (d && (e = readdir(d))) {
		char *ini = xasprintf("%s/%s/" WORKLOAD_INI, root, e->d_name);
		CHECK(!hb_is_file(ini) || hb_strv_contains(names, e->d_name),
		      "workloads/%s has a workload.ini but is not in workload_names", e->d_name);
		free(ini);
	}
	if (d)
		closedir(d);
	hb_free_strv(names);
	free(root);
}

/* The set `harness run` runs without --workloads, from each workload.ini's default_order:
 * in that order, and still the set matrix.c used to list (hugetlb, hackbench,
 * test_vmalloc, kbuild, in this order; others may join). */
TEST(default_set)
{
	static const char *const before[] = { "hugetlb", "hackbench", "test_vmalloc", "kbuild" };
	char **set = workload_default_names(), **names = workload_names();
	int last = 0;
	size_t at = 0;

	for (size_t i = 0; set[i]; i++) {
		struct workload *w = workload_require(set[i], &(char *){ NULL });
		CHECK(w && w->default_order >= last, "%s out of order", set[i]);
		last = w ? w->default_order : last;
		if (at < sizeof(before) / sizeof(before[0]) && !strcmp(set[i], before[at]))
			at++;
		workload_free(w);
	}
	CHECK(at == sizeof(before) / sizeof(before[0]), "the default set lost %s", before[at]);
	for (size_t i = 0; names[i]; i++) {
		struct workload *w = workload_require(names[i], &(char *){ NULL });
		CHECK(!w || (w->default_order > 0) == hb_strv_contains(set, names[i]),
		      "%s: default_order %d but %s the set", names[i], w ? w->default_order : -1,
		      hb_strv_contains(set, names[i]) ? "in" : "not in");
		workload_free(w);
	}
	hb_free_strv(set);
	hb_free_strv(names);
}

TEST_MAIN()
