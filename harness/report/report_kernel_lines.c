/* The one comparison across kernel lines: for each (clock, workload, metric, cores) the
 * set measured on several lines, each line's baseline mean side by side (with its ratio to
 * the first line's), and each variant's cost against its own line's baseline. Costs are
 * never taken across lines: a 6.12 variant against the 6.1 baseline would mix the option
 * with everything else that changed between the kernels. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/variant_order.h"
#include "common/xalloc.h"
#include "report/render.h"
#include "report/report_ctx.h"
#include "analysis/numfmt.h"
#include "analysis/table.h"

/* The cell text of variant v on group o: the baseline's mean (and its ratio to base_mean),
 * a variant's headline cost with its interval, or "-". */
static void line_cell(struct report_ctx *ctx, struct table *t, const struct ds_group *o, int v,
		      double *base_mean)
{
	struct group_row *rows = xcalloc(ctx->ds.nvariants, sizeof(*rows));
	size_t n = o ? group_rows_opts(&ctx->ds, o, ctx->baseline, -1, &ctx->rows, rows) : 0;
	const struct group_row *r = NULL;
	char a[NUMFMT_SIZE], b[NUMFMT_SIZE];

	for (size_t i = 0; i < n && !r; i++)
		if (rows[i].variant == v)
			r = &rows[i];
	if (!r)
		table_cell(t, "-");
	else if (r->status == ROW_IS_BASELINE && isnan(*base_mean)) {
		*base_mean = r->s.mean;
		table_cell(t, "%.6g%s%s", r->s.mean, *o->unit ? " " : "", o->unit);
	} else if (r->status == ROW_IS_BASELINE)
		table_cell(t, "%.6g%s%s (x%.3f)", r->s.mean, *o->unit ? " " : "", o->unit,
			   r->s.mean / *base_mean);
	else if (r->status == ROW_OK && isfinite(r->head.ci95_low_pct))
		table_cell(t, "%s %s", fmt_cost(a, r->head.slowdown_pct),
			   fmt_cost_ci(b, r->head.slowdown_pct, r->head.ci95_low_pct, r->head.ci95_high_pct));
	else if (r->status == ROW_OK)
		table_cell(t, "%s", fmt_cost(a, r->head.slowdown_pct));
	else if (r->status == ROW_BELOW_RESOLUTION)
		table_cell(t, "below resolution");
	else
		table_cell(t, "-");
	free(rows);
}

static void place_rows(struct report_ctx *ctx, struct table *t, const struct ds_group *g)
{
	double base_mean = NAN;
	char *cores = g->cores >= 0 ? xasprintf(" cores=%d", g->cores) : xstrdup("");
	char *place = xasprintf("%s%s%s%s", g->workload, cores, report_show_clock(ctx, g) ? " clock=" : "",
				report_show_clock(ctx, g) ? g->clock : "");
	size_t n;
	/* The baseline first, so later lines' baselines have the first one's mean. */
	int *order = variant_indexes_baseline_first(ctx->ds.nvariants, ctx->baseline, &n);

	for (size_t i = 0; i < n; i++) {
		table_cell(t, "%s %s", place, g->metric);
		table_cell(t, "%s", ctx->ds.variants[order[i]]);
		for (size_t l = 0; l < ctx->ds.nlines; l++)
			line_cell(ctx, t, ds_group_on_line(&ctx->ds, g, ctx->ds.lines[l]), order[i], &base_mean);
	}
	free(order);
	free(place);
	free(cores);
}

void report_kernel_lines_text(struct report_ctx *ctx, bool md)
{
	size_t ncols = 2 + ctx->ds.nlines;
	const char **heads;
	struct table t;

	if (ctx->ds.nlines < 2)
		return;
	heads = xcalloc(ncols + 1, sizeof(*heads));
	heads[0] = "place";
	heads[1] = "variant";
	for (size_t l = 0; l < ctx->ds.nlines; l++)
		heads[2 + l] = ctx->ds.lines[l];
	fprintf(ctx->out, "%skernel lines side by side: each line's baseline (x the first line's), "
		"each variant's cost against its own line's baseline\n%s", md ? "### " : "== ",
		md ? "\n" : "");
	table_init(&t, ncols, heads);
	table_set_left(&t, 1);
	for (size_t i = 0; i < ctx->ds.ngroups; i++) {
		const struct ds_group *g = ctx->ds.groups[i];
		/* One row set per place: from its group on the first line that has it. */
		bool first = true;
		for (size_t j = 0; j < i && first; j++)
			first = ds_group_on_line(&ctx->ds, g, ctx->ds.groups[j]->line) != ctx->ds.groups[j];
		if (first && report_wants(ctx, g))
			place_rows(ctx, &t, g);
	}
	if (md)
		table_print_markdown(&t, ctx->out);
	else
		table_print_text(&t, ctx->out, "  ");
	fputc('\n', ctx->out);
	table_free(&t);
	free(heads);
}
