/* The selection and layout rules of report_ctx.h, shared by every renderer. */
#include "report/report_ctx.h"

#include <stdlib.h>
#include <string.h>

#include "common/kernel_line.h"
#include "common/xalloc.h"
#include "results/store.h"

bool report_wants(const struct report_ctx *ctx, const struct ds_group *g)
{
	return (!ctx->opts->metric || !strcmp(ctx->opts->metric, g->metric)) &&
	       (!ctx->opts->workload || !strcmp(ctx->opts->workload, g->workload));
}

bool report_section_wide(const struct report_ctx *ctx, struct ds_group *const *gs, size_t n)
{
	if (ctx->opts->layout == REPORT_LAYOUT_AUTO)
		return ds_section_is_wide(gs, 0, n);
	return ctx->opts->layout == REPORT_LAYOUT_WIDE;
}

size_t report_block_end(const struct report_ctx *ctx, size_t from)
{
	const struct ds_group *a = ctx->ds.groups[from];
	size_t to = from + 1;

	while (to < ctx->ds.ngroups && !strcmp(ctx->ds.groups[to]->workload, a->workload) &&
	       !strcmp(ctx->ds.groups[to]->clock, a->clock) && !strcmp(ctx->ds.groups[to]->line, a->line))
		to++;
	return to;
}

bool report_show_clock(const struct report_ctx *ctx, const struct ds_group *g)
{
	return ctx->ds.nclocks > 1 || strcmp(g->clock, "host");
}

bool report_show_line(const struct report_ctx *ctx, const struct ds_group *g)
{
	return ctx->ds.nlines > 1 || !hb_is_default_line(g->line);
}

char *report_place(const struct report_ctx *ctx, const struct ds_group *g)
{
	char *cores = g->cores >= 0 ? xasprintf(" cores=%d", g->cores) : xstrdup("");
	char *clock = report_show_clock(ctx, g) ? xasprintf(" clock=%s", g->clock) : xstrdup("");
	char *line = report_show_line(ctx, g) ? xasprintf(" kernel=%s", g->line) : xstrdup("");
	char *place = xasprintf("%s%s%s%s", g->workload, cores, clock, line);

	free(cores);
	free(clock);
	free(line);
	return place;
}

const char *report_clock(const struct report_ctx *ctx)
{
	json_object *clock = NULL, *name = NULL;

	if (ctx->ds.nclocks > 1)
		return "mixed";
	if (ctx->meta && json_object_object_get_ex(ctx->meta, RS_META_CLOCK, &clock) &&
	    json_object_object_get_ex(clock, "name", &name) && json_object_is_type(name, json_type_string))
		return json_object_get_string(name);
	return ctx->ds.nclocks ? ctx->ds.clocks[0] : "host";
}

const char *report_headline_rule(const struct report_ctx *ctx)
{
	if (ctx->rows.no_pairing)
		return "Welch (ratio of means, unpaired): an imported set; `report --paired` pairs "
		       "its CSV's boot column";
	if (!dataset_has_rounds(&ctx->ds))
		return "Welch (ratio of means, unpaired): the samples carry no boot rounds";
	return "paired (geometric mean of per-round ratios to the same round's baseline, "
	       "Student's t) where a row has >= 2 rounds on both sides, else Welch (ratio of means)";
}
