/* Reading both kinds of reference into the same entries. */
#include "gate/gate.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/kernel_line.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "analysis/rows.h"
#include "analysis/variant_order.h"
#include "results/dataset.h"
#include "results/store.h"

static struct gate_entry *add_entry(struct gate_set *set, const char *clock, const char *workload,
				    const char *metric, const char *unit, int cores, const char *variant,
				    bool lower)
{
	struct gate_entry *e;

	set->e = xgrow(set->e, &set->cap, set->n + 1, sizeof(*set->e));
	e = &set->e[set->n++];
	*e = (struct gate_entry){ .clock = xstrdup(clock), .workload = xstrdup(workload),
				  .metric = xstrdup(metric),
				  .unit = xstrdup(unit), .variant = xstrdup(variant), .cores = cores,
				  .lower_is_better = lower, .line = xstrdup(HB_DEFAULT_LINE) };
	return e;
}

static json_object *key(json_object *o, const char *name)
{
	json_object *v = NULL;
	json_object_object_get_ex(o, name, &v);
	return v;
}

static bool is_text(json_object *v)
{
	return json_object_is_type(v, json_type_string) && *json_object_get_string(v);
}

/* meta.json's "clock": {"name": ...}; NULL when it says nothing. */
static const char *meta_clock(json_object *meta)
{
	json_object *name = key(key(meta, RS_META_CLOCK), "name");

	return is_text(name) ? json_object_get_string(name) : NULL;
}

/* The paired cost of cell against base, as the report's headline has it. */
static void paired_cost(struct gate_entry *e, const struct ds_cell *cell, const struct ds_cell *base)
{
	struct paired_estimate pe;
	long unpaired;

	rows_pair_cells(cell, base, e->lower_is_better, &pe, &unpaired);
	if (pe.n_pairs < ROW_MIN_PAIRS)
		return;
	e->cost_paired = true;
	e->cost_pairs = pe.n_pairs;
	e->cost_log = pe.mean_log;
	e->cost_se_log = pe.sd_log / sqrt((double)pe.n_pairs);
}

static int load_dir(const char *dir, const char *baseline, struct gate_set *set)
{
	json_object *meta;
	struct dataset ds;
	int b;
	bool pairs;

	if (dataset_load(&ds, dir) < 0)
		return -1;
	meta = rs_read_meta(dir);
	dataset_canonical_order(&ds, meta, baseline);
	b = baseline ? dataset_variant(&ds, baseline) : -1;
	pairs = !key(meta, RS_META_IMPORTED); /* as the report: imports are not paired */
	for (size_t i = 0; i < ds.ngroups; i++) {
		const struct ds_group *g = ds.groups[i];
		const struct ds_cell *base = b >= 0 ? ds_group_cell(g, b) : NULL;
		for (size_t c = 0; c < g->ncells; c++) {
			struct gate_entry *e = add_entry(set, g->clock, g->workload, g->metric, g->unit,
							 g->cores, ds.variants[g->cells[c].variant],
							 g->lower_is_better);
			free(e->line);
			e->line = xstrdup(g->line);
			summary_from_welford(&g->cells[c].w, &e->s);
			if (pairs && base && base != &g->cells[c])
				paired_cost(e, &g->cells[c], base);
		}
	}
	dataset_free(&ds);
	gate_set_clock(set, meta_clock(meta));
	set->meta = meta;
	return 0;
}

static bool is_number(json_object *v)
{
	return json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int);
}

/* A JSON report's paired headline, turned back into a log ratio: slowdown s% means
 * exp(+-mean_log) = 1 + s/100 (sign by direction), and se% = 100 (1 + s/100) se_log. Only
 * when the report's baseline is the one --relative names. */
static void json_cost(json_object *row, struct gate_entry *e)
{
	json_object *s = key(row, "slowdown_pct"), *se = key(row, "slowdown_stderr_pct");
	double f;

	if (!json_object_get_boolean(key(row, "paired")) || !is_number(s) || !is_number(se))
		return;
	f = 1 + json_object_get_double(s) / 100;
	if (!(f > 0))
		return;
	e->cost_paired = true;
	e->cost_pairs = json_object_get_int64(key(row, "n_pairs"));
	e->cost_log = log(f) * (e->lower_is_better ? 1 : -1);
	e->cost_se_log = json_object_get_double(se) / 100 / f;
}

/* One row of a JSON report; false when it lacks what the gate needs. */
static bool load_row(json_object *row, bool costs, struct gate_set *set)
{
	json_object *cores = key(row, "cores"), *lower = key(row, "lower_is_better");
	json_object *sd = key(row, "stddev"), *unit = key(row, "unit"), *clock = key(row, "clock");
	struct gate_entry *e;

	if (!is_text(key(row, "workload")) || !is_text(key(row, "metric")) ||
	    !is_text(key(row, "variant")) || !is_number(key(row, "n")) || !is_number(key(row, "mean")))
		return false;
	e = add_entry(set, is_text(clock) ? json_object_get_string(clock) : "host",
		      json_object_get_string(key(row, "workload")),
		      json_object_get_string(key(row, "metric")), unit ? json_object_get_string(unit) : "",
		      cores ? json_object_get_int(cores) : -1, json_object_get_string(key(row, "variant")),
		      !lower || json_object_get_boolean(lower));
	if (is_text(key(row, "kernel_line"))) {
		free(e->line);
		e->line = xstrdup(json_object_get_string(key(row, "kernel_line")));
	}
	summary_from_moments(json_object_get_int64(key(row, "n")), json_object_get_double(key(row, "mean")),
			     is_number(sd) ? json_object_get_double(sd) : NAN, &e->s);
	if (costs)
		json_cost(row, e);
	return true;
}

static int load_json(const char *path, const char *baseline, struct gate_set *set)
{
	char *text = hb_read_file(path, NULL);
	json_object *top = text ? json_tokener_parse(text) : NULL, *rows = key(top, "rows");
	json_object *base = key(top, "baseline");
	bool costs = baseline && is_text(base) && !strcmp(json_object_get_string(base), baseline);
	int rc = 0;

	if (!text)
		hb_error("cannot read %s: %s", path, strerror(errno));
	else if (!json_object_is_type(rows, json_type_array))
		hb_error("%s is not a `harness report --format json` file (no \"rows\" array)", path);
	for (size_t i = 0; rows && i < json_object_array_length(rows); i++)
		if (!load_row(json_object_array_get_idx(rows, i), costs, set))
			hb_warn("%s: rows[%zu] lacks workload, metric, variant, n or mean; ignored", path, i);
	if (!text || !json_object_is_type(rows, json_type_array))
		rc = -1;
	else {
		gate_set_clock(set, is_text(key(top, "clock")) ? json_object_get_string(key(top, "clock"))
							       : NULL);
		set->meta = json_object_get(key(top, "meta"));
	}
	json_object_put(top);
	free(text);
	return rc;
}

int gate_load(const char *path, const char *baseline, struct gate_set *set)
{
	memset(set, 0, sizeof(*set));
	if (hb_is_dir(path))
		return load_dir(path, baseline, set);
	return load_json(path, baseline, set);
}

void gate_set_free(struct gate_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		free(set->e[i].clock);
		free(set->e[i].line);
		free(set->e[i].workload);
		free(set->e[i].metric);
		free(set->e[i].unit);
		free(set->e[i].variant);
	}
	free(set->e);
	free(set->clock);
	json_object_put(set->meta);
	memset(set, 0, sizeof(*set));
}

/* Samples name their clock, so the entries decide (distinct names, sorted, so that two
 * sets of the same clocks get the same label); meta.json only speaks for an empty set. */
void gate_set_clock(struct gate_set *set, const char *meta_clock)
{
	const char **names = xcalloc(set->n + 1, sizeof(*names));
	size_t n = 0;
	char *label = NULL;

	for (size_t i = 0; i < set->n; i++) {
		bool seen = false;
		for (size_t j = 0; j < n && !seen; j++)
			seen = !strcmp(names[j], set->e[i].clock);
		if (!seen)
			names[n++] = set->e[i].clock;
	}
	hb_strv_sort((char **)names, n); /* reorders the pointers only */
	for (size_t i = 0; i < n; i++) {
		char *next = label ? xasprintf("%s+%s", label, names[i]) : xstrdup(names[i]);
		free(label);
		label = next;
	}
	free(names);
	free(set->clock);
	set->clock = label ? label : xstrdup(meta_clock ? meta_clock : "host");
}
