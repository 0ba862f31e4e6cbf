/* --against-seeds as text or markdown: per published source (seed, workload, conditions)
 * its conditions and the measured ones, then one row per figure: published vs measured
 * and how they agree. (A source with nothing measured for one reason: seeds_oneline.c; one
 * whose seed printed both arms and their difference, in that shape: seeds_arms.c.) */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "analysis/numfmt.h"
#include "analysis/profile_view.h"
#include "common/kernel_line.h"
#include "common/xalloc.h"
#include "seeds/render.h"
#include "seeds/seeds_report.h"
#include "seeds/seeds_tally.h"
#include "analysis/table.h"
#include "results/store.h"

/* Quotes longer than this are cut in the "source" column (published.json has them whole). */
#define QUOTE_WIDTH 48

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* a and b come from the same published source: one section. */
static bool same_source(const struct seed_match *a, const struct seed_match *b)
{
	const struct seed_figure *x = a->f, *y = b->f;
	return !strcmp(x->workload, y->workload) && same_str(x->section, y->section) &&
	       !strcmp(a->line, b->line) && !strcmp(x->seed, y->seed) && !strcmp(x->cond.machine, y->cond.machine) &&
	       !strcmp(x->cond.kernel, y->cond.kernel) && !strcmp(x->cond.text, y->cond.text);
}

static void bullet(FILE *out, bool md, const char *first, const char *second)
{
	fprintf(out, "%s%s%s\n", md ? "- " : "", first, second);
}

/* "; 38 where no effect is expected: 28 with a 95% CI that includes none; their CIs reach
 * a median 0.62% from none (widest 33.02%)": how finely "none" was resolved. */
static void none_expected_summary(FILE *out, struct seeds_tally *t)
{
	size_t n = t->none_expected;

	if (!n)
		return;
	gsl_sort(t->none_reach_pct, 1, n);
	fprintf(out, "; %zu where no effect is expected: %zu with a 95%% CI that includes none; ", n,
		t->none_included);
	if (n == 1)
		fprintf(out, "its CI reaches %.2f%% from none", t->none_reach_pct[0]);
	else
		fprintf(out, "their CIs reach a median %.2f%% from none (widest %.2f%%)",
			gsl_stats_median_from_sorted_data(t->none_reach_pct, 1, n), t->none_reach_pct[n - 1]);
}

/* One line over every compared row: how many agree, how many of those whose published
 * effect is at least 2% have an interval that excludes no effect, and how the rows where
 * none is expected came out. */
static void summary(struct seeds_report *sr, bool md)
{
	struct seeds_tally t;
	FILE *out = sr->ctx->out;

	seeds_tally_run(sr, &t);
	fprintf(out, "%ssummary: %zu row%s compared: %zu agree%s in sign (or both within noise), "
		"%zu also in order of magnitude, %zu within 2x; %zu of the %zu with a published effect "
		"of at least 2%% ha%s a 95%% CI that excludes no effect", md ? "- " : "", t.compared,
		t.compared == 1 ? "" : "s", t.same, t.same == 1 ? "s" : "", t.order, t.within,
		t.resolved, t.big, t.resolved == 1 ? "s" : "ve");
	if (t.unjudged)
		fprintf(out, "; %zu with n=1 on a side: no judgement", t.unjudged);
	if (t.big > t.resolved)
		fprintf(out, " (of the other %zu, %zu exclude%s the published effect too: smaller here "
			"than published; %zu %s too wide to tell)", t.big - t.resolved, t.smaller,
			t.smaller == 1 ? "s" : "", t.too_wide, t.too_wide == 1 ? "is" : "are");
	none_expected_summary(out, &t);
	fputc('\n', out);
	seeds_tally_free(&t);
}

/* "3 of 4", or "-" when there is nothing to count. */
static void of_cell(struct table *tb, size_t part, size_t whole)
{
	if (whole)
		table_cell(tb, "%zu of %zu", part, whole);
	else
		table_cell(tb, "-");
}

/* The summary per seed and workload, when the run compared more than one: where the rows
 * that agree, and those that resolve, are. */
static void by_seed(struct seeds_report *sr, bool md)
{
	static const char *const heads[] = { "seed", "workload", "rows", "same sign", "same order",
		"within 2x", "CI excludes none (published >= 2%)", "smaller here", "too wide",
		"none expected: CI includes none" };
	size_t n;
	struct seeds_tally *all = seeds_tally_by_seed(sr, &n);
	struct table tb;

	if (n > 1) {
		table_init(&tb, 10, heads);
		table_set_left(&tb, 1);
		for (size_t i = 0; i < n; i++) {
			struct seeds_tally *t = &all[i];
			table_cell(&tb, "%s", t->seed);
			table_cell(&tb, "%s", t->workload);
			table_cell(&tb, "%zu", t->compared);
			table_cell(&tb, "%zu", t->same);
			table_cell(&tb, "%zu", t->order);
			table_cell(&tb, "%zu", t->within);
			of_cell(&tb, t->resolved, t->big);
			table_cell(&tb, "%zu", t->smaller);
			table_cell(&tb, "%zu", t->too_wide);
			of_cell(&tb, t->none_included, t->none_expected);
		}
		fprintf(sr->ctx->out, md ? "\n" : "by seed:\n");
		if (md)
			table_print_markdown(&tb, sr->ctx->out);
		else
			table_print_text(&tb, sr->ctx->out, "  ");
		table_free(&tb);
	}
	for (size_t i = 0; i < n; i++)
		seeds_tally_free(&all[i]);
	free(all);
}

/* Each row whose published effect of at least 2% the run did not resolve, by name: what
 * to look at first. */
static void unresolved(struct seeds_report *sr, bool md)
{
	FILE *out = sr->ctx->out;
	bool first = true;

	for (size_t i = 0; i < sr->nrows; i++) {
		const struct seed_match *m = &sr->rows[i];
		enum seeds_resolution r = seeds_row_resolution(m);
		char *wl, pub[NUMFMT_SIZE], val[NUMFMT_SIZE], lo[NUMFMT_SIZE], hi[NUMFMT_SIZE];

		if (r != RESOLUTION_SMALLER && r != RESOLUTION_TOO_WIDE)
			continue;
		if (first)
			fprintf(out, "%snot resolved (a published effect of at least 2%%, a 95%% CI that "
				"includes none):\n", md ? "\n" : "");
		first = false;
		wl = seed_sample_workload(m->f);
		seeds_fmt_figure(pub, m->f->kind, m->f->value);
		seeds_fmt_figure(val, m->f->kind, m->measured);
		fprintf(out, "%s%s %s, %s vs %s", md ? "- " : "  ", wl, m->metric, m->f->variant, m->f->baseline);
		if (m->cores >= 0)
			fprintf(out, ", cores %d", m->cores);
		fprintf(out, ": %s", val);
		if (isfinite(m->ci_low) && isfinite(m->ci_high))
			fprintf(out, " (%s .. %s)", seeds_fmt_figure(lo, m->f->kind, m->ci_low),
				seeds_fmt_figure(hi, m->f->kind, m->ci_high));
		fprintf(out, " for %s published: %s\n", pub,
			r == RESOLUTION_SMALLER ? "smaller here than published" : "too wide to tell");
		free(wl);
	}
}

static void header(struct seeds_report *sr, bool md)
{
	struct report_ctx *ctx = sr->ctx;
	char *accel = seeds_measured_accel(ctx), *host = seeds_measured_host(ctx);
	json_object *imported = NULL, *why = NULL;
	FILE *out = ctx->out;

	fprintf(out, md ? "## hardbench report against the seeds: %s\n\n" : "hardbench report against the seeds: %s\n",
		ctx->dir);
	fprintf(out, "%spublished: %s (%zu figures from %zu files; %zu compared, %zu not measured)\n",
		md ? "- " : "", sr->path, sr->figures, sr->data.files, sr->measured, sr->unmeasured);
	if (ctx->meta)
		json_object_object_get_ex(ctx->meta, RS_META_ACCEL_REASON, &why);
	fprintf(out, "%smeasured: %ld samples%s; accel %s%s%s%s; host %s\n", md ? "- " : "",
		ctx->ds.samples, ctx->ds.skipped ? " (corrupt lines skipped)" : "", accel,
		why ? " (" : "", why ? json_object_get_string(why) : "", why ? ")" : "", host);
	if (ctx->meta && json_object_object_get_ex(ctx->meta, RS_META_IMPORTED, &imported))
		bullet(out, md, "measured side imported from ", json_object_get_string(imported));
	if (!strcmp(accel, "tcg"))
		bullet(out, md, "NOTE: guests ran under TCG (emulated CPU): compare signs and orders ",
		       "of magnitude of effects, not absolute times");
	for (size_t i = 0; i < ctx->ds.nclocks; i++)
		if (!strcmp(ctx->ds.clocks[i], "model"))
			bullet(out, md, "NOTE: the model clock's figures are MODELLED (docs/model.md), ",
			       "not measured: its rows' measured column is the model's reading");
	fprintf(out, "%sagreement: effects (slowdown %%, or ratio - 1) compared; within noise = under 2 "
		"st.err\n", md ? "- " : "");
	summary(sr, md);
	by_seed(sr, md);
	unresolved(sr, md);
	fputc('\n', out);
	free(accel);
	free(host);
}

/* "cores 4", or "cores per row" when the section's figures differ. */
static char *published_cores(const struct seed_match *rows, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (rows[i].f->cond.cores != rows[0].f->cond.cores)
			return xstrdup("cores per row");
	if (rows[0].f->cond.cores < 0)
		return xstrdup("cores not stated");
	return xasprintf("cores %d", rows[0].f->cond.cores);
}

/* " (kernel line 6.12)" when the set is not 6.1 alone: which line the rows compare.
 * Caller frees. */
static char *line_note(const struct seeds_report *sr, const char *line)
{
	if (sr->ctx->ds.nlines < 2 && hb_is_default_line(line))
		return xstrdup("");
	return xasprintf(" (kernel line %s)", line);
}

/* "cores 2, 4; accel tcg; kernel 6.1.192", or per variant when kernels differ. */
static char *measured_conditions(struct seeds_report *sr, const struct seed_match *rows, size_t n)
{
	char *cores = xstrdup(""), *kernels = xstrdup(""), *variants = xstrdup(""), *text;
	char *accel = seeds_measured_accel(sr->ctx), *note = line_note(sr, rows[0].line);

	for (size_t i = 0; i < n; i++) {
		char buf[16];
		if (rows[i].status != MATCH_OK)
			continue;
		snprintf(buf, sizeof(buf), "%d", rows[i].cores);
		seeds_add_unique(&cores, rows[i].cores >= 0 ? buf : "unknown");
		for (int side = 0; side < 2; side++) {
			const char *v = side ? rows[i].f->baseline : rows[i].f->variant;
			char *k = seeds_measured_kernel(sr->ctx, v, rows[i].line), *kv = xasprintf("%s %s", v, k);
			seeds_add_unique(&kernels, k);
			seeds_add_unique(&variants, kv);
			free(k);
			free(kv);
		}
	}
	if (!*cores)
		text = xstrdup("nothing comparable (see the rows)");
	else if (!strchr(kernels, ','))
		text = xasprintf("cores %s; accel %s; kernel %s%s", cores, accel, kernels, note);
	else
		text = xasprintf("cores %s; accel %s; kernels: %s%s", cores, accel, variants, note);
	free(note);
	free(accel);
	free(cores);
	free(kernels);
	free(variants);
	return text;
}

static void section_heading(struct seeds_report *sr, const struct seed_match *rows, size_t n, bool md)
{
	const struct seed_figure *f = rows[0].f;
	char *wl = seed_sample_workload(f), *pc = published_cores(rows, n);
	char *mc = measured_conditions(sr, rows, n);
	FILE *out = sr->ctx->out;

	fprintf(out, "%s%s, seed %s\n%s", md ? "### " : "== ", wl, f->seed, md ? "\n" : "");
	fprintf(out, "%spublished: %s; machine: %s; kernel: %s\n", md ? "- " : "", pc, f->cond.machine,
		f->cond.kernel);
	if (*f->cond.text)
		fprintf(out, "%s%s\n", md ? "- " : "           ", f->cond.text);
	fprintf(out, "%s%s\n%s", md ? "- measured: " : "measured:  ", mc, md ? "\n" : "");
	free(wl);
	free(pc);
	free(mc);
}

/* "4", or "-" for unknown. buf: NUMFMT_SIZE bytes. */
static const char *count_text(char *buf, int n)
{
	if (n < 0)
		return strcpy(buf, "-");
	snprintf(buf, NUMFMT_SIZE, "%d", n);
	return buf;
}

static void published_cell(struct table *t, const struct seed_figure *f)
{
	char a[NUMFMT_SIZE], b[NUMFMT_SIZE];

	seeds_fmt_figure(a, f->kind, f->value);
	if (isfinite(f->stderr_pct))
		table_cell(t, "%s (st.err %s)", a, fmt_pct_plain(b, f->stderr_pct));
	else
		table_cell(t, "%s%s", a, f->noise ? " (noise)" : f->expect_none ? " (none expected)"
					: f->derived ? " (derived)" : "");
}

/* The measured figure's 95% interval, in its kind ("+3.1% .. +4.0%", "1.81x .. 1.86x"). */
static void interval_cell(struct table *t, const struct seed_match *m)
{
	char a[NUMFMT_SIZE], b[NUMFMT_SIZE];

	if (!isfinite(m->ci_low) || !isfinite(m->ci_high)) {
		table_cell(t, "-");
		return;
	}
	seeds_fmt_figure(a, m->f->kind, m->ci_low);
	seeds_fmt_figure(b, m->f->kind, m->ci_high);
	table_cell(t, "%s .. %s", a, b);
}

static void measured_cells(struct table *t, const struct seed_match *m)
{
	char a[NUMFMT_SIZE], b[NUMFMT_SIZE];

	if (m->status != MATCH_OK) {
		table_cell(t, "not measured: %s", m->why);
		table_cell(t, "-");
		table_cell(t, "-");
		table_cell(t, "-");
		table_cell(t, "-");
		return;
	}
	seeds_fmt_figure(a, m->f->kind, m->measured);
	if (!isfinite(m->measured_se))
		table_cell(t, "%s", a);
	else if (m->f->kind == SEED_RATIO)
		table_cell(t, "%s (st.err %.2g)", a, m->measured_se);
	else
		table_cell(t, "%s (st.err %s)", a, fmt_pct_plain(b, m->measured_se));
	interval_cell(t, m);
	table_cell(t, "%ld/%ld", m->sv.n, m->sb.n);
	table_cell(t, "%s/%s", count_text(a, m->cores), count_text(b, m->f->cond.cores));
	table_cell(t, "%s", m->agree.text);
}

/* Where in the seed: its line, or for a mail stored as one line, the quote. */
static void source_cell(struct table *t, const struct seed_figure *f)
{
	const char *q = f->quotes[0];

	if (f->line > 1)
		table_cell(t, "line %ld", f->line);
	else if (strlen(q) <= QUOTE_WIDTH)
		table_cell(t, "\"%s\"", q);
	else
		table_cell(t, "\"%.*s...\"", QUOTE_WIDTH - 3, q);
}

static void section_table(struct seeds_report *sr, const struct seed_match *rows, size_t n, bool md)
{
	static const char *const heads[] = { "source", "metric", "variant", "vs", "published",
		"measured", "95% CI", "n v/b", "cores m/p", "agreement" };
	struct table t;

	table_init(&t, 10, heads);
	for (size_t c = 1; c < 4; c++)
		table_set_left(&t, c);
	table_set_left(&t, 9);
	for (size_t i = 0; i < n; i++) {
		source_cell(&t, rows[i].f);
		table_cell(&t, "%s", rows[i].metric);
		table_cell(&t, "%s", rows[i].f->variant);
		table_cell(&t, "%s", rows[i].f->baseline);
		published_cell(&t, rows[i].f);
		measured_cells(&t, &rows[i]);
	}
	if (md)
		table_print_markdown(&t, sr->ctx->out);
	else
		table_print_text(&t, sr->ctx->out, "  ");
	table_free(&t);
}

/* The icount note of a row measured under icount that does not agree within 2x (an
 * effect outside 2x of the published one, of the other sign, or where the published one
 * is noise and the measured one is not); NULL otherwise: why the instruction count
 * weighs it differently. */
static const char *icount_note(const struct seed_match *m)
{
	bool agrees = (m->agree.sign == SIGN_SAME && m->agree.within_2x) ||
		      m->agree.sign == SIGN_BOTH_NOISE;
	bool outside = m->status == MATCH_OK && !agrees;

	return outside && m->f->icount_note && m->g && !strcmp(m->g->clock, "icount")
		? m->f->icount_note : NULL;
}

static const char *plain_note(const struct seed_match *m)
{
	return *m->f->note ? m->f->note : NULL;
}

static const char *expect_none_note(const struct seed_match *m)
{
	return m->f->expect_none;
}

/* Each distinct text of one kind once, after the table, as "<lead><variant>: <text>". */
static void distinct_notes(FILE *out, const struct seed_match *rows, size_t n, const char *lead,
			   const char *(*text_of)(const struct seed_match *))
{
	for (size_t i = 0; i < n; i++) {
		const char *text = text_of(&rows[i]);
		bool seen = !text;
		for (size_t j = 0; j < i && !seen; j++)
			seen = text_of(&rows[j]) && !strcmp(text_of(&rows[j]), text);
		if (!seen)
			fprintf(out, "%s%s: %s\n", lead, rows[i].f->variant, text);
	}
}

/* --profile: where each row outside 2x under icount spends its extra instructions, the
 * measured mechanism under the note that tells it (analysis/profile_view.h). */
static void profile_notes(struct seeds_report *sr, const struct seed_match *rows, size_t n,
			  const char *lead)
{
	for (size_t i = 0; i < n; i++) {
		const struct seed_match *m = &rows[i];
		const struct pv_row *p;
		bool seen = false;
		if (!icount_note(m))
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = icount_note(&rows[j]) && !strcmp(rows[j].f->variant, m->f->variant);
		p = seen ? NULL : profile_view_find(sr->ctx->profile, m->g->line, m->g->workload,
						    m->g->cores, m->f->variant, m->g->metric);
		if (!p || !p->nfn)
			continue;
		char *cite = profile_view_cite(p, 3);
		fprintf(sr->ctx->out, "%s%s: %s\n", lead, m->f->variant, cite);
		free(cite);
	}
}

/* Rows published at a vCPU count the run did not measure, compared at its nearest one:
 * each pair of counts once, "published N, measured M". */
static void across_counts(FILE *out, const struct seed_match *rows, size_t n, bool md)
{
	for (size_t i = 0; i < n; i++) {
		const struct seed_match *m = &rows[i];
		bool seen = false;
		if (m->status != MATCH_OK || m->f->cond.cores < 0 || m->cores_exact)
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = rows[j].status == MATCH_OK && !rows[j].cores_exact &&
			       rows[j].f->cond.cores == m->f->cond.cores && rows[j].cores == m->cores;
		if (!seen)
			fprintf(out, "%scompared across vCPU counts: published at %d, measured at %d "
				"(the run has no %d; --cores %d measures it)\n", md ? "- " : "  ",
				m->f->cond.cores, m->cores, m->f->cond.cores, m->f->cond.cores);
	}
}

/* The notes, then why no effect is expected, then why icount weighs a row differently. */
static void notes(struct seeds_report *sr, const struct seed_match *rows, size_t n, bool md)
{
	FILE *out = sr->ctx->out;

	across_counts(out, rows, n, md);
	distinct_notes(out, rows, n, md ? "- note, " : "  note, ", plain_note);
	distinct_notes(out, rows, n, md ? "- no effect expected, " : "  no effect expected, ", expect_none_note);
	distinct_notes(out, rows, n, md ? "- not within 2x under icount, " : "  not within 2x under icount, ",
		       icount_note);
	profile_notes(sr, rows, n, md ? "- measured by --profile, " : "  measured by --profile, ");
}

static void section(struct seeds_report *sr, const struct seed_match *rows, size_t n, bool md)
{
	FILE *out = sr->ctx->out;

	if (seeds_one_reason_line(sr, rows, n, md))
		return;
	section_heading(sr, rows, n, md);
	if (seeds_arms_wanted(rows, n))
		seeds_arms_table(sr, rows, n, md);
	else
		section_table(sr, rows, n, md);
	if (md)
		fputc('\n', out);
	notes(sr, rows, n, md);
	fputc('\n', out);
}

void seeds_render_text(struct seeds_report *sr, bool markdown)
{
	header(sr, markdown);
	for (size_t from = 0, to; from < sr->nrows; from = to) {
		for (to = from + 1; to < sr->nrows && same_source(&sr->rows[from], &sr->rows[to]); to++)
			;
		if (!seeds_absent_workload_line(sr, from, markdown))
			section(sr, &sr->rows[from], to - from, markdown);
	}
}
