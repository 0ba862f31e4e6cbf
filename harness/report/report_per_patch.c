/* The step-by-step section of every report format (report_per_patch.h). The estimates
 * are analysis/per_patch.h's; this file only lays them out. */
#include "report/report_per_patch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/html.h"
#include "analysis/numfmt.h"
#include "analysis/per_patch.h"
#include "analysis/table.h"
#include "common/xalloc.h"
#include "report/render.h"
#include "report/report_html.h"
#include "report/report_primary.h"
#include "report/wrap.h"
#include "results/jsonfmt.h"

/* A subject in a table cell: whole up to this many characters. */
enum { SUBJECT_CELL = 40 };

struct walk {
	struct report_ctx *ctx;
	bool primary_only;  /* the workload's primary metric alone (mail, the page's open part) */
	bool others_only;   /* every metric but the primary (the page's disclosure) */
	bool md;            /* text: markdown */
	size_t shown;
};

typedef void (*place_fn)(struct walk *w, const struct pp_series *s, const struct pp_place *p,
			 void *arg);

/* Is g's metric its workload's primary one (every metric is, for a workload the harness
 * does not know)? */
static bool is_primary(const struct ds_group *g)
{
	char *primary = report_primary_metric(g->workload);
	bool yes = !primary || !strcmp(primary, g->metric);

	free(primary);
	return yes;
}

/* Calls fn for every selected place of every series, series by series; before_series
 * (may be NULL) first for each series that has one. */
static void each_place(struct walk *w, void (*before_series)(struct walk *, const struct pp_series *),
		       place_fn fn, void *arg)
{
	size_t ns, np;
	struct pp_series *series = pp_series_read(w->ctx->meta, &ns);

	for (size_t i = 0; i < ns; i++) {
		struct pp_place *places = pp_places(&w->ctx->ds, &series[i], &np);
		bool first = true;
		for (size_t j = 0; j < np; j++) {
			const struct ds_group *g = places[j].g;
			if (!report_wants(w->ctx, g) || (w->primary_only && !is_primary(g)) ||
			    (w->others_only && is_primary(g)))
				continue;
			if (first && before_series)
				before_series(w, &series[i]);
			first = false;
			fn(w, &series[i], &places[j], arg);
			w->shown++;
		}
		pp_places_free(places, np);
	}
	pp_series_free(series, ns);
}

static void count_place(struct walk *w, const struct pp_series *s, const struct pp_place *p, void *arg)
{
	(void)w, (void)s, (void)p, (void)arg;
}

bool report_per_patch_any(const struct report_ctx *ctx)
{
	struct walk w = { .ctx = (struct report_ctx *)ctx };

	each_place(&w, NULL, count_place, NULL);
	return w.shown > 0;
}

static const struct pp_step *step_of(const struct pp_series *s, size_t k)
{
	return k ? &s->steps[k - 1] : &s->base;
}

/* "variant baseline" or the kernel line, whichever the steps are. */
static const char *where(const struct pp_series *s, size_t k)
{
	return s->commits ? step_of(s, k)->line : step_of(s, k)->variant;
}

/* "hackbench time [s], cores=1, clock=icount" (", variant baseline" for commit steps; the
 * line for patch steps when the report names lines). Caller frees. */
static char *place_text(const struct report_ctx *ctx, const struct pp_series *s, const struct pp_place *p)
{
	const struct ds_group *g = p->g;
	char *unit = *g->unit ? xasprintf(" [%s]", g->unit) : xstrdup("");
	char *cores = g->cores >= 0 ? xasprintf(", cores=%d", g->cores) : xstrdup("");
	char *clock = report_show_clock(ctx, g) ? xasprintf(", clock=%s", g->clock) : xstrdup("");
	char *tail = s->commits ? xasprintf(", variant %s", ctx->ds.variants[p->variant])
		     : report_show_line(ctx, g) ? xasprintf(", kernel=%s", g->line) : xstrdup("");
	char *text = xasprintf("%s %s%s%s%s%s", g->workload, g->metric, unit, cores, clock, tail);

	free(unit);
	free(cores);
	free(clock);
	free(tail);
	return text;
}

/* The patch's subject, or "1a2b3c4 subject" of a commit; step 0: "(step 0)" or its commit. */
static char *subject_text(const struct pp_series *s, size_t k, size_t limit)
{
	const struct pp_step *st = step_of(s, k);
	char *text = st->commit ? xasprintf("%.7s %s", st->commit, k ? st->subject : "(where the range starts)")
		     : xstrdup(k ? st->subject : "(before the series)");

	if (limit && strlen(text) > limit)
		strcpy(text + limit - 3, "...");
	return text;
}

/* The verdict of a step's own cost in words. */
static const char *verdict(const struct group_row *r, bool measured)
{
	if (!measured)
		return "not measured";
	if (r->status == ROW_NO_BASELINE)
		return "step before not measured";
	if (pp_same_every_round(r))
		return "the same each round";
	return report_verdict(r);
}

static void cost_cells(struct table *t, const struct group_row *r)
{
	char b[NUMFMT_SIZE];
	bool ok = r->status == ROW_OK;

	table_cell(t, "%s", ok ? fmt_pct(b, r->head.slowdown_pct) : "-");
	table_cell(t, "%s", ok ? fmt_ci(b, r->head.ci95_low_pct, r->head.ci95_high_pct) : "-");
}

/* The table of one place: step 0, then each step. */
static void place_table(struct walk *w, const struct pp_series *s, const struct pp_place *p, size_t limit,
			struct table *t)
{
	const char *heads[] = { "step", s->commits ? "commit" : "patch",
				s->commits ? "kernel line" : "variant", "n", "mean", "own cost", "95% CI",
				"in all", "95% CI", "est", "verdict" };
	char b[NUMFMT_SIZE];
	struct summary sum;

	table_init(t, sizeof(heads) / sizeof(heads[0]), heads);
	table_set_left(t, 1);
	table_set_left(t, 2);
	table_set_left(t, 9);
	table_set_left(t, 10);
	for (size_t k = 0; k <= s->n; k++) {
		struct pp_estimate e;
		char *subject = subject_text(s, k, limit);
		if (k)
			pp_estimate(p, k, &w->ctx->rows, &e);
		table_cell(t, k ? "%zu/%zu" : "%zu", k, s->n);
		table_cell(t, "%s", subject);
		table_cell(t, "%s", where(s, k));
		if (p->cells[k]) {
			summary_from_welford(&p->cells[k]->w, &sum);
			table_cell(t, "%ld", sum.n);
			table_cell(t, "%s", fmt_value(b, sum.mean));
		} else {
			table_cell(t, "-");
			table_cell(t, "-");
		}
		if (k) {
			cost_cells(t, &e.own);
			cost_cells(t, &e.all);
			table_cell(t, e.own.status != ROW_OK ? "-" : e.own.paired ? "paired %ld" : "Welch",
				   e.own.pe.n_pairs);
			table_cell(t, "%s", verdict(&e.own, e.measured));
		} else {
			for (int i = 0; i < 6; i++)
				table_cell(t, "-");
		}
		free(subject);
	}
}

static void series_intro_text(struct walk *w, const struct pp_series *s)
{
	fprintf(w->ctx->out, "%s%s, %s by %s: own cost = each step against the step before it, "
		"in all = against step 0 (%s)\n%s", w->md ? "### " : "== ", s->name,
		s->commits ? "commit" : "patch", s->commits ? "commit" : "patch", where(s, 0),
		w->md ? "\n" : "");
}

static void text_place(struct walk *w, const struct pp_series *s, const struct pp_place *p, void *arg)
{
	char *place = place_text(w->ctx, s, p);
	struct table t;

	(void)arg;
	fprintf(w->ctx->out, "%s%s, %s is better\n%s", w->md ? "#### " : "  ", place,
		p->g->lower_is_better ? "lower" : "higher", w->md ? "\n" : "");
	place_table(w, s, p, SUBJECT_CELL, &t);
	if (w->md)
		table_print_markdown(&t, w->ctx->out);
	else
		table_print_text(&t, w->ctx->out, "    ");
	fputc('\n', w->ctx->out);
	table_free(&t);
	free(place);
}

void report_per_patch_text(struct report_ctx *ctx, bool markdown)
{
	struct walk w = { .ctx = ctx, .md = markdown };

	each_place(&w, series_intro_text, text_place, NULL);
}

/* JSON */

static void add(json_object *o, const char *key, json_object *v)
{
	json_object_object_add(o, key, v);
}

static void json_estimate(json_object *o, const char *prefix, const struct group_row *r, bool full)
{
	bool ok = r->status == ROW_OK;
	char *k1 = xasprintf("%s_pct", prefix), *k2 = xasprintf("%sci95_low_pct", full ? "" : "cumulative_");
	char *k3 = xasprintf("%sci95_high_pct", full ? "" : "cumulative_");

	add(o, k1, hb_json_double(ok ? r->head.slowdown_pct : NAN));
	add(o, k2, hb_json_double(ok ? r->head.ci95_low_pct : NAN));
	add(o, k3, hb_json_double(ok ? r->head.ci95_high_pct : NAN));
	if (full) {
		add(o, "p_value", hb_json_double(ok ? r->head.p_value : NAN));
		add(o, "mde_pct", hb_json_double(ok ? r->head.mde_pct : NAN));
		add(o, "paired", json_object_new_boolean(ok && r->paired));
		add(o, "n_pairs", json_object_new_int64(ok ? r->pe.n_pairs : 0));
		add(o, "same_every_round", json_object_new_boolean(pp_same_every_round(r)));
	}
	free(k1);
	free(k2);
	free(k3);
}

static void json_place(struct walk *w, const struct pp_series *s, const struct pp_place *p, void *arg)
{
	const struct ds_group *g = p->g;
	struct summary sum;

	for (size_t k = 1; k <= s->n; k++) {
		const struct pp_step *st = step_of(s, k);
		json_object *o = json_object_new_object();
		struct pp_estimate e;
		pp_estimate(p, k, &w->ctx->rows, &e);
		add(o, "series", json_object_new_string(s->name));
		add(o, "kind", json_object_new_string(s->commits ? "commit" : "patch"));
		add(o, "step", json_object_new_int(st->step));
		add(o, "of", json_object_new_int(st->of));
		add(o, "subject", json_object_new_string(st->subject));
		if (st->commit)
			add(o, "commit", json_object_new_string(st->commit));
		add(o, "variant", json_object_new_string(s->commits ? w->ctx->ds.variants[p->variant] : st->variant));
		add(o, "kernel_line", json_object_new_string(s->commits ? st->line : g->line));
		add(o, "against", json_object_new_string(where(s, k - 1)));
		add(o, "workload", json_object_new_string(g->workload));
		add(o, "metric", json_object_new_string(g->metric));
		add(o, "unit", json_object_new_string(g->unit));
		add(o, "cores", hb_json_count(g->cores));
		add(o, "clock", json_object_new_string(g->clock));
		add(o, "lower_is_better", json_object_new_boolean(g->lower_is_better));
		if (p->cells[k])
			summary_from_welford(&p->cells[k]->w, &sum);
		add(o, "n", json_object_new_int64(p->cells[k] ? sum.n : 0));
		add(o, "mean", hb_json_double(p->cells[k] ? sum.mean : NAN));
		json_estimate(o, "cost", &e.own, true);
		json_estimate(o, "cumulative", &e.all, false);
		if (e.own.status != ROW_OK)
			add(o, "error", json_object_new_string(verdict(&e.own, e.measured)));
		json_object_array_add(arg, o);
	}
}

json_object *report_per_patch_json(struct report_ctx *ctx)
{
	struct walk w = { .ctx = ctx };
	json_object *list = json_object_new_array();

	each_place(&w, NULL, json_place, list);
	if (w.shown)
		return list;
	json_object_put(list);
	return NULL;
}

/* HTML */

static void html_place(struct walk *w, const struct pp_series *s, const struct pp_place *p, void *arg)
{
	char *place = place_text(w->ctx, s, p);
	struct table t;

	(void)arg;
	fputs("<h3>", w->ctx->out);
	html_textf(w->ctx->out, "%s: %s, %s is better", s->name, place,
		   p->g->lower_is_better ? "lower" : "higher");
	fputs("</h3>\n", w->ctx->out);
	place_table(w, s, p, 0, &t);
	html_table(w->ctx->out, &t, "stats per-patch");
	table_free(&t);
	free(place);
}

void report_per_patch_html(struct report_ctx *ctx)
{
	struct walk primary = { .ctx = ctx, .primary_only = true };
	struct walk others = { .ctx = ctx, .others_only = true };

	if (!report_per_patch_any(ctx))
		return;
	fputs("<section id=\"per-patch\"><h2>Patch by patch</h2>\n<p>Each step of a series measured "
	      "step by step (<code>--per-patch</code>, <code>--kernels PATH@A..B</code>): its own cost "
	      "against the step before it and its cost in all against step 0, each with its 95% CI "
	      "(paired by round where both have two rounds or more), positive is worse.</p>\n", ctx->out);
	each_place(&primary, NULL, html_place, NULL);
	struct walk count = { .ctx = ctx, .others_only = true };
	each_place(&count, NULL, count_place, NULL);
	if (count.shown) {
		fputs("<details><summary>The other metrics, step by step</summary>\n", ctx->out);
		each_place(&others, NULL, html_place, NULL);
		fputs("</details>\n", ctx->out);
	}
	fputs("</section>\n", ctx->out);
}

/* Mail */

/* "+4.10% time [+2.90%, +5.30%]", "time within noise [-0.80%, +0.70%] (MDE 1.10%)", "time
 * the same in all 3 rounds"; metric NULL: without it (the cost in all). Caller frees. */
static char *phrase(const struct group_row *r, const char *metric)
{
	char a[NUMFMT_SIZE], b[NUMFMT_SIZE], c[NUMFMT_SIZE];
	const char *m = metric ? metric : "", *sp = metric ? " " : "";
	const struct row_estimate *e = &r->head;

	if (r->status != ROW_OK)
		return xasprintf("%s%snot measured", m, sp);
	if (pp_same_every_round(r))
		return metric ? xasprintf("%s the same in all %ld rounds", metric, r->pe.n_pairs)
			      : xstrdup("no change");
	if (!isfinite(e->ci95_low_pct))
		return xasprintf("%s%s%s (no interval)", fmt_pct(a, e->slowdown_pct), sp, m);
	if (e->ci95_low_pct <= 0 && e->ci95_high_pct >= 0)
		return xasprintf("%s%swithin noise %s (MDE %s)", m, sp, fmt_ci(b, e->ci95_low_pct, e->ci95_high_pct),
				 fmt_pct_plain(c, e->mde_pct));
	return xasprintf("%s%s%s %s", fmt_pct(a, e->slowdown_pct), sp, m, fmt_ci(b, e->ci95_low_pct, e->ci95_high_pct));
}

static void mail_place(struct walk *w, const struct pp_series *s, const struct pp_place *p, void *arg)
{
	char *place = place_text(w->ctx, s, p), *head;

	(void)arg;
	head = xasprintf("%s, %s by %s, %s (own cost against the step before it; in all against %s):",
			 s->name, s->commits ? "commit" : "patch", s->commits ? "commit" : "patch", place,
			 where(s, 0));
	fputc('\n', w->ctx->out);
	wrap_paragraph(w->ctx->out, head, "", "", MAIL_WIDTH);
	for (size_t k = 1; k <= s->n; k++) {
		const struct pp_step *st = step_of(s, k);
		struct pp_estimate e;
		char *own, *all, *line;
		pp_estimate(p, k, &w->ctx->rows, &e);
		own = phrase(&e.own, p->g->metric);
		all = phrase(&e.all, NULL);
		if (st->commit)
			line = xasprintf("commit %d/%d %.12s '%s': %s; in all %s", st->step, st->of, st->commit,
					 st->subject, own, all);
		else
			line = xasprintf("patch %d/%d '%s': %s; in all %s", st->step, st->of, st->subject, own, all);
		wrap_paragraph(w->ctx->out, line, "  ", "    ", MAIL_WIDTH);
		free(line);
		free(own);
		free(all);
	}
	free(head);
	free(place);
}

void report_per_patch_mail(struct report_ctx *ctx)
{
	struct walk w = { .ctx = ctx, .primary_only = true };

	each_place(&w, NULL, mail_place, NULL);
}
