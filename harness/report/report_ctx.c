/* The selection and layout rules of report_ctx.h, shared by every renderer. */
#include "report/report_ctx.h"

#include <string.h>

#include "common/xalloc.h"

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

char *report_place(const struct ds_group *g)
{
	return g->cores >= 0 ? xasprintf("%s cores=%d", g->workload, g->cores) : xstrdup(g->workload);
}
