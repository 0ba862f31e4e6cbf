/* hugetlb: the guest helper hb-hugetlb times the pool allocation and release itself (the
 * job's own timings would add process start and the hugetlbfs zero check). */
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "workload/parser.h"

#define HUGE_PAGE_MIB 2
/* The guest kernel and the init need room besides the pool. */
#define GUEST_BASE_MIB 256

static int hugetlb_jobs(const struct workload *w, struct workload_cell *cell, char **why)
{
	const char *pages = workload_param(w, "pages");
	char *helper = workload_helper_path(w, why);
	const char *argv[] = { helper, "--pages", pages,
			       strcmp(workload_param(w, "warmup"), "no") ? NULL : "--no-warmup", NULL };

	if (!helper)
		return -1;
	/* The run stage turns this into a usage error when --mem is smaller. */
	if (strcmp(pages, "auto"))
		workload_need_mem(cell, workload_param_long(w, "pages", 0) * HUGE_PAGE_MIB + GUEST_BASE_MIB);
	workload_add_job(cell, w, NULL, argv, NULL);
	free(helper);
	return 0;
}

static const struct workload_seconds_line timings[] = {
	{ "alloc_wall_s", "wall" },
	{ "alloc_sys_s", "sys" },
	{ "release_wall_s", "release_wall" },
	{ "release_sys_s", "release_sys" },
};

static int hugetlb_parse(const char *out, const char *err, metric_emit_fn emit, void *ctx,
			 char **why)
{
	char *zero = workload_line_value(out, "zero_check");

	(void)err;
	if (!zero || strcmp(zero, "ok")) {
		*why = zero ? xasprintf("zero check of a fresh huge page: %s", zero)
			    : xstrdup("no 'zero_check' line in hb-hugetlb's output");
		free(zero);
		return -1;
	}
	free(zero);
	return workload_emit_seconds(out, timings, sizeof(timings) / sizeof(timings[0]),
				     "hb-hugetlb", emit, ctx, why);
}

const struct workload_parser hugetlb_parser = {
	.name = "hugetlb",
	.jobs = hugetlb_jobs,
	.parse = hugetlb_parse,
};
