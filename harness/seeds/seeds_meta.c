/* The measured side's conditions, from the run's meta.json: "accel", each line's builds
 * (rs_meta_line_kernels: build -> {"release"}), "variants" (variant -> {"build"}) and
 * "host" (hostinfo/hostinfo.h).
 * Whatever meta.json does not say is "unknown", never a guess about another run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/numfmt.h"
#include "common/kernel_line.h"
#include "common/json.h"
#include "common/xalloc.h"
#include "configs/kconfigs.h"
#include "seeds/seeds_report.h"
#include "results/store.h"

#define UNKNOWN "unknown"

/* meta.json's value at keys[0].keys[1]...; NULL when any step is missing. */
static json_object *meta_at(const struct report_ctx *ctx, const char *const *keys)
{
	return hb_json_at(ctx->meta, keys);
}

static const char *meta_string(const struct report_ctx *ctx, const char *const *keys)
{
	json_object *o = meta_at(ctx, keys);
	return json_object_is_type(o, json_type_string) ? json_object_get_string(o) : NULL;
}

const char *seeds_measured_line(const struct report_ctx *ctx)
{
	json_object *lines = meta_at(ctx, (const char *[]){ "plan", "kernels", NULL });
	json_object *first = json_object_is_type(lines, json_type_array) ?
			     json_object_array_get_idx(lines, 0) : NULL;

	if (json_object_is_type(first, json_type_string))
		return json_object_get_string(first);
	return ctx->ds.nlines ? ctx->ds.lines[0] : HB_DEFAULT_LINE;
}

char *seeds_measured_accel(const struct report_ctx *ctx)
{
	const char *accel = meta_string(ctx, (const char *[]){ RS_META_ACCEL, NULL });
	return xstrdup(accel ? accel : UNKNOWN);
}

/* The variant's build: as the run recorded it, else as kernel-configs/ defines it now. */
static char *variant_build(const struct report_ctx *ctx, const char *variant)
{
	const char *build = meta_string(ctx, (const char *[]){ "variants", variant, "build", NULL });
	struct variant_def def;

	if (build)
		return xstrdup(build);
	if (config_load_variant(variant, &def) == 0) {
		char *name = xstrdup(def.build);
		variant_def_free(&def);
		return name;
	}
	return NULL;
}

/* The release of key (a build, or a variant for writers that keyed by variant) on the line:
 * the line's own builds, since "kernels" lists only the run's first line. */
static const char *release_of(const struct report_ctx *ctx, const char *line, const char *key)
{
	/* Without a line: the run's first, as "kernels" lists it. */
	json_object *builds = line ? rs_meta_line_kernels(ctx->meta, line)
				   : hb_json_get(ctx->meta, "kernels");
	json_object *release = hb_json_at(builds, (const char *[]){ key, "release", NULL });
	return json_object_is_type(release, json_type_string) ? json_object_get_string(release)
							       : NULL;
}

char *seeds_measured_kernel(const struct report_ctx *ctx, const char *variant, const char *line)
{
	char *build = variant_build(ctx, variant);
	const char *release = build ? release_of(ctx, line, build) : NULL;

	if (!release)
		release = release_of(ctx, line, variant);
	free(build);
	return xstrdup(release ? release : UNKNOWN);
}

char *seeds_measured_host(const struct report_ctx *ctx)
{
	const char *brand = meta_string(ctx, (const char *[]){ RS_META_HOST, "cpu", "brand", NULL });
	json_object *cores = meta_at(ctx, (const char *[]){ RS_META_HOST, "topology", "cores", NULL });
	json_object *vm = meta_at(ctx, (const char *[]){ RS_META_HOST, "cpu", "flags", "hypervisor", NULL });
	char *text;

	/* An imported set's host is the machine that imported it, not the one that measured. */
	if (meta_at(ctx, (const char *[]){ RS_META_IMPORTED, NULL }))
		return xstrdup(UNKNOWN " (imported set)");
	if (!brand && !cores)
		return xstrdup(UNKNOWN);
	text = xasprintf("%s, %s cores%s", brand ? brand : "CPU " UNKNOWN,
			 json_object_is_type(cores, json_type_int) ? json_object_get_string(cores) : "?",
			 json_object_get_boolean(vm) ? ", itself a VM" : "");
	return text;
}

const char *seeds_fmt_figure(char *buf, enum seed_kind kind, double v)
{
	if (kind != SEED_RATIO || !isfinite(v))
		return kind == SEED_RATIO ? fmt_value(buf, v) : fmt_pct(buf, v);
	return fmt_x(buf, v); /* the seeds' way: "26.37x", "1.10x", "2.614x", "0.6614x" */
}
