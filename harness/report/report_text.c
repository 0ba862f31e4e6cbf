/* Text and markdown reports: a header from meta.json, then per section (workload and
 * cores) either one long table per metric followed by the list mails' one-liners, or
 * one wide per-test table. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/numfmt.h"
#include "common/xalloc.h"
#include "report/render.h"
#include "report/report_ctx.h"
#include "report/table.h"
#include "results/store.h"

static json_object *meta_get(const struct report_ctx *ctx, const char *key)
{
	json_object *v = NULL;
	return ctx->meta && json_object_object_get_ex(ctx->meta, key, &v) ? v : NULL;
}

static void line(const struct report_ctx *ctx, bool md, const char *fmt, const char *arg)
{
	fputs(md ? "- " : "", ctx->out);
	fprintf(ctx->out, fmt, arg);
	fputc('\n', ctx->out);
}

/* meta.json keys read here: see results/store.h (RS_META_*). */
static void header(const struct report_ctx *ctx, bool md)
{
	json_object *accel = meta_get(ctx, RS_META_ACCEL), *why = meta_get(ctx, RS_META_ACCEL_REASON);
	json_object *imported = meta_get(ctx, RS_META_IMPORTED);

	fprintf(ctx->out, md ? "## hardbench report: %s\n\n" : "hardbench report: %s\n", ctx->dir);
	fprintf(ctx->out, "%s%ld samples", md ? "- " : "", ctx->ds.samples);
	if (ctx->ds.skipped)
		fprintf(ctx->out, ", %ld corrupt lines skipped", ctx->ds.skipped);
	fprintf(ctx->out, "; baseline: %s\n", ctx->ds.variants[ctx->baseline]);
	if (imported)
		line(ctx, md, "imported from %s", json_object_get_string(imported));
	if (accel) {
		char *text = xasprintf("%s%s%s%s", json_object_get_string(accel), why ? " (" : "",
				       why ? json_object_get_string(why) : "", why ? ")" : "");
		line(ctx, md, "accel: %s", text);
		free(text);
		if (!strcmp(json_object_get_string(accel), "tcg"))
			line(ctx, md, "%s", "WARNING: guests ran under TCG (emulated CPU): absolute times "
			     "are emulated; only ratios between variants mean anything");
	}
	if (json_object_get_boolean(meta_get(ctx, RS_META_OVERCOMMIT)))
		line(ctx, md, "%s", "NOTE: guests had more vCPUs than free host cores (overcommit): "
		     "expect more noise");
	fputc('\n', ctx->out);
}

static void group_heading(const struct report_ctx *ctx, const struct ds_group *g, bool md)
{
	fprintf(ctx->out, "%s%s: %s", md ? "### " : "== ", g->workload, g->metric);
	if (*g->unit)
		fprintf(ctx->out, " [%s]", g->unit);
	if (g->cores >= 0)
		fprintf(ctx->out, ", cores=%d", g->cores);
	fprintf(ctx->out, ", %s is better\n%s", g->lower_is_better ? "lower" : "higher", md ? "\n" : "");
}

static void slowdown_cell(struct table *t, const struct group_row *r)
{
	char a[NUMFMT_SIZE], b[NUMFMT_SIZE];

	if (r->status == ROW_IS_BASELINE)
		table_cell(t, "baseline");
	else if (r->status != ROW_OK)
		table_cell(t, "-");
	else if (isfinite(r->c.slowdown_se_pct))
		table_cell(t, "%s (%s)", fmt_pct(a, r->c.slowdown_pct), fmt_pct_plain(b, r->c.slowdown_se_pct));
	else
		table_cell(t, "%s", fmt_pct(a, r->c.slowdown_pct));
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
	table_cell(t, "%s", fmt_p(b, r->c.p_value));
	if (ctx->ratio_to >= 0)
		table_cell(t, "%s", fmt_ratio(b, r->ratio_to, 4));
}

/* The list mails' form: "hackbench, init_on_free: +7.71% sys (st.err 0.45%)". */
static void one_liner(struct report_ctx *ctx, const struct group_row *r, bool md)
{
	char *place = report_place(r->g);
	char a[NUMFMT_SIZE], b[NUMFMT_SIZE];
	const char *problem = group_row_problem(r);

	fprintf(ctx->out, "%s%s, %s: ", md ? "- " : "", place, ctx->ds.variants[r->variant]);
	if (problem)
		fprintf(ctx->out, "%s\n", problem);
	else if (isfinite(r->c.slowdown_se_pct))
		fprintf(ctx->out, "%s %s (st.err %s)\n", fmt_pct(a, r->c.slowdown_pct), r->g->metric,
			fmt_pct_plain(b, r->c.slowdown_se_pct));
	else
		fprintf(ctx->out, "%s %s (n=%ld, no st.err)\n", fmt_pct(a, r->c.slowdown_pct),
			r->g->metric, r->s.n);
	free(place);
}

static void long_group(struct report_ctx *ctx, const struct ds_group *g, bool md)
{
	static const char *const headers[] = { "variant", "n", "mean", "stddev", "stddev_pop",
		"st.err", "min", "max", "cv", "ratio", "slowdown (st.err)", "p", NULL };
	struct group_row *rows = xcalloc(ctx->ds.nvariants, sizeof(*rows));
	size_t n = group_rows(&ctx->ds, g, ctx->baseline, ctx->ratio_to, rows);
	size_t ncols = 12 + (ctx->ratio_to >= 0);
	char *ratio_head = xasprintf("x %s", ctx->ratio_to >= 0 ? ctx->ds.variants[ctx->ratio_to] : "");
	const char *heads[13];
	struct table t;

	memcpy(heads, headers, 12 * sizeof(*heads));
	heads[12] = ratio_head;
	group_heading(ctx, g, md);
	table_init(&t, ncols, heads);
	for (size_t i = 0; i < n; i++)
		long_row(ctx, &t, &rows[i]);
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
	free(ratio_head);
	free(rows);
}

/* Columns of the wide table: per variant its mean, then "x baseline", then "x <ratio_to>". */
static size_t wide_headers(struct report_ctx *ctx, char **heads)
{
	size_t n = 0;
	int order[ctx->ds.nvariants];
	size_t nv = 0;

	order[nv++] = ctx->baseline;
	for (size_t v = 0; v < ctx->ds.nvariants; v++)
		if ((int)v != ctx->baseline)
			order[nv++] = (int)v;
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
	return n;
}

static void wide_row(struct report_ctx *ctx, struct table *t, const struct ds_group *g,
		     long *nmin, long *nmax)
{
	struct group_row rows[ctx->ds.nvariants];
	size_t n = group_rows(&ctx->ds, g, ctx->baseline, ctx->ratio_to, rows);
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
}

static void wide_section(struct report_ctx *ctx, struct ds_group *const *gs, size_t n, bool md)
{
	char *heads[2 + 3 * ctx->ds.nvariants];
	size_t ncols = wide_headers(ctx, heads);
	char *place = report_place(gs[0]);
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

	header(ctx, markdown);
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
	free(picked);
}
