/* "Where the cost goes" in every report format: the --profile rows of analysis/
 * profile_view.h (per workload and variant against the baseline, the kernel functions
 * carrying the extra guest instructions, each with its share and a 95% CI over rounds).
 * Called by the renderers when the set has a profile (ctx->profile); internal to report/. */
#include "report/report_profile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/html.h"
#include "analysis/numfmt.h"
#include "analysis/profile_view.h"
#include "analysis/table.h"
#include "common/xalloc.h"
#include "report/wrap.h"

/* Functions shown per row in tables and charts, and in a mail's lines. */
#define TOP_TABLE 10
#define TOP_MAIL 4
#define MAIL_WIDTH 72

/* "12.3 M" instructions: counts are exact, millions read best. */
static const char *fmt_insns(char *buf, double v)
{
	if (!isfinite(v))
		return strcpy(buf, "-");
	if (fabs(v) >= 1e6)
		snprintf(buf, NUMFMT_SIZE, "%+.2f M", v / 1e6);
	else if (fabs(v) >= 1e3)
		snprintf(buf, NUMFMT_SIZE, "%+.1f k", v / 1e3);
	else
		snprintf(buf, NUMFMT_SIZE, "%+.0f", v);
	return buf;
}

static const char *fmt_share(char *buf, double v)
{
	if (!isfinite(v))
		return strcpy(buf, "-");
	snprintf(buf, NUMFMT_SIZE, "%.1f%%", v * 100);
	return buf;
}

static const char *fmt_halfwidth(char *buf, double v)
{
	if (!isfinite(v))
		return strcpy(buf, "-");
	if (fabs(v) >= 1e6)
		snprintf(buf, NUMFMT_SIZE, "+/-%.2f M", v / 1e6);
	else
		snprintf(buf, NUMFMT_SIZE, "+/-%.1f k", v / 1e3);
	return buf;
}

static bool row_wanted(const struct report_ctx *ctx, const struct pv_row *r)
{
	const struct report_opts *o = ctx->opts;
	return (!o->workload || !strcmp(o->workload, r->workload));
}

/* "hackbench wall (1 vCPU), init_on_free: +47.73 M instructions per repetition (+29.4%,
 * ±1.2 M, 2 rounds); checked: 8 sections within 0.009% of their samples". Caller frees. */
static char *row_summary(const struct pv_row *r, const char *baseline)
{
	char a[NUMFMT_SIZE], b[NUMFMT_SIZE], c[NUMFMT_SIZE];
	char *check = r->checked
		? xasprintf("%ld section%s within %.3f%% of %s sample%s", r->checked,
			    r->checked == 1 ? "" : "s", fabs(r->worst_pct),
			    r->checked == 1 ? "its" : "their", r->checked == 1 ? "" : "s")
		: xstrdup("no section could be checked against its sample");
	char *unchecked = r->unchecked ? xasprintf(", %ld not checkable", r->unchecked) : xstrdup("");
	char *s = xasprintf("%s %s (%d vCPU%s), %s against %s: %s instructions per repetition "
			    "(%s, 95%% CI %s, %d round%s); instructions + idle = time: %s%s",
			    r->workload, r->metric, r->cores, r->cores == 1 ? "" : "s", r->variant,
			    baseline, fmt_insns(a, r->delta),
			    fmt_cost(b, r->base_insns > 0 ? r->delta / r->base_insns * 100 : NAN),
			    fmt_halfwidth(c, r->delta_ci), r->rounds, r->rounds == 1 ? "" : "s",
			    check, unchecked);
	free(check);
	free(unchecked);
	return s;
}

static void fn_table(const struct pv_row *r, struct table *t)
{
	static const char *const headers[] = { "function", "extra insns/rep", "share", "95% CI",
					       "baseline", "variant" };
	double rest = r->delta;
	char a[NUMFMT_SIZE];

	table_init(t, 6, headers);
	for (size_t k = 0; k < r->nfn && k < TOP_TABLE; k++) {
		const struct pv_fn *f = &r->fn[k];
		table_cell(t, "%s", f->name);
		table_cell(t, "%s", fmt_insns(a, f->delta));
		table_cell(t, "%s", fmt_share(a, f->share));
		table_cell(t, "%s", fmt_halfwidth(a, f->ci));
		table_cell(t, "%.0f", f->base);
		table_cell(t, "%.0f", f->var);
		rest -= f->delta;
	}
	if (r->nfn > TOP_TABLE) {
		table_cell(t, "(%zu others)", r->nfn - TOP_TABLE);
		table_cell(t, "%s", fmt_insns(a, rest));
		table_cell(t, "%s", fmt_share(a, r->delta ? rest / r->delta : NAN));
		table_cell(t, "-");
		table_cell(t, "-");
		table_cell(t, "-");
	}
}

/* "rep string executions (one per element, a part of their function's count):
 * clear_page_erms stosb +268.50 M, ...": the bytes (or words) the variant's extra work
 * cleared or copied, NULL when none changed. Caller frees. */
static char *rep_note(const struct pv_row *r)
{
	char *list = NULL, a[NUMFMT_SIZE];

	for (size_t k = 0; k < r->nrep && k < 3 && r->rep[k].delta > 0; k++) {
		char *more = xasprintf("%s%s%s %s", list ? list : "", list ? ", " : "", r->rep[k].name,
				       fmt_insns(a, r->rep[k].delta));
		free(list);
		list = more;
	}
	if (!list)
		return NULL;
	char *s = xasprintf("rep string executions (one per element, a part of their function's "
			    "count): %s", list);
	free(list);
	return s;
}

static void idle_note(FILE *out, const struct pv_row *r, const char *indent)
{
	if (!isfinite(r->base_idle_ns) || !isfinite(r->var_idle_ns))
		return;
	fprintf(out, "%sidle (the clock's jumps while the guest halted, not instructions): "
		"%.2f ms per repetition in the baseline, %.2f ms in %s\n", indent,
		r->base_idle_ns / 1e6, r->var_idle_ns / 1e6, r->variant);
}

void report_profile_text(const struct report_ctx *ctx, bool markdown)
{
	const struct profile_view *pv = ctx->profile;

	if (!pv || !pv->n)
		return;
	fprintf(ctx->out, markdown ? "\n## Where the cost goes\n\n" : "\nWhere the cost goes\n\n");
	wrap_paragraph(ctx->out, "Guest instructions per repetition of each timed section "
		       "(--profile; exact under TCG), per kernel function, variant minus baseline "
		       "in the same round; the share is of the total extra instructions, the "
		       "interval a 95% t interval over rounds.", "", "", markdown ? 1000 : 100);
	for (size_t i = 0; i < pv->n; i++) {
		const struct pv_row *r = &pv->rows[i];
		struct table t;
		char *s;
		if (!row_wanted(ctx, r))
			continue;
		s = row_summary(r, pv->baseline);
		fputc('\n', ctx->out);
		if (markdown)
			fprintf(ctx->out, "%s\n\n", s);
		else
			wrap_paragraph(ctx->out, s, "", "  ", 100);
		free(s);
		fn_table(r, &t);
		if (markdown)
			table_print_markdown(&t, ctx->out);
		else
			table_print_text(&t, ctx->out, "  ");
		table_free(&t);
		if (markdown)
			fputc('\n', ctx->out);
		char *rn = rep_note(r);
		if (rn)
			wrap_paragraph(ctx->out, rn, markdown ? "" : "  ", markdown ? "" : "    ",
				       markdown ? 1000 : 100);
		free(rn);
		idle_note(ctx->out, r, markdown ? "" : "  ");
	}
}

static json_object *num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

json_object *report_profile_json(const struct report_ctx *ctx)
{
	const struct profile_view *pv = ctx->profile;
	json_object *rows;

	if (!pv || !pv->n)
		return NULL;
	rows = json_object_new_array();
	for (size_t i = 0; i < pv->n; i++) {
		const struct pv_row *r = &pv->rows[i];
		json_object *o = json_object_new_object(), *fns = json_object_new_array();
		if (!row_wanted(ctx, r)) {
			json_object_put(o);
			json_object_put(fns);
			continue;
		}
		json_object_object_add(o, "kernel_line", json_object_new_string(r->line));
		json_object_object_add(o, "workload", json_object_new_string(r->workload));
		json_object_object_add(o, "metric", json_object_new_string(r->metric));
		json_object_object_add(o, "marker", json_object_new_int(r->marker));
		json_object_object_add(o, "cores", json_object_new_int(r->cores));
		json_object_object_add(o, "variant", json_object_new_string(r->variant));
		json_object_object_add(o, "baseline", json_object_new_string(pv->baseline));
		json_object_object_add(o, "rounds", json_object_new_int(r->rounds));
		json_object_object_add(o, "baseline_insns", num(r->base_insns));
		json_object_object_add(o, "variant_insns", num(r->var_insns));
		json_object_object_add(o, "delta_insns", num(r->delta));
		json_object_object_add(o, "delta_ci95", num(r->delta_ci));
		json_object_object_add(o, "baseline_idle_ns", num(r->base_idle_ns));
		json_object_object_add(o, "variant_idle_ns", num(r->var_idle_ns));
		json_object_object_add(o, "sections_checked", json_object_new_int64(r->checked));
		json_object_object_add(o, "sections_not_checkable", json_object_new_int64(r->unchecked));
		json_object_object_add(o, "worst_check_pct", r->checked ? num(r->worst_pct) : NULL);
		for (size_t k = 0; k < r->nfn; k++) {
			const struct pv_fn *f = &r->fn[k];
			json_object *e = json_object_new_object();
			json_object_object_add(e, "function", json_object_new_string(f->name));
			json_object_object_add(e, "delta_insns", num(f->delta));
			json_object_object_add(e, "ci95", num(f->ci));
			json_object_object_add(e, "share", num(f->share));
			json_object_object_add(e, "baseline_insns", num(f->base));
			json_object_object_add(e, "variant_insns", num(f->var));
			json_object_array_add(fns, e);
		}
		json_object_object_add(o, "functions", fns);
		json_object *reps = json_object_new_array();
		for (size_t k = 0; k < r->nrep; k++) {
			json_object *e = json_object_new_object();
			json_object_object_add(e, "site", json_object_new_string(r->rep[k].name));
			json_object_object_add(e, "delta_executions", num(r->rep[k].delta));
			json_object_object_add(e, "ci95", num(r->rep[k].ci));
			json_object_object_add(e, "baseline_executions", num(r->rep[k].base));
			json_object_object_add(e, "variant_executions", num(r->rep[k].var));
			json_object_array_add(reps, e);
		}
		json_object_object_add(o, "rep_strings", reps);
		json_object_array_add(rows, o);
	}
	return rows;
}

/* A horizontal bar per top contributor, its share of the extra instructions: inline SVG,
 * so the page stays one self-contained file. */
static void share_chart(FILE *out, const struct pv_row *r)
{
	size_t n = 0;
	double max = 0;
	const int bar_h = 18, label_w = 260, plot_w = 360;

	for (size_t k = 0; k < r->nfn && k < TOP_TABLE; k++, n++)
		if (isfinite(r->fn[k].share) && fabs(r->fn[k].share) > max)
			max = fabs(r->fn[k].share);
	if (!n || max <= 0)
		return;
	fprintf(out, "<svg class=\"profile-chart\" role=\"img\" width=\"%d\" height=\"%zu\" "
		"viewBox=\"0 0 %d %zu\" xmlns=\"http://www.w3.org/2000/svg\">\n<title>", label_w + plot_w + 70,
		n * bar_h + 4, label_w + plot_w + 70, n * bar_h + 4);
	html_text(out, r->variant);
	fprintf(out, ": shares of the extra instructions</title>\n");
	for (size_t k = 0; k < n; k++) {
		const struct pv_fn *f = &r->fn[k];
		double s = isfinite(f->share) ? f->share : 0;
		double w = fabs(s) / max * plot_w;
		int y = (int)k * bar_h + 2;
		fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-size=\"12\">", label_w - 6,
			y + 13);
		html_text(out, f->name);
		fprintf(out, "</text><rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>"
			"<text x=\"%.1f\" y=\"%d\" font-size=\"12\">%.1f%%</text>\n", label_w, y, w,
			bar_h - 4, s >= 0 ? "#c0504d" : "#4f81bd", label_w + w + 4, y + 13, s * 100);
	}
	fprintf(out, "</svg>\n");
}

static void html_row_table(FILE *out, const struct pv_row *r)
{
	struct table t;

	fn_table(r, &t);
	html_table(out, &t, "profile");
	table_free(&t);
}

void report_profile_html(const struct report_ctx *ctx)
{
	const struct profile_view *pv = ctx->profile;
	FILE *out = ctx->out;

	if (!pv || !pv->n)
		return;
	fprintf(out, "<section id=\"profile\">\n<h2>Where the cost goes</h2>\n<p>Guest "
		"instructions per repetition of each timed section (<code>--profile</code>; exact "
		"under TCG), per kernel function, variant minus baseline in the same round; the "
		"share is of the total extra instructions, the interval a 95%% t interval over "
		"rounds.</p>\n");
	for (size_t i = 0; i < pv->n; i++) {
		const struct pv_row *r = &pv->rows[i];
		char *s;
		if (!row_wanted(ctx, r))
			continue;
		s = row_summary(r, pv->baseline);
		fprintf(out, "<h3>");
		html_text(out, r->workload);
		fprintf(out, ", ");
		html_text(out, r->variant);
		fprintf(out, "</h3>\n<p>");
		html_text(out, s);
		fprintf(out, "</p>\n");
		free(s);
		share_chart(out, r);
		html_row_table(out, r);
		char *rn = rep_note(r);
		if (rn) {
			fprintf(out, "<p>");
			html_text(out, rn);
			fprintf(out, "</p>\n");
		}
		free(rn);
		if (isfinite(r->base_idle_ns) && isfinite(r->var_idle_ns))
			fprintf(out, "<p>Idle (the clock's jumps while the guest halted, not "
				"instructions): %.2f ms per repetition in the baseline, %.2f ms in the "
				"variant.</p>\n", r->base_idle_ns / 1e6, r->var_idle_ns / 1e6);
	}
	fprintf(out, "</section>\n");
}

void report_profile_compare(char *const *dirs, char *const *names, size_t n,
			    const struct report_opts *opts, const char *baseline, FILE *out)
{
	bool md = opts->format == REPORT_MARKDOWN;

	if (opts->format != REPORT_TEXT && !md)
		return;
	for (size_t k = 0; k < n; k++) {
		struct profile_view pv;
		struct report_ctx ctx = { .opts = opts, .dir = dirs[k], .out = out };
		if (profile_view_load(dirs[k], baseline, &pv) > 0 && pv.n) {
			ctx.profile = &pv;
			fprintf(out, md ? "\n# Run %s\n" : "\nRun %s:\n", names[k]);
			report_profile_text(&ctx, md);
		}
		profile_view_free(&pv);
	}
}

void report_profile_mail(const struct report_ctx *ctx, const char *line, const char *workload,
			 int cores, const char *variant, const char *metric)
{
	const struct pv_row *r = profile_view_find(ctx->profile, line, workload, cores, variant, metric);
	char a[NUMFMT_SIZE], b[NUMFMT_SIZE], c[NUMFMT_SIZE];
	size_t shown = 0;

	if (!r || !r->nfn || !isfinite(r->delta) || r->delta == 0)
		return;
	char *head = xasprintf("where the cost goes (%s, guest instructions): %s per repetition",
			       r->metric, fmt_insns(a, r->delta));
	wrap_paragraph(ctx->out, head, "    ", "      ", MAIL_WIDTH);
	free(head);
	for (size_t k = 0; k < r->nfn && shown < TOP_MAIL; k++) {
		const struct pv_fn *f = &r->fn[k];
		char *l;
		if (f->delta <= 0)
			break;
		if (isfinite(f->ci)) /* one round has no interval: none said */
			l = xasprintf("%s %s (%s, 95%% CI %s)", f->name, fmt_share(a, f->share),
				      fmt_insns(b, f->delta), fmt_halfwidth(c, f->ci));
		else
			l = xasprintf("%s %s (%s)", f->name, fmt_share(a, f->share), fmt_insns(b, f->delta));
		wrap_paragraph(ctx->out, l, "      ", "        ", MAIL_WIDTH);
		free(l);
		shown++;
	}
}
