/* JSON and CSV reports: one record per (clock, workload, metric, cores, variant), names
 * fixed by report.h because scripts and the gate read them. Both are written from the same
 * record (row_json): CSV takes its columns, in csv_columns order, from the JSON object. */
#include <csv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/table.h"
#include "common/xalloc.h"
#include "report/render.h"
#include "report/report_ctx.h"
#include "report/report_profile.h"
#include "report/report_per_patch.h"
#include "results/jsonfmt.h"
#include "results/provenance.h"
#include "results/store.h"

static void add(json_object *o, const char *key, json_object *v)
{
	json_object_object_add(o, key, v);
}

/* One estimate's fields, each key after prefix ("" for the headline, "welch_"). */
static void estimate_json(json_object *o, const char *prefix, const struct row_estimate *e)
{
	static const char *const keys[] = { "slowdown_pct", "slowdown_stderr_pct", "p_value",
		"ci95_low_pct", "ci95_high_pct", "mde_pct" };
	const double values[] = { e->slowdown_pct, e->se_pct, e->p_value, e->ci95_low_pct,
				  e->ci95_high_pct, e->mde_pct };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char *key = xasprintf("%s%s", prefix, keys[i]);
		add(o, key, hb_json_double(values[i]));
		free(key);
	}
}

/* The headline (slowdown_pct, ..., mde_pct), how it was paired, and Welch's (welch_*). */
static void estimates_json(json_object *o, const struct group_row *r)
{
	estimate_json(o, "", &r->head);
	add(o, "paired", json_object_new_boolean(r->paired));
	add(o, "n_pairs", json_object_new_int64(r->pe.n_pairs));
	add(o, "rounds_unpaired", json_object_new_int64(r->rounds_unpaired));
	estimate_json(o, "welch_", &r->welch);
}

static json_object *row_json(const struct report_ctx *ctx, const struct group_row *r)
{
	json_object *o = json_object_new_object();
	const char *problem = group_row_problem(r);

	add(o, "workload", json_object_new_string(r->g->workload));
	add(o, "metric", json_object_new_string(r->g->metric));
	add(o, "unit", json_object_new_string(r->g->unit));
	add(o, "cores", hb_json_count(r->g->cores));
	add(o, "variant", json_object_new_string(ctx->ds.variants[r->variant]));
	add(o, "n", json_object_new_int64(r->s.n));
	add(o, "mean", hb_json_double(r->s.mean));
	add(o, "stddev", hb_json_double(r->s.stddev));
	add(o, "stddev_pop", hb_json_double(r->s.stddev_pop));
	add(o, "stderr", hb_json_double(r->s.se));
	add(o, "min", hb_json_double(r->s.min));
	add(o, "max", hb_json_double(r->s.max));
	add(o, "cv", hb_json_double(r->s.cv));
	add(o, "ratio", hb_json_double(r->c.ratio));
	estimates_json(o, r);
	add(o, "lower_is_better", json_object_new_boolean(r->g->lower_is_better));
	add(o, "clock", json_object_new_string(r->g->clock));
	add(o, "kernel_line", json_object_new_string(r->g->line));
	if (ctx->ratio_to >= 0)
		add(o, "ratio_to", hb_json_double(r->ratio_to));
	if (problem)
		add(o, "error", json_object_new_string(problem));
	return o;
}

/* Calls fn for every selected row, in display order. */
typedef void (*row_fn)(struct report_ctx *ctx, const struct group_row *r, void *arg);

static void each_row(struct report_ctx *ctx, row_fn fn, void *arg)
{
	struct group_row *rows = xcalloc(ctx->ds.nvariants, sizeof(*rows));

	for (size_t i = 0; i < ctx->ds.ngroups; i++) {
		const struct ds_group *g = ctx->ds.groups[i];
		size_t n;
		if (!report_wants(ctx, g))
			continue;
		n = group_rows_opts(&ctx->ds, g, ctx->baseline, ctx->ratio_to, &ctx->rows, rows);
		for (size_t r = 0; r < n; r++)
			fn(ctx, &rows[r], arg);
	}
	free(rows);
}

static void add_json_row(struct report_ctx *ctx, const struct group_row *r, void *arr)
{
	json_object_array_add(arr, row_json(ctx, r));
}

static void copy_meta_key(const struct report_ctx *ctx, json_object *to, const char *key)
{
	json_object *v;

	if (ctx->meta && json_object_object_get_ex(ctx->meta, key, &v))
		json_object_object_add(to, key, json_object_get(v));
}

static json_object *clocks_json(const struct dataset *ds)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < ds->nclocks; i++)
		json_object_array_add(a, json_object_new_string(ds->clocks[i]));
	return a;
}

void report_render_json(struct report_ctx *ctx)
{
	json_object *top = json_object_new_object(), *rows = json_object_new_array();
	json_object *meta = json_object_new_object(), *per_patch;
	static const char *const keys[] = { RS_META_VERSION, RS_META_CREATED, RS_META_ACCEL,
		RS_META_ACCEL_REASON, RS_META_OVERCOMMIT, RS_META_IMPORTED, RS_META_CLOCK, RS_META_QEMU, NULL };

	for (size_t i = 0; keys[i]; i++)
		copy_meta_key(ctx, meta, keys[i]);
	add(top, "run", json_object_new_string(ctx->dir));
	add(top, "baseline", json_object_new_string(ctx->ds.variants[ctx->baseline]));
	add(top, "ratio_to", ctx->ratio_to >= 0 ?
	    json_object_new_string(ctx->ds.variants[ctx->ratio_to]) : NULL);
	add(top, "samples", json_object_new_int64(ctx->ds.samples));
	add(top, "skipped", json_object_new_int64(ctx->ds.skipped));
	add(top, "clock", json_object_new_string(report_clock(ctx)));
	add(top, "clocks", clocks_json(&ctx->ds));
	add(top, "headline", json_object_new_string(report_headline_rule(ctx)));
	add(top, "meta", meta);
	each_row(ctx, add_json_row, rows);
	add(top, "rows", rows);
	if (ctx->profile) /* --profile: report_profile.c */
		add(top, "profile", report_profile_json(ctx));
	if ((per_patch = report_per_patch_json(ctx)))
		add(top, "per_patch", per_patch);
	fprintf(ctx->out, "%s\n", hb_json_pretty(top));
	json_object_put(top);
}

/* The CSV columns: the JSON record's keys in this order (ratio_to only when asked for). */
static const char *const csv_columns[] = { "workload", "metric", "unit", "cores", "variant", "n",
	"mean", "stddev", "stddev_pop", "stderr", "min", "max", "cv", "ratio", "slowdown_pct",
	"slowdown_stderr_pct", "p_value", "ci95_low_pct", "ci95_high_pct", "mde_pct", "paired",
	"n_pairs", "rounds_unpaired", "welch_slowdown_pct", "welch_slowdown_stderr_pct",
	"welch_p_value", "welch_ci95_low_pct", "welch_ci95_high_pct", "welch_mde_pct",
	"lower_is_better", "clock", "ratio_to", "error", NULL };

static bool csv_wants(const struct report_ctx *ctx, const char *column)
{
	return ctx->ratio_to >= 0 || strcmp(column, "ratio_to");
}

/* CSV cells: names quoted by libcsv's writer, numbers as their shortest exact form,
 * booleans true/false, unknown (null or absent) empty. */
static void csv_value(FILE *out, json_object *v)
{
	const char *s;

	if (!v)
		return;
	if (json_object_is_type(v, json_type_string)) {
		s = json_object_get_string(v);
		table_csv_text(out, s); /* numbers are not strings here: they stay numbers */
	} else {
		fputs(json_object_to_json_string(v), out);
	}
}

static void add_csv_row(struct report_ctx *ctx, const struct group_row *r, void *unused)
{
	json_object *o = row_json(ctx, r), *v;
	bool first = true;

	(void)unused;
	for (size_t i = 0; csv_columns[i]; i++) {
		if (!csv_wants(ctx, csv_columns[i]))
			continue;
		if (!first)
			fputc(',', ctx->out);
		first = false;
		if (json_object_object_get_ex(o, csv_columns[i], &v))
			csv_value(ctx->out, v);
		else if (!strcmp(csv_columns[i], "error"))
			csv_fwrite(ctx->out, "", 0); /* "": no error, as before */
	}
	fputc('\n', ctx->out);
	json_object_put(o);
}

void report_render_csv(struct report_ctx *ctx)
{
	bool first = true;

	for (size_t i = 0; csv_columns[i]; i++) {
		if (!csv_wants(ctx, csv_columns[i]))
			continue;
		fprintf(ctx->out, "%s%s", first ? "" : ",", csv_columns[i]);
		first = false;
	}
	fputc('\n', ctx->out);
	each_row(ctx, add_csv_row, NULL);
}
