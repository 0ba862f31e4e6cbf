/* The headline table of a workload on the page, and the verdict in words. */
#include <math.h>
#include <stdlib.h>

#include "analysis/numfmt.h"
#include "common/xalloc.h"
#include "analysis/html.h"
#include "report/report_html.h"

const char *report_verdict(const struct group_row *r)
{
	const char *problem = group_row_problem(r);

	if (r->status == ROW_IS_BASELINE)
		return "baseline";
	if (problem)
		return problem;
	if (!isfinite(r->head.ci95_low_pct) || !isfinite(r->head.ci95_high_pct))
		return "no interval (one sample)";
	if (r->head.ci95_low_pct > 0)
		return "worse";
	if (r->head.ci95_high_pct < 0)
		return "better";
	return "within noise";
}

static const char *row_class(const struct group_row *r)
{
	if (r->status == ROW_IS_BASELINE)
		return "base";
	if (r->status != ROW_OK || !isfinite(r->head.ci95_low_pct))
		return "unknown";
	return r->head.ci95_low_pct > 0 ? "worse" : r->head.ci95_high_pct < 0 ? "better" : "noise";
}

/* A right-aligned number cell; data-v carries the value for sorting (none when unknown). */
static void num_cell(FILE *out, double v, const char *text)
{
	if (isfinite(v))
		fprintf(out, "<td class=\"num\" data-v=\"%.17g\">", v);
	else
		fputs("<td class=\"num\">", out);
	html_text(out, text);
	fputs("</td>", out);
}

static void text_cell(FILE *out, const char *cls, const char *text)
{
	fprintf(out, "<td class=\"%s\">", cls);
	html_text(out, text);
	fputs("</td>", out);
}

/* The CI cell keeps both ends at full precision (data-low, data-high) beside the rounded
 * text: the browser test compares them with the JSON report's. */
static void ci_cell(FILE *out, const struct group_row *r)
{
	char b[NUMFMT_SIZE];
	bool known = r->status == ROW_OK && isfinite(r->head.ci95_low_pct);

	if (known)
		fprintf(out, "<td class=\"num ci\" data-v=\"%.17g\" data-low=\"%.17g\" data-high=\"%.17g\">",
			r->head.ci95_low_pct, r->head.ci95_low_pct, r->head.ci95_high_pct);
	else
		fputs("<td class=\"num ci\">", out);
	html_text(out, known ? fmt_cost_ci(b, r->head.slowdown_pct, r->head.ci95_low_pct,
					   r->head.ci95_high_pct) : "-");
	fputs("</td>", out);
}

static void estimate_cell(FILE *out, const struct group_row *r)
{
	char *what = r->status != ROW_OK ? xstrdup("-")
		     : r->paired ? xasprintf("paired, %ld rounds", r->pe.n_pairs) : xstrdup("Welch");

	text_cell(out, "est", what);
	free(what);
}

static void headline_row(struct report_ctx *ctx, const struct group_row *r)
{
	FILE *out = ctx->out;
	const struct ds_group *g = r->g;
	char b[NUMFMT_SIZE];
	char *metric = *g->unit ? xasprintf("%s [%s]", g->metric, g->unit) : xstrdup(g->metric);
	bool ok = r->status == ROW_OK;

	fprintf(out, "<tr class=\"%s\" data-workload=\"", row_class(r));
	html_text(out, g->workload);
	fputs("\" data-clock=\"", out);
	html_text(out, g->clock);
	fputs("\" data-line=\"", out);
	html_text(out, g->line);
	fputs("\" data-metric=\"", out);
	html_text(out, g->metric);
	fputs("\" data-variant=\"", out);
	html_text(out, ctx->ds.variants[r->variant]);
	fprintf(out, "\" data-cores=\"%d\">", g->cores);
	text_cell(out, "metric", metric);
	if (g->cores >= 0)
		fprintf(out, "<td class=\"num\" data-v=\"%d\">%d</td>", g->cores, g->cores);
	else
		fputs("<td class=\"num\">-</td>", out);
	text_cell(out, "variant", ctx->ds.variants[r->variant]);
	num_cell(out, (double)r->s.n, fmt_value(b, (double)r->s.n));
	num_cell(out, r->s.mean, fmt_value(b, r->s.mean));
	num_cell(out, ok ? r->head.slowdown_pct : NAN, r->status == ROW_IS_BASELINE ? "baseline"
		 : r->status == ROW_BELOW_RESOLUTION ? "below resolution"
		 : ok ? fmt_cost(b, r->head.slowdown_pct) : "-");
	ci_cell(out, r);
	num_cell(out, ok ? r->head.mde_pct : NAN, ok ? fmt_pct_plain(b, r->head.mde_pct) : "-");
	estimate_cell(out, r);
	text_cell(out, "verdict", report_verdict(r));
	fputs("</tr>\n", out);
	free(metric);
}

void report_html_headline(struct report_ctx *ctx, struct ds_group *const *gs, size_t n)
{
	struct group_row *rows = xcalloc(ctx->ds.nvariants ? ctx->ds.nvariants : 1, sizeof(*rows));

	fputs("<table class=\"sortable headline\">\n<caption>Cost of each variant against the "
	      "baseline (positive: worse, whatever the metric's direction). Verdict: worse or better when "
	      "the 95% CI excludes 0, within noise when it spans 0.</caption>\n<thead><tr>"
	      "<th scope=\"col\">metric [unit]</th><th scope=\"col\" class=\"num\">vCPUs</th>"
	      "<th scope=\"col\">variant</th><th scope=\"col\" class=\"num\">n</th>"
	      "<th scope=\"col\" class=\"num\">mean [unit]</th><th scope=\"col\" class=\"num\">cost [%, or x]</th>"
	      "<th scope=\"col\" class=\"num\">95% CI</th><th scope=\"col\" class=\"num\">MDE [%]</th>"
	      "<th scope=\"col\">estimate</th><th scope=\"col\">verdict</th></tr></thead>\n<tbody>\n",
	      ctx->out);
	for (size_t i = 0; i < n; i++) {
		if (!report_wants(ctx, gs[i]))
			continue;
		size_t nr = group_rows_opts(&ctx->ds, gs[i], ctx->baseline, ctx->ratio_to, &ctx->rows, rows);
		for (size_t k = 0; k < nr; k++)
			headline_row(ctx, &rows[k]);
	}
	fputs("</tbody>\n</table>\n", ctx->out);
	free(rows);
}
