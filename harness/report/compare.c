/* Loading and matching for --compare (compare.h): every run as the report reads it (its
 * dataset, canonical variant order, pairing) and as the gate reads it (its gate_set, for
 * the change between consecutive runs). */
#include "report/compare.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/variant_order.h"
#include "common/log.h"
#include "common/xalloc.h"
#include "report/compare_ctx.h"
#include "report/report_profile.h"
#include "results/provenance.h"
#include "results/store.h"

static int load_run(struct compare_run *r, const char *baseline)
{
	if (dataset_load(&r->ds, r->dir) < 0)
		return HB_EXIT_FAIL;
	if (!r->ds.samples) {
		hb_error("report: --compare: %s holds no samples", r->name);
		return HB_EXIT_FAIL;
	}
	r->meta = rs_read_meta(r->dir);
	dataset_canonical_order(&r->ds, r->meta, baseline);
	r->rows.no_pairing = r->meta && json_object_object_get_ex(r->meta, RS_META_IMPORTED, NULL);
	r->baseline = dataset_variant(&r->ds, baseline);
	if (r->baseline < 0) {
		char *list = dataset_variant_list(&r->ds);
		hb_error("report: --compare: %s has no variant '%s' to compare costs against (accepted: "
			 "--baseline one of %s)", r->name, baseline, list);
		free(list);
		return HB_EXIT_USAGE;
	}
	return gate_load(r->dir, baseline, &r->gate) < 0 ? HB_EXIT_FAIL : HB_EXIT_OK;
}

/* Like the gate: a run of one clock never compares with a run of another. */
static int check_clocks(const struct compare *c)
{
	for (size_t i = 1; i < c->nruns; i++)
		if (strcmp(c->runs[i].gate.clock, c->runs[0].gate.clock)) {
			hb_error("report: --compare: %s was measured with the %s clock, %s with the %s clock: "
				 "they do not compare (accepted: runs measured with the same --clock)",
				 c->runs[0].name, c->runs[0].gate.clock, c->runs[i].name, c->runs[i].gate.clock);
			return HB_EXIT_USAGE;
		}
	return HB_EXIT_OK;
}

/* Like the gate: icount runs of two QEMU versions never compare; host times warn. */
static int check_qemu(const struct compare *c)
{
	for (size_t i = 1; i < c->nruns; i++) {
		char *why = NULL;
		int rc = rs_qemu_check(c->runs[0].meta, c->runs[i].meta, c->runs[0].name, c->runs[i].name, &why);

		if (rc < 0)
			hb_error("report: --compare: %s", why);
		else if (rc > 0)
			hb_warn("report: --compare: %s", why);
		free(why);
		if (rc < 0)
			return HB_EXIT_USAGE;
	}
	return HB_EXIT_OK;
}

static bool same_place(const struct ds_group *a, const struct ds_group *b)
{
	return a->cores == b->cores && !strcmp(a->clock, b->clock) && !strcmp(a->line, b->line) &&
	       !strcmp(a->workload, b->workload) && !strcmp(a->metric, b->metric);
}

static const struct ds_group *find_group(const struct dataset *ds, const struct ds_group *like)
{
	for (size_t i = 0; i < ds->ngroups; i++)
		if (same_place(ds->groups[i], like))
			return ds->groups[i];
	return NULL;
}

static bool wanted(const struct compare *c, const struct ds_group *g)
{
	const struct report_opts *o = c->opts->report;

	return (!o->metric || !strcmp(o->metric, g->metric)) && (!o->workload || !strcmp(o->workload, g->workload));
}

static bool have_row(const struct compare *c, const struct ds_group *g, const char *variant)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (same_place(c->rows[i].g, g) && !strcmp(c->rows[i].variant, variant))
			return true;
	return false;
}

/* Every (place, variant) of every run but the baseline, in the first run's order, then
 * what later runs add. */
static void collect_rows(struct compare *c)
{
	for (size_t k = 0; k < c->nruns; k++) {
		const struct compare_run *r = &c->runs[k];
		for (size_t i = 0; i < r->ds.ngroups; i++) {
			const struct ds_group *g = r->ds.groups[i];
			for (size_t v = 0; v < r->ds.nvariants && wanted(c, g); v++) {
				if ((int)v == r->baseline || !ds_group_cell(g, (int)v) || have_row(c, g, r->ds.variants[v]))
					continue;
				c->rows = xgrow(c->rows, &c->cap, c->nrows + 1, sizeof(*c->rows));
				c->rows[c->nrows++] = (struct compare_row){ .g = g, .variant = r->ds.variants[v] };
			}
		}
	}
}

static void fill_cost(const struct compare_run *r, const struct compare_row *row, struct compare_cost *out)
{
	const struct ds_group *g = find_group(&r->ds, row->g);
	int v = dataset_variant(&r->ds, row->variant);
	struct group_row rows[r->ds.nvariants ? r->ds.nvariants : 1];
	size_t n;

	*out = (struct compare_cost){ 0 };
	if (!g || v < 0)
		return;
	n = group_rows_opts(&r->ds, g, r->baseline, -1, &r->rows, rows);
	for (size_t i = 0; i < n; i++)
		if (rows[i].variant == v) {
			out->present = true;
			out->r = rows[i];
		}
}

static const struct gate_entry *find_entry(const struct gate_set *s, const struct compare_row *row)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct gate_entry *e = &s->e[i];
		if (e->cores == row->g->cores && !strcmp(e->clock, row->g->clock) && !strcmp(e->line, row->g->line) &&
		    !strcmp(e->workload, row->g->workload) && !strcmp(e->metric, row->g->metric) &&
		    !strcmp(e->variant, row->variant))
			return e;
	}
	return NULL;
}

/* The change from run k to run k+1, judged by the gate's relative rule. */
static void fill_change(const struct compare *c, const struct compare_row *row, size_t k, struct gate_result *out)
{
	const struct gate_opts go = { .max_slowdown_pct = c->opts->max_slowdown_pct, .alpha = c->opts->alpha,
				      .relative_to = c->baseline };
	const struct gate_entry *later = find_entry(&c->runs[k + 1].gate, row);

	if (!later || !find_entry(&c->runs[k].gate, row)) {
		*out = (struct gate_result){ .outcome = GATE_NOT_COMPARABLE, .why = "not in both runs" };
		return;
	}
	gate_judge_relative(&c->runs[k + 1].gate, &c->runs[k].gate, later, c->baseline, &go, out);
}

static void fill_rows(struct compare *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		struct compare_row *row = &c->rows[i];
		row->costs = xcalloc(c->nruns, sizeof(*row->costs));
		row->changes = xcalloc(c->nruns, sizeof(*row->changes));
		for (size_t k = 0; k < c->nruns; k++)
			fill_cost(&c->runs[k], row, &row->costs[k]);
		for (size_t k = 0; k + 1 < c->nruns; k++)
			fill_change(c, row, k, &row->changes[k]);
	}
}

static int render(struct compare *c)
{
	switch (c->opts->report->format) {
	case REPORT_TEXT: compare_render_text(c, false); return HB_EXIT_OK;
	case REPORT_MARKDOWN: compare_render_text(c, true); return HB_EXIT_OK;
	case REPORT_JSON: compare_render_json(c); return HB_EXIT_OK;
	case REPORT_HTML: compare_render_html(c); return HB_EXIT_OK;
	default:
		hb_error("report: --compare: --format %s has no comparison (accepted: text, markdown, json, html)",
			 report_format_names[c->opts->report->format]);
		return HB_EXIT_USAGE;
	}
}

static void free_compare(struct compare *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		free(c->rows[i].costs);
		free(c->rows[i].changes);
	}
	free(c->rows);
	for (size_t k = 0; k < c->nruns; k++) {
		dataset_free(&c->runs[k].ds);
		json_object_put(c->runs[k].meta);
		gate_set_free(&c->runs[k].gate);
	}
	free(c->runs);
}

int report_compare(char *const *dirs, char *const *names, size_t n, const struct compare_opts *opts, FILE *out)
{
	struct compare c = { .opts = opts, .nruns = n, .out = out,
			     .baseline = opts->report->baseline ? opts->report->baseline : "baseline" };
	int rc = HB_EXIT_OK;

	c.runs = xcalloc(n, sizeof(*c.runs));
	for (size_t k = 0; k < n && rc == HB_EXIT_OK; k++) {
		c.runs[k].name = names[k];
		c.runs[k].dir = dirs[k];
		rc = load_run(&c.runs[k], c.baseline);
	}
	if (rc == HB_EXIT_OK)
		rc = check_clocks(&c);
	if (rc == HB_EXIT_OK)
		rc = check_qemu(&c);
	if (rc == HB_EXIT_OK) {
		c.clock = c.runs[0].gate.clock;
		collect_rows(&c);
		fill_rows(&c);
		if (!c.nrows) {
			hb_error("report: --compare: no variant but '%s' in these runs%s (accepted: runs that "
				 "measured a variant against it)", c.baseline,
				 opts->report->metric || opts->report->workload ? " with that --metric/--workload" : "");
			rc = HB_EXIT_USAGE;
		}
	}
	if (rc == HB_EXIT_OK)
		rc = render(&c);
	if (rc == HB_EXIT_OK) /* --profile: each run's "where the cost goes" */
		report_profile_compare(dirs, names, n, opts->report, c.baseline, out);
	free_compare(&c);
	return rc;
}
