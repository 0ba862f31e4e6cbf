/* --against-seeds, text and markdown: a seed that printed both arms and their difference
 * (its figures carry "delta", seeds.h) in its own table shape, published next to measured.
 * Seed 003's "syscall vmas t t_mseal delta_ns per_vma %" becomes one row per figure:
 *   source | metric | with | without pub, meas | with pub, meas | delta pub, meas |
 *   per VMA pub, meas | % pub, meas | agreement
 * Rows follow the seed's lines, so a second "with" arm of the same line (mseal-prewalk
 * beside baseline) sits under the first. An arm the run lacks altogether is one line after
 * the table, not a row of dashes per figure. Nothing here knows a workload: the shape
 * comes from the published file. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/numfmt.h"
#include "common/xalloc.h"
#include "seeds/seeds_report.h"
#include "analysis/table.h"

enum { NCOLS = 14 };

bool seeds_arms_wanted(const struct seed_match *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (isnan(rows[i].f->delta))
			return false;
	return n > 0;
}

/* Seed line order; figures of one line keep the published order (rows are one array). */
static int by_line(const void *a, const void *b)
{
	const struct seed_match *x = *(const struct seed_match *const *)a;
	const struct seed_match *y = *(const struct seed_match *const *)b;

	if (x->f->line != y->f->line)
		return x->f->line < y->f->line ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* A published number as the seeds print theirs: whole numbers without decimals. */
static void pub_cell(struct table *t, double v)
{
	char b[NUMFMT_SIZE];

	if (isnan(v))
		table_cell(t, "-");
	else if (v == round(v))
		table_cell(t, "%.0f", v);
	else
		table_cell(t, "%s", fmt_value(b, v));
}

#define CELL 64

/* A measured difference: "+77.3", with its st.err "+77.3 (12.1)" when known. */
static void delta_text(char *buf, double d, double se)
{
	if (isnan(d))
		snprintf(buf, CELL, "-");
	else if (isfinite(se))
		snprintf(buf, CELL, "%+.1f (%.1f)", d, se);
	else
		snprintf(buf, CELL, "%+.1f", d);
}

/* without, with, delta, per item, %: what this run measured, "-" when nothing. */
static void measured_text(const struct seed_match *m, char out[5][CELL])
{
	const struct seed_figure *f = m->f;

	for (int c = 0; c < 5; c++)
		snprintf(out[c], CELL, "-");
	if (m->status != MATCH_OK)
		return;
	fmt_value(out[0], m->sb.mean);
	fmt_value(out[1], m->sv.mean);
	delta_text(out[2], m->delta, m->delta_se);
	if (f->per_count > 0)
		delta_text(out[3], m->delta / (double)f->per_count, m->delta_se / (double)f->per_count);
	snprintf(out[4], CELL, "%.1f%%", m->c.ratio * 100);
}

static void arms_row(struct table *t, const struct seed_match *m)
{
	const struct seed_figure *f = m->f;
	char meas[5][CELL];

	measured_text(m, meas);
	table_cell(t, "line %ld", f->line);
	table_cell(t, "%s", m->metric);
	table_cell(t, "%s", f->variant);
	pub_cell(t, f->baseline_value);
	table_cell(t, "%s", meas[0]);
	pub_cell(t, f->variant_value);
	table_cell(t, "%s", meas[1]);
	table_cell(t, "%+.0f", f->delta);
	table_cell(t, "%s", meas[2]);
	if (f->per_count > 0)
		table_cell(t, "%+.0f", f->delta_per);
	else
		table_cell(t, "-");
	table_cell(t, "%s", meas[3]);
	table_cell(t, "%.0f%%", f->value * 100);
	table_cell(t, "%s", meas[4]);
	if (m->status == MATCH_OK)
		table_cell(t, "%s", m->agree.text);
	else
		table_cell(t, "not measured: %s", m->why);
}

/* One line per arm the run lacks: "mseal-prewalk: 18 figures not measured: ...". */
static void absent_arms(struct seeds_report *sr, const struct seed_match *rows, size_t n, bool md)
{
	for (size_t i = 0; i < n; i++) {
		size_t count = 0;
		bool first = true;
		if (rows[i].status != MATCH_NO_VARIANT)
			continue;
		for (size_t j = 0; j < n; j++)
			if (rows[j].status == MATCH_NO_VARIANT && !strcmp(rows[j].f->variant, rows[i].f->variant)) {
				first = first && j >= i;
				count++;
			}
		if (first)
			fprintf(sr->ctx->out, "%s%s: %zu figure%s not measured: %s\n", md ? "- " : "  ",
				rows[i].f->variant, count, count == 1 ? "" : "s", rows[i].why);
	}
}

void seeds_arms_table(struct seeds_report *sr, const struct seed_match *rows, size_t n, bool md)
{
	const struct seed_match **order = xcalloc(n, sizeof(*order));
	const char *item = rows[0].f->per_item ? rows[0].f->per_item : "item";
	char *per = xasprintf("per %s pub", item);
	const char *heads[NCOLS] = { "source", "metric", "with", "without pub", "meas", "with pub",
		"meas", "delta pub", "meas (st.err)", per, "meas (st.err)", "% pub", "meas", "agreement" };
	size_t k = 0;
	struct table t;

	for (size_t i = 0; i < n; i++)
		if (rows[i].status != MATCH_NO_VARIANT)
			order[k++] = &rows[i];
	qsort(order, k, sizeof(*order), by_line);
	fprintf(sr->ctx->out, "%swithout = %s; pub = the seed's, meas = this run's mean; delta = with - "
		"without; %% = with / without\n%s", md ? "- " : "  ", rows[0].f->baseline, md ? "\n" : "");
	table_init(&t, NCOLS, heads);
	table_set_left(&t, 1);
	table_set_left(&t, 2);
	table_set_left(&t, NCOLS - 1);
	for (size_t i = 0; i < k; i++)
		arms_row(&t, order[i]);
	if (md)
		table_print_markdown(&t, sr->ctx->out);
	else
		table_print_text(&t, sr->ctx->out, "  ");
	table_free(&t);
	absent_arms(sr, rows, n, md);
	free(per);
	free(order);
}
