/* `harness report RUN --format html`: one self-contained page, no network fetch, no
 * framework. The conditions first; per workload its headline table with the charts
 * beside it (`harness plot`'s SVGs, inlined) and the seeds' published figures when the
 * workload has any; the per-host figures of a merged set; every metric's full statistics
 * last. A few lines of plain JavaScript sort tables and filter metrics; the page reads
 * fully without it. The Content-Security-Policy allows only that script (by its hash)
 * and inline styles: nothing is fetched, and a name that slipped past escaping could not
 * run. Everything from the run goes through html_text (html.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/numfmt.h"
#include "common/xalloc.h"
#include "report/conditions.h"
#include "analysis/html.h"
#include "analysis/html_page.h"
#include "report/render.h"
#include "report/report_charts.h"
#include "report/report_html.h"
#include "report/report_profile.h"
#include "report/report_per_patch.h"

static bool block_selected(const struct report_ctx *ctx, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (report_wants(ctx, ctx->ds.groups[i]))
			return true;
	return false;
}

/* The section's title: "hackbench", with the clock and line when the report names them. */
static char *block_title(const struct report_ctx *ctx, const struct ds_group *g)
{
	char *clock = report_show_clock(ctx, g) ? xasprintf(", clock %s", g->clock) : xstrdup("");
	char *line = report_show_line(ctx, g) ? xasprintf(", kernel %s", g->line) : xstrdup("");
	char *title = xasprintf("%s%s%s", g->workload, clock, line);

	free(clock);
	free(line);
	return title;
}

static void block_id(FILE *out, const struct ds_group *g)
{
	html_id(out, "w-", g->workload);
	html_id(out, "-", g->clock);
	html_id(out, "-", g->line);
}

static void contents(const struct report_ctx *ctx)
{
	fputs("<nav aria-label=\"contents\"><h2>Workloads</h2><ul>\n", ctx->out);
	for (size_t from = 0, to; from < ctx->ds.ngroups; from = to) {
		to = report_block_end(ctx, from);
		if (!block_selected(ctx, from, to))
			continue;
		char *title = block_title(ctx, ctx->ds.groups[from]);
		fputs("<li><a href=\"#", ctx->out);
		block_id(ctx->out, ctx->ds.groups[from]);
		fputs("\">", ctx->out);
		html_text(ctx->out, title);
		fputs("</a></li>\n", ctx->out);
		free(title);
	}
	if (ctx->profile) /* --profile: report_profile.c */
		fputs("<li><a href=\"#profile\">Where the cost goes</a></li>\n", ctx->out);
	if (report_per_patch_any(ctx))
		fputs("<li><a href=\"#per-patch\">Patch by patch</a></li>\n", ctx->out);
	fputs("<li><a href=\"#details\">Full statistics</a></li></ul></nav>\n", ctx->out);
}

/* Charts of the block: slowdown charts per metric, the vCPU sweep, per-test ratios. */
static void block_charts(const struct report_ctx *ctx, const struct report_charts *rc,
			 const struct ds_group *g)
{
	fputs("<div class=\"charts\">\n", ctx->out);
	if (rc->none_why) {
		fputs("<p class=\"note\">", ctx->out);
		html_text(ctx->out, rc->none_why);
		fputs(".</p>\n", ctx->out);
	}
	for (size_t i = 0; i < rc->ix.n; i++) {
		const struct plot_chart *ch = &rc->ix.charts[i];
		if (strcmp(ch->workload, g->workload) || strcmp(ch->clock, g->clock) || strcmp(ch->line, g->line) ||
		    (ch->metric && ctx->opts->metric && strcmp(ch->metric, ctx->opts->metric)))
			continue;
		char *svg = report_chart_svg(rc, ch);
		if (!svg)
			continue;
		fputs("<figure", ctx->out);
		if (ch->metric) {
			fputs(" data-metric=\"", ctx->out);
			html_text(ctx->out, ch->metric);
			fputc('"', ctx->out);
		}
		fprintf(ctx->out, ">\n%s\n<figcaption>", svg);
		html_textf(ctx->out, "%s.svg: %s", ch->base, !strcmp(ch->kind, "ratios")
			   ? "per-test mean / baseline mean" : "bars: the headline's 95% CI");
		fputs("</figcaption></figure>\n", ctx->out);
		free(svg);
	}
	fputs("</div>\n", ctx->out);
}

static void block(struct report_ctx *ctx, size_t from, size_t to, const struct report_charts *rc)
{
	const struct ds_group *g = ctx->ds.groups[from];
	char *title = block_title(ctx, g);

	fputs("<section class=\"workload\" id=\"", ctx->out);
	block_id(ctx->out, g);
	fputs("\">\n<h2>", ctx->out);
	html_text(ctx->out, title);
	fputs("</h2>\n<div class=\"pair\">\n<div class=\"tables\">\n", ctx->out);
	report_html_headline(ctx, ctx->ds.groups + from, to - from);
	fputs("</div>\n", ctx->out);
	block_charts(ctx, rc, g);
	fputs("</div>\n", ctx->out);
	report_html_seeds(ctx, g);
	fputs("</section>\n", ctx->out);
	free(title);
}

/* Every selected group's long table (the text report's), in a disclosure per metric. */
static void details(struct report_ctx *ctx)
{
	struct group_row *rows = xcalloc(ctx->ds.nvariants ? ctx->ds.nvariants : 1, sizeof(*rows));

	fputs("<section id=\"details\"><h2>Full statistics</h2>\n<p>Per metric: every variant's n, "
	      "mean, sample and population standard deviation, standard error, min, max, "
	      "coefficient of variation, ratio of means, and the headline slowdown with its "
	      "standard error, 95% CI, MDE, p-value and estimate.</p>\n", ctx->out);
	for (size_t i = 0; i < ctx->ds.ngroups; i++) {
		const struct ds_group *g = ctx->ds.groups[i];
		struct table t;
		char *place;
		if (!report_wants(ctx, g))
			continue;
		place = report_place(ctx, g);
		fputs("<details data-metric=\"", ctx->out);
		html_text(ctx->out, g->metric);
		fputs("\"><summary>", ctx->out);
		html_textf(ctx->out, "%s: %s%s%s%s, %s is better", place, g->metric, *g->unit ? " [" : "",
			   g->unit, *g->unit ? "]" : "", g->lower_is_better ? "lower" : "higher");
		fputs("</summary>\n", ctx->out);
		report_long_table(ctx, g, true, &t, rows);
		html_table(ctx->out, &t, "sortable stats");
		fputs("</details>\n", ctx->out);
		table_free(&t);
		free(place);
	}
	fputs("</section>\n", ctx->out);
	free(rows);
}

void report_render_html(struct report_ctx *ctx)
{
	struct report_conditions c;
	struct report_charts rc;

	conditions_read(ctx, &c);
	report_charts_draw(ctx, &rc);
	char *title = xasprintf("hardbench report: %s", ctx->dir);
	html_page_head(ctx->out, title);
	free(title);
	report_html_conditions(ctx, &c);
	contents(ctx);
	for (size_t from = 0, to; from < ctx->ds.ngroups; from = to) {
		to = report_block_end(ctx, from);
		if (block_selected(ctx, from, to))
			block(ctx, from, to, &rc);
	}
	report_profile_html(ctx);
	report_per_patch_html(ctx);
	report_html_hosts(ctx);
	details(ctx);
	html_page_foot(ctx->out);
	report_charts_free(&rc);
	conditions_free(&c);
}
