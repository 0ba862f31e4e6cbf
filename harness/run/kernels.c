/* Kernels for the variants of a run: one per distinct build, built (or found in the
 * cache) before the first boot so a build failure costs no measurement. */
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/xalloc.h"
#include "configs/kline.h"
#include "run/run.h"

/* The build options of kernel k: its line, and that line's --source if one was given. */
static struct kernel_opts build_opts(const struct run *r, size_t k, bool dry_run)
{
	const char *line = r->kernel_lines[k];

	/* A run rebuilds a damaged entry itself (saying so): its cells need the kernel. */
	return (struct kernel_opts){ .line = line, .source = kline_source_for(r->opts->sources, line),
				     .jobs = r->opts->jobs, .dry_run = dry_run, .rebuild_bad = true };
}

static bool is_kernel(const struct run *r, size_t k, const struct run_variant *v)
{
	return !strcmp(r->kernel_builds[k], v->build) && !strcmp(r->kernel_lines[k], v->line);
}

/* The distinct (line, build) pairs of the plan's variants, in first-use order. */
static void collect_builds(struct run *r)
{
	r->kernel_builds = xcalloc(r->nvariants + 1, sizeof(char *));
	r->kernel_lines = xcalloc(r->nvariants + 1, sizeof(char *));
	r->kernels = xcalloc(r->nvariants + 1, sizeof(struct kernel_image));
	r->nkernels = 0;
	for (size_t i = 0; i < r->nvariants; i++) {
		bool seen = false;
		for (size_t k = 0; k < r->nkernels && !seen; k++)
			seen = is_kernel(r, k, &r->variants[i]);
		if (!seen) {
			r->kernel_lines[r->nkernels] = xstrdup(r->variants[i].line);
			r->kernel_builds[r->nkernels++] = xstrdup(r->variants[i].build);
		}
	}
}

static void link_variants(struct run *r)
{
	for (size_t i = 0; i < r->nvariants; i++)
		for (size_t k = 0; k < r->nkernels; k++)
			if (is_kernel(r, k, &r->variants[i]))
				r->variants[i].kernel = &r->kernels[k];
}

size_t run_kernels_missing(const struct run *r)
{
	size_t missing = 0;

	for (size_t k = 0; k < r->nkernels; k++) {
		struct kernel_opts o = build_opts(r, k, true);
		struct kernel_image ki = { 0 };
		int rc = run_prebuilt_find(r, r->kernel_builds[k]) ? 0
			 : kernel_lookup(r->kernel_builds[k], &o, &ki);
		missing += rc != 0;
		if (rc == 0)
			kernel_image_free(&ki);
	}
	return missing;
}

int run_build_kernels(struct run *r)
{
	if (!r->kernel_builds)
		collect_builds(r);
	for (size_t k = 0; k < r->nkernels; k++) {
		struct kernel_opts o = build_opts(r, k, false);
		const struct run_prebuilt *pb = run_prebuilt_find(r, r->kernel_builds[k]);

		if (r->kernels[k].bzimage || r->kernels[k].vmlinux)
			continue;
		if (pb) {
			r->kernels[k] = run_prebuilt_image(pb);
			continue;
		}
		if (kernel_ensure(r->kernel_builds[k], &o, &r->kernels[k]) != 0) {
			/* A step of a series: the patch or commit that broke the build, by name. */
			char *step = adhoc_step_of_build(&r->adhoc, r->kernel_builds[k], r->kernel_lines[k]);
			if (step)
				hb_error("kernel build '%s' (line %s) failed: %s does not build: no cell was run",
					 r->kernel_builds[k], r->kernel_lines[k], step);
			else
				hb_error("kernel build '%s' (line %s) failed: no cell was run", r->kernel_builds[k],
					 r->kernel_lines[k]);
			free(step);
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
