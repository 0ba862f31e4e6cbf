#include "run/matrix.h"

#include <hwloc.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/argparse.h"
#include "common/log.h"
#include "common/paths.h"
#include "boot/vm_options.h"
#include "common/xalloc.h"
#include "configs/kconfigs.h"
#include "pin/pin.h"
#include "workload/workload.h"

/* The seed 001 per-core sweep. */
static const long seed_cores[] = { 2, 6, 12, 24 };
static const char *const first_variants[] = { "baseline", "init_on_alloc", "init_on_free" };

int matrix_host_cores(void)
{
	hwloc_topology_t topo;
	int n = 0;

	if (pin_topology_load(&topo) == 0) {
		n = pin_count_cores(topo);
		hwloc_topology_destroy(topo);
	}
	if (n <= 0)
		n = (int)sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? n : 1;
}

long *matrix_default_cores(int host_cores, size_t *n)
{
	long *out = xcalloc(sizeof(seed_cores) / sizeof(seed_cores[0]), sizeof(long));

	*n = 0;
	for (size_t i = 0; i < sizeof(seed_cores) / sizeof(seed_cores[0]); i++)
		if (seed_cores[i] <= host_cores)
			out[(*n)++] = seed_cores[i];
	if (*n == 0)
		out[(*n)++] = host_cores;
	return out;
}

int matrix_check_cores(const long *cores, size_t n, int host_cores, bool overcommit, char **why)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < i; j++)
			if (cores[j] == cores[i]) {
				*why = xasprintf("--cores: %ld appears twice (accepted: distinct vCPU counts)",
						 cores[i]);
				return -1;
			}
		/* The same check and message as harness boot's (boot/vm_options.h). */
		if (vm_check_cores(cores[i], host_cores, overcommit, why) < 0)
			return -1;
	}
	return 0;
}

/* A build can be made when its definition loads and every patch it lists exists. */
static bool build_available(const char *build)
{
	struct build_def b;
	bool ok;

	if (config_load_build(build, &b) != 0)
		return false;
	ok = !b.series_missing;
	for (size_t i = 0; ok && b.patches && b.patches[i]; i++)
		ok = hb_is_file(b.patches[i]);
	for (size_t i = 0; ok && b.fragments[i]; i++)
		ok = hb_is_file(b.fragments[i]);
	build_def_free(&b);
	return ok;
}

static bool is_first_variant(const char *name)
{
	for (size_t i = 0; i < sizeof(first_variants) / sizeof(first_variants[0]); i++)
		if (!strcmp(name, first_variants[i]))
			return true;
	return false;
}

char **matrix_default_variants(void)
{
	char **all = config_list_variants();
	size_t n = hb_strv_len(all), k = 0;
	char **out = xcalloc(n + 4, sizeof(char *));

	for (size_t i = 0; i < sizeof(first_variants) / sizeof(first_variants[0]); i++)
		out[k++] = xstrdup(first_variants[i]);
	for (size_t i = 0; i < n; i++) {
		struct variant_def v;
		if (is_first_variant(all[i]) || config_load_variant(all[i], &v) != 0)
			continue;
		if (v.in_default_set && build_available(v.build))
			out[k++] = xstrdup(all[i]);
		variant_def_free(&v);
	}
	hb_free_strv(all);
	return out;
}

int matrix_check_variants(char *const *variants, char **why)
{
	for (size_t i = 0; variants[i]; i++) {
		struct variant_def v;
		if (config_require_variant(variants[i], &v, why) < 0)
			return -1;
		variant_def_free(&v);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(variants[i], variants[j])) {
				*why = xasprintf("--variants: '%s' appears twice (accepted: distinct "
						 "variants)", variants[i]);
				return -1;
			}
	}
	return 0;
}

/* Each workload.ini says whether (and where) it is in the default set. */
char **matrix_default_workloads(void)
{
	return workload_default_names();
}
