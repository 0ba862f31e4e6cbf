/* Kernels for the variants of a run: one per distinct build, built (or found in the
 * cache) before the first boot so a build failure costs no measurement. */
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/xalloc.h"
#include "run/run.h"

static struct kernel_opts build_opts(const struct run *r, bool dry_run)
{
	/* A run rebuilds a damaged entry itself (saying so): its cells need the kernel. */
	return (struct kernel_opts){ .source = r->opts->source, .jobs = r->opts->jobs, .dry_run = dry_run,
				     .rebuild_bad = true };
}

/* The distinct builds of the plan's variants, in first-use order. */
static void collect_builds(struct run *r)
{
	r->kernel_builds = xcalloc(r->nvariants + 1, sizeof(char *));
	r->kernels = xcalloc(r->nvariants + 1, sizeof(struct kernel_image));
	r->nkernels = 0;
	for (size_t i = 0; i < r->nvariants; i++) {
		bool seen = false;
		for (size_t k = 0; k < r->nkernels && !seen; k++)
			seen = !strcmp(r->kernel_builds[k], r->variants[i].build);
		if (!seen)
			r->kernel_builds[r->nkernels++] = xstrdup(r->variants[i].build);
	}
}

static void link_variants(struct run *r)
{
	for (size_t i = 0; i < r->nvariants; i++)
		for (size_t k = 0; k < r->nkernels; k++)
			if (!strcmp(r->kernel_builds[k], r->variants[i].build))
				r->variants[i].kernel = &r->kernels[k];
}

size_t run_kernels_missing(const struct run *r)
{
	struct kernel_opts o = build_opts(r, true);
	size_t missing = 0;

	for (size_t k = 0; k < r->nkernels; k++) {
		struct kernel_image ki = { 0 };
		int rc = kernel_lookup(r->kernel_builds[k], &o, &ki);
		missing += rc != 0;
		if (rc == 0)
			kernel_image_free(&ki);
	}
	return missing;
}

int run_build_kernels(struct run *r)
{
	struct kernel_opts o = build_opts(r, false);

	if (!r->kernel_builds)
		collect_builds(r);
	for (size_t k = 0; k < r->nkernels; k++) {
		if (r->kernels[k].bzimage)
			continue;
		if (kernel_ensure(r->kernel_builds[k], &o, &r->kernels[k]) != 0) {
			hb_error("kernel build '%s' failed: no cell was run", r->kernel_builds[k]);
			return -1;
		}
	}
	link_variants(r);
	return 0;
}

void run_collect_builds(struct run *r)
{
	collect_builds(r);
}
