/* Text and markdown reports: a header from meta.json (report_header.c), then per section
 * (clock, workload and cores) either one long table per metric followed by the list
 * mails' one-liners, or one wide per-test table.
 *
 * The table's slowdown, 95% CI, MDE and p are the row's headline estimate (analysis/
 * rows.h), and its "est" column says which: "paired N" (N rounds) or "Welch". A paired
 * one-liner shows Welch's estimate beside it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/variant_order.h"
#include "analysis/numfmt.h"
#include "common/xalloc.h"
#include "report/render.h"
#include "report/report_ctx.h"
#include "report/report_profile.h"
#include "report/report_per_patch.h"
#include "analysis/table.h"
#include "results/store.h"

static void group_heading(const struct report_ctx *ctx, const struct ds_group *g, bool md)
{
	fprintf(ctx->out, "%s%s: %s", md ? "### " : "== ", g->workload, g->metric);
	if (*g->unit)
		fprintf(ctx->out, " [%s]", g->unit);
	if (g->cores >= 0)
		fprintf(ctx->out, ", cores=%d", g->cores);
	if (report_show_clock(ctx, g))
		fprintf(ctx->out, ", clock=%s", g->clock);
	if (report_show_line(ctx, g))
		fprintf(ctx->out, ", kernel=%s", g->line);
	fprintf(ctx->out, ", %s is better\n%s", g->lower_is_better ? "lower" : "higher", md ? "\n" : "");
}

static void slowdown_cell(struct table *t, const struct group_row *r)
{
	char a[NUMFMT_SIZE], b[NUMFMT_SIZE];

	if (r->status == ROW_IS_BASELINE)
		table_cell(t, "baseline");
	else if (r->status == ROW_BELOW_RESOLUTION)
		table_cell(t, "below resolution");
	else if (r->status != ROW_OK)
		table_cell(t, "-");
	else if (isfinite(r->head.se_pct))
		table_cell(t, "%s (%s)", fmt_cost(a, r->head.slowdown_pct),
			   fmt_cost_se(b, r->head.slowdown_pct, r->head.se_pct));
	else
		table_cell(t, "%s", fmt_cost(a, r->head.slowdown_pct));
}

/* Which estimate the row's slowdown is: "paired 5", "Welch", or "-" for the baseline. */
static void kind_cell(struct table *t, const struct group_row *r)
{
	if (r->status != ROW_OK)
		table_cell(t, "-");
	else if (r->paired)
		table_cell(t, "paired %ld", r->pe.n_pairs);
	else
		table_cell(t, "Welch");
}

static void long_row(struct report_ctx *ctx, struct table *t, const struct group_row *r)
{
	char b[NUMFMT_SIZE];

	table_cell(t, "%s", ctx->ds.variants[r->variant]);
	table_cell(t, "%ld", r->s.n);
	table_cell(t, "%s", fmt_value(b, r->s.mean));
	table_cell(t, "%s", fmt_value(b, r->s.stddev));
	table_cell(t, "%s", fmt_value(b, r->s.stddev_pop));
	table_cell(t, "%s", fmt_value(b, r->s.se));
	table_cell(t, "%s", fmt_value(b, r->s.min));
	table_cell(t, "%s", fmt_value(b, r->s.max));
	table_cell(t, "%s", fmt_pct_plain(b, r->s.cv * 100));
	table_cell(t, "%s", fmt_ratio(b, r->c.ratio, 4));
	slowdown_cell(t, r);
	table_cell(t, "%s", fmt_cost_ci(b, r->head.slowdown_pct, r->head.ci95_low_pct,
					 r->head.ci95_high_pct));
	table_cell(t, "%s", fmt_pct_plain(b, r->head.mde_pct));
	table_cell(t, "%s", fmt_p(b, r->head.p_value));
	kind_cell(t, r);
	if (ctx->ratio_to >= 0)
		table_cell(t, "%s", fmt_ratio(b, r->ratio_to, 4));
}

/* ", 95% CI [+4.1%, +5.0%], MDE 0.61%" of an estimate, nothing for what is unknown. */
static void interval_text(FILE *out, const struct row_estimate *e)
{
	char a[NUMFMT_SIZE], b[NUMFMT_SIZE];

	if (isfinite(e->ci95_low_pct))
		fprintf(out, ", 95%% CI %s", fmt_cost_ci(a, e->slowdown_pct, e->ci95_low_pct,
							 e->ci95_high_pct));
	if (isfinite(e->mde_pct))
		fprintf(out, ", MDE %s", fmt_pct_plain(b, e->mde_pct));
}

/* The list mails' form, "hackbench, init_on_free: +7.71% sys (st.err 0.45%", then the
 * interval, the MDE and which estimate; a paired headline has Welch's beside it. */
static void one_liner(struct report_ctx *ctx, const struct group_row *r, bool md)
{
	char *place = report_place(ctx, r->g);
	char a[NUMFMT_SIZE], b[NUMFMT_SIZE];
	const char *problem = group_row_problem(r);

	fprintf(ctx->out, "%s%s, %s: ", md ? "- " : "", place, ctx->ds.variants[r->variant]);
	free(place);
	if (problem) {
		fprintf(ctx->out, "%s\n", problem);
		return;
	}
	fprintf(ctx->out, "%s %s", fmt_cost(a, r->head.slowdown_pct), r->g->metric);
	if (!isfinite(r->head.se_pct)) {
		fprintf(ctx->out, " (n=%ld, no st.err)\n", r->s.n);
		return;
	}
	fprintf(ctx->out, " (st.err %s", fmt_cost_se(b, r->head.slowdown_pct, r->head.se_pct));
	interval_text(ctx->out, &r->head);
	if (r->paired) {
		fprintf(ctx->out, "; paired, %ld rounds; Welch %s", r->pe.n_pairs,
			fmt_cost(a, r->welch.slowdown_pct));
		if (isfinite(r->welch.ci95_low_pct))
			fprintf(ctx->out, " %s", fmt_cost_ci(b, r->welch.slowdown_pct,
							     r->welch.ci95_low_pct, r->welch.ci95_high_pct));
		fprintf(ctx->out, ")\n");
	} else {
		fprintf(ctx->out, "; Welch)\n");
	}
}

size_t report_long_table(struct report_ctx *ctx, const struct ds_group *g, bool units,
			 struct table *t, struct group_row *rows)
{
	static const char *const headers[] = { "variant", "n", "mean", "stddev", "stddev_pop",
		"st.err", "min", "max", "cv", "ratio", "slowdown (st.err)", "95% CI", "MDE", "p",
		"est", NULL };
	enum { NHEAD = sizeof(headers) / sizeof(headers[0]) - 1, FIRST_VALUE = 2, LAST_VALUE = 7 };
	size_t n = group_rows_opts(&ctx->ds, g, ctx->baseline, ctx->ratio_to, &ctx->rows, rows);
	size_t ncols = NHEAD + (ctx->ratio_to >= 0);
	char *heads[NHEAD + 1];

	/* The page's headers carry the unit; the text report names it in the heading. */
	for (size_t i = 0; i < NHEAD; i++)
		heads[i] = units && *g->unit && i >= FIRST_VALUE && i <= LAST_VALUE
			   ? xasprintf("%s [%s]", headers[i], g->unit) : xstrdup(headers[i]);
	heads[NHEAD] = xasprintf("x %s", ctx->ratio_to >= 0 ? ctx->ds.variants[ctx->ratio_to] : "");
	table_init(t, ncols, (const char *const *)heads);
	for (size_t i = 0; i < n; i++)
		long_row(ctx, t, &rows[i]);
	for (size_t i = 0; i <= NHEAD; i++)
		free(heads[i]);
	return n;
}

static void long_group(struct report_ctx *ctx, const struct ds_group *g, bool md)
{
	struct group_row *rows = xcalloc(ctx->ds.nvariants, sizeof(*rows));
	struct table t;
	size_t n;

	group_heading(ctx, g, md);
	n = report_long_table(ctx, g, false, &t, rows);
	if (md)
		table_print_markdown(&t, ctx->out);
	else
		table_print_text(&t, ctx->out, "  ");
	fputc('\n', ctx->out);
	for (size_t i = 0; i < n; i++)
		if (rows[i].status != ROW_IS_BASELINE)
			one_liner(ctx, &rows[i], md);
	fputc('\n', ctx->out);
	table_free(&t);
	free(rows);
}

/* Columns of the wide table: per variant its mean, then "x baseline", then "x <ratio_to>". */
static size_t wide_headers(struct report_ctx *ctx, char **heads)
{
	size_t n = 0, nv;
	int *order = variant_indexes_baseline_first(ctx->ds.nvariants, ctx->baseline, &nv);

	heads[n++] = xstrdup("metric");
	heads[n++] = xstrdup("unit");
	for (size_t i = 0; i < nv; i++) {
		heads[n++] = xstrdup(ctx->ds.variants[order[i]]);
		if (order[i] == ctx->baseline)
			continue;
		heads[n++] = xasprintf("x %s", ctx->ds.variants[ctx->baseline]);
		if (ctx->ratio_to >= 0 && order[i] != ctx->ratio_to)
			heads[n++] = xasprintf("x %s", ctx->ds.variants[ctx->ratio_to]);
	}
	free(order);
	return n;
}

static void wide_row(struct report_ctx *ctx, struct table *t, const struct ds_group *g,
		     long *nmin, long *nmax)
{
	struct group_row *rows = xcalloc(ctx->ds.nvariants + 1, sizeof(*rows)); /* 30,000 variants: not on the stack */
	size_t n = group_rows_opts(&ctx->ds, g, ctx->baseline, ctx->ratio_to, &ctx->rows, rows);
	char b[NUMFMT_SIZE];

	table_cell(t, "%s", g->metric);
	table_cell(t, "%s", g->unit);
	/* Walk the variants in header order; a variant missing here leaves blank cells. */
	for (int pass = 0; pass < (int)ctx->ds.nvariants; pass++) {
		int v = pass == 0 ? ctx->baseline : pass <= ctx->baseline ? pass - 1 : pass;
		const struct group_row *r = NULL;
		for (size_t i = 0; i < n; i++)
			if (rows[i].variant == v)
				r = &rows[i];
		if (r && r->s.n < *nmin)
			*nmin = r->s.n;
		if (r && r->s.n > *nmax)
			*nmax = r->s.n;
		table_cell(t, "%s", r ? fmt_value(b, r->s.mean) : "-");
		if (v == ctx->baseline)
			continue;
		table_cell(t, "%s", r ? fmt_ratio(b, r->c.ratio, 2) : "-");
		if (ctx->ratio_to >= 0 && v != ctx->ratio_to)
			table_cell(t, "%s", r ? fmt_ratio(b, r->ratio_to, 2) : "-");
	}
	free(rows);
}

static void wide_section(struct report_ctx *ctx, struct ds_group *const *gs, size_t n, bool md)
{
	char *heads[2 + 3 * ctx->ds.nvariants];
	size_t ncols = wide_headers(ctx, heads);
	char *place = report_place(ctx, gs[0]);
	long nmin = 1L << 40, nmax = 0;
	struct table t;

	table_init(&t, ncols, (const char *const *)heads);
	table_set_left(&t, 1);
	for (size_t i = 0; i < n; i++)
		wide_row(ctx, &t, gs[i], &nmin, &nmax);
	fprintf(ctx->out, "%s%s: per-test table (mean per variant; x = ratio of means)\n%s",
		md ? "### " : "== ", place, md ? "\n" : "");
	if (md)
		table_print_markdown(&t, ctx->out);
	else
		table_print_text(&t, ctx->out, "  ");
	if (nmin == nmax)
		fprintf(ctx->out, "%sn=%ld per cell\n\n", md ? "\n" : "  ", nmin);
	else
		fprintf(ctx->out, "%sn=%ld..%ld per cell\n\n", md ? "\n" : "  ", nmin, nmax);
	table_free(&t);
	for (size_t i = 0; i < ncols; i++)
		free(heads[i]);
	free(place);
}

void report_render_text(struct report_ctx *ctx, bool markdown)
{
	struct ds_group **picked = xcalloc(ctx->ds.ngroups, sizeof(*picked));

	report_text_header(ctx, markdown);
	for (size_t from = 0, to; from < ctx->ds.ngroups; from = to) {
		size_t n = 0;
		to = ds_section_end(&ctx->ds, from);
		for (size_t i = from; i < to; i++)
			if (report_wants(ctx, ctx->ds.groups[i]))
				picked[n++] = ctx->ds.groups[i];
		if (n && report_section_wide(ctx, picked, n))
			wide_section(ctx, picked, n, markdown);
		else
			for (size_t i = 0; i < n; i++)
				long_group(ctx, picked[i], markdown);
	}
	report_kernel_lines_text(ctx, markdown);
	report_profile_text(ctx, markdown);
	report_per_patch_text(ctx, markdown);
	free(picked);
}
