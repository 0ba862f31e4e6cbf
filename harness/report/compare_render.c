/* The comparison's formats (compare.h): text and markdown tables, JSON, and a page. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/numfmt.h"
#include "common/xalloc.h"
#include "report/compare_ctx.h"
#include "analysis/html.h"
#include "report/report_html.h"
#include "analysis/html_page.h"
#include "analysis/table.h"
#include "results/jsonfmt.h"
#include "results/store.h"

const char *compare_flag(const struct gate_result *g)
{
	switch (g->outcome) {
	case GATE_REGRESSION: return "regression";
	case GATE_IMPROVEMENT: return "improvement";
	case GATE_OK: return "ok";
	default: return "not comparable";
	}
}

static const char *meta_str(json_object *meta, const char *key)
{
	json_object *v = NULL;

	return meta && json_object_object_get_ex(meta, key, &v) && json_object_is_type(v, json_type_string)
	       ? json_object_get_string(v) : "-";
}

static char *metric_head(const struct ds_group *g)
{
	return *g->unit ? xasprintf("%s [%s]", g->metric, g->unit) : xstrdup(g->metric);
}

/* "+7.71%" and "[+6.80%, +8.62%]" of a run's cost, "-" when the run lacks the row. */
static void cost_cells(struct table *t, const struct compare_cost *k)
{
	char a[NUMFMT_SIZE];
	bool ok = k->present && k->r.status == ROW_OK;

	table_cell(t, "%s", ok ? fmt_cost(a, k->r.head.slowdown_pct)
		   : k->present && k->r.status == ROW_BELOW_RESOLUTION ? "below resolution" : "-");
	table_cell(t, "%s", ok ? fmt_cost_ci(a, k->r.head.slowdown_pct, k->r.head.ci95_low_pct,
					      k->r.head.ci95_high_pct) : "-");
}

static void change_cells(struct table *t, const struct gate_result *g)
{
	char a[NUMFMT_SIZE], b[NUMFMT_SIZE];

	if (g->outcome == GATE_NOT_COMPARABLE) {
		table_cell(t, "-");
		table_cell(t, "not comparable: %s", g->why ? g->why : "-");
		return;
	}
	table_cell(t, "%s %s", fmt_pct(a, g->slowdown_pct), fmt_ci(b, g->ci95_low_pct, g->ci95_high_pct));
	table_cell(t, "%s", g->outcome == GATE_REGRESSION ? "REGRESSION" : compare_flag(g));
}

static struct table build_table(const struct compare *c)
{
	size_t ncols = 4 + 2 * c->nruns + 2 * (c->nruns - 1);
	char *heads[ncols];
	size_t h = 0;
	struct table t;

	heads[h++] = xstrdup("workload");
	heads[h++] = xstrdup("metric [unit]");
	heads[h++] = xstrdup("vCPUs");
	heads[h++] = xstrdup("variant");
	for (size_t k = 0; k < c->nruns; k++) {
		heads[h++] = xasprintf("run %zu cost", k + 1);
		heads[h++] = xasprintf("run %zu 95%% CI", k + 1);
		if (k > 0) {
			heads[h++] = xasprintf("change %zu->%zu (95%% CI)", k, k + 1);
			heads[h++] = xasprintf("gate %zu->%zu", k, k + 1);
		}
	}
	table_init(&t, ncols, (const char *const *)heads);
	table_set_left(&t, 1);
	table_set_left(&t, 3);
	for (size_t k = 1; k < c->nruns; k++)
		table_set_left(&t, 4 + 4 * k + 1); /* the gate's word after each change */
	for (size_t i = 0; i < ncols; i++)
		free(heads[i]);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct compare_row *row = &c->rows[i];
		char *metric = metric_head(row->g);
		table_cell(&t, "%s", row->g->workload);
		table_cell(&t, "%s", metric);
		if (row->g->cores >= 0)
			table_cell(&t, "%d", row->g->cores);
		else
			table_cell(&t, "-");
		table_cell(&t, "%s", row->variant);
		for (size_t k = 0; k < c->nruns; k++) {
			cost_cells(&t, &row->costs[k]);
			if (k > 0)
				change_cells(&t, &row->changes[k - 1]);
		}
		free(metric);
	}
	return t;
}

static void header(const struct compare *c, bool md)
{
	fprintf(c->out, md ? "## hardbench comparison of %zu runs\n\n" : "hardbench comparison of %zu runs\n",
		c->nruns);
	for (size_t k = 0; k < c->nruns; k++)
		fprintf(c->out, "%srun %zu: %s (created %s, accel %s, %ld samples)\n", md ? "- " : "  ", k + 1,
			c->runs[k].name, meta_str(c->runs[k].meta, RS_META_CREATED),
			meta_str(c->runs[k].meta, RS_META_ACCEL), c->runs[k].ds.samples);
	fprintf(c->out, "%sclock: %s; cost: each run's slowdown against its own %s, with its 95%% CI (the "
		"report's headline: paired where the run has >= 2 rounds, else Welch)\n", md ? "- " : "",
		c->clock, c->baseline);
	fprintf(c->out, "%schange: the cost's change from the previous run, flagged as `harness gate "
		"--relative %s` flags it: REGRESSION when worse by more than %g%% with p < %g\n\n",
		md ? "- " : "", c->baseline, c->opts->max_slowdown_pct, c->opts->alpha);
}

void compare_render_text(const struct compare *c, bool markdown)
{
	struct table t = build_table(c);

	header(c, markdown);
	if (markdown)
		table_print_markdown(&t, c->out);
	else
		table_print_text(&t, c->out, "");
	table_free(&t);
}

static json_object *cost_json(const struct compare_cost *k)
{
	json_object *o;

	if (!k->present || k->r.status != ROW_OK)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "slowdown_pct", hb_json_double(k->r.head.slowdown_pct));
	json_object_object_add(o, "ci95_low_pct", hb_json_double(k->r.head.ci95_low_pct));
	json_object_object_add(o, "ci95_high_pct", hb_json_double(k->r.head.ci95_high_pct));
	json_object_object_add(o, "mde_pct", hb_json_double(k->r.head.mde_pct));
	json_object_object_add(o, "paired", json_object_new_boolean(k->r.paired));
	json_object_object_add(o, "n", json_object_new_int64(k->r.s.n));
	return o;
}

static json_object *change_json(const struct gate_result *g, size_t from)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "from", json_object_new_int64((int64_t)from));
	json_object_object_add(o, "to", json_object_new_int64((int64_t)from + 1));
	json_object_object_add(o, "change_pct", hb_json_double(g->slowdown_pct));
	json_object_object_add(o, "ci95_low_pct", hb_json_double(g->ci95_low_pct));
	json_object_object_add(o, "ci95_high_pct", hb_json_double(g->ci95_high_pct));
	json_object_object_add(o, "p_value", hb_json_double(g->p_value));
	json_object_object_add(o, "flag", json_object_new_string(compare_flag(g)));
	if (g->why)
		json_object_object_add(o, "why", json_object_new_string(g->why));
	return o;
}

static json_object *row_json(const struct compare *c, const struct compare_row *row)
{
	json_object *o = json_object_new_object(), *costs = json_object_new_array(),
		    *changes = json_object_new_array();
	const struct ds_group *g = row->g;

	json_object_object_add(o, "clock", json_object_new_string(g->clock));
	json_object_object_add(o, "kernel_line", json_object_new_string(g->line));
	json_object_object_add(o, "workload", json_object_new_string(g->workload));
	json_object_object_add(o, "metric", json_object_new_string(g->metric));
	json_object_object_add(o, "unit", json_object_new_string(g->unit));
	json_object_object_add(o, "cores", hb_json_count(g->cores));
	json_object_object_add(o, "variant", json_object_new_string(row->variant));
	for (size_t k = 0; k < c->nruns; k++) {
		json_object_array_add(costs, cost_json(&row->costs[k]));
		if (k + 1 < c->nruns)
			json_object_array_add(changes, change_json(&row->changes[k], k));
	}
	json_object_object_add(o, "costs", costs);
	json_object_object_add(o, "changes", changes);
	return o;
}

void compare_render_json(const struct compare *c)
{
	json_object *o = json_object_new_object(), *runs = json_object_new_array(), *rows = json_object_new_array();

	json_object_object_add(o, "baseline", json_object_new_string(c->baseline));
	json_object_object_add(o, "clock", json_object_new_string(c->clock));
	json_object_object_add(o, "max_slowdown_pct", hb_json_double(c->opts->max_slowdown_pct));
	json_object_object_add(o, "alpha", hb_json_double(c->opts->alpha));
	for (size_t k = 0; k < c->nruns; k++) {
		json_object *r = json_object_new_object();
		json_object_object_add(r, "name", json_object_new_string(c->runs[k].name));
		json_object_object_add(r, "dir", json_object_new_string(c->runs[k].dir));
		json_object_object_add(r, "created", json_object_new_string(meta_str(c->runs[k].meta, RS_META_CREATED)));
		json_object_object_add(r, "accel", json_object_new_string(meta_str(c->runs[k].meta, RS_META_ACCEL)));
		json_object_object_add(r, "samples", json_object_new_int64(c->runs[k].ds.samples));
		json_object_array_add(runs, r);
	}
	json_object_object_add(o, "runs", runs);
	for (size_t i = 0; i < c->nrows; i++)
		json_object_array_add(rows, row_json(c, &c->rows[i]));
	json_object_object_add(o, "rows", rows);
	fprintf(c->out, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

/* The page: the same table as the text (every cell escaped), the runs listed above it. */
void compare_render_html(const struct compare *c)
{
	struct table t = build_table(c);

	html_page_head(c->out, "hardbench: comparison of runs");
	fputs("<section id=\"runs\"><h2>Runs</h2>\n<ol>\n", c->out);
	for (size_t k = 0; k < c->nruns; k++) {
		fputs("<li>", c->out);
		html_textf(c->out, "%s (created %s, accel %s, %ld samples)", c->runs[k].name,
			   meta_str(c->runs[k].meta, RS_META_CREATED), meta_str(c->runs[k].meta, RS_META_ACCEL),
			   c->runs[k].ds.samples);
		fputs("</li>\n", c->out);
	}
	fputs("</ol>\n<p>", c->out);
	html_textf(c->out, "Clock %s. Cost: each run's slowdown against its own %s with its 95%% CI. "
		   "Change: the cost's change from the previous run, flagged as `harness gate --relative %s` "
		   "flags it (worse by more than %g%% with p < %g).", c->clock, c->baseline, c->baseline,
		   c->opts->max_slowdown_pct, c->opts->alpha);
	fputs("</p></section>\n<section id=\"compare\"><h2>Costs across runs</h2>\n", c->out);
	fputs("<div class=\"tables\">\n", c->out);
	html_table(c->out, &t, "sortable compare");
	fputs("</div>\n", c->out);
	fputs("</section>\n", c->out);
	html_page_foot(c->out);
	table_free(&t);
}
