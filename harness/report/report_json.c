/* JSON and CSV reports: one record per (workload, metric, cores, variant), names fixed by
 * report.h because scripts and the gate read them. */
#include <csv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "report/render.h"
#include "report/report_ctx.h"
#include "results/jsonfmt.h"
#include "results/store.h"

static json_object *row_json(const struct report_ctx *ctx, const struct group_row *r)
{
	json_object *o = json_object_new_object();
	const char *problem = group_row_problem(r);

	json_object_object_add(o, "workload", json_object_new_string(r->g->workload));
	json_object_object_add(o, "metric", json_object_new_string(r->g->metric));
	json_object_object_add(o, "unit", json_object_new_string(r->g->unit));
	json_object_object_add(o, "cores", hb_json_count(r->g->cores));
	json_object_object_add(o, "variant", json_object_new_string(ctx->ds.variants[r->variant]));
	json_object_object_add(o, "n", json_object_new_int64(r->s.n));
	json_object_object_add(o, "mean", hb_json_double(r->s.mean));
	json_object_object_add(o, "stddev", hb_json_double(r->s.stddev));
	json_object_object_add(o, "stddev_pop", hb_json_double(r->s.stddev_pop));
	json_object_object_add(o, "stderr", hb_json_double(r->s.se));
	json_object_object_add(o, "min", hb_json_double(r->s.min));
	json_object_object_add(o, "max", hb_json_double(r->s.max));
	json_object_object_add(o, "cv", hb_json_double(r->s.cv));
	json_object_object_add(o, "ratio", hb_json_double(r->c.ratio));
	json_object_object_add(o, "slowdown_pct", hb_json_double(r->c.slowdown_pct));
	json_object_object_add(o, "slowdown_stderr_pct", hb_json_double(r->c.slowdown_se_pct));
	json_object_object_add(o, "p_value", hb_json_double(r->c.p_value));
	json_object_object_add(o, "lower_is_better", json_object_new_boolean(r->g->lower_is_better));
	if (ctx->ratio_to >= 0)
		json_object_object_add(o, "ratio_to", hb_json_double(r->ratio_to));
	if (problem)
		json_object_object_add(o, "error", json_object_new_string(problem));
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
		n = group_rows(&ctx->ds, g, ctx->baseline, ctx->ratio_to, rows);
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

void report_render_json(struct report_ctx *ctx)
{
	json_object *top = json_object_new_object(), *rows = json_object_new_array();
	json_object *meta = json_object_new_object();
	static const char *const keys[] = { RS_META_VERSION, RS_META_CREATED, RS_META_ACCEL,
		RS_META_ACCEL_REASON, RS_META_OVERCOMMIT, RS_META_IMPORTED, NULL };

	for (size_t i = 0; keys[i]; i++)
		copy_meta_key(ctx, meta, keys[i]);
	json_object_object_add(top, "run", json_object_new_string(ctx->dir));
	json_object_object_add(top, "baseline", json_object_new_string(ctx->ds.variants[ctx->baseline]));
	json_object_object_add(top, "ratio_to", ctx->ratio_to >= 0 ?
			       json_object_new_string(ctx->ds.variants[ctx->ratio_to]) : NULL);
	json_object_object_add(top, "samples", json_object_new_int64(ctx->ds.samples));
	json_object_object_add(top, "skipped", json_object_new_int64(ctx->ds.skipped));
	json_object_object_add(top, "meta", meta);
	each_row(ctx, add_json_row, rows);
	json_object_object_add(top, "rows", rows);
	fprintf(ctx->out, "%s\n", hb_json_pretty(top));
	json_object_put(top);
}

/* CSV cells: names quoted by libcsv's writer, numbers as their shortest exact form. */
static void csv_text(FILE *out, const char *s, bool first)
{
	if (!first)
		fputc(',', out);
	csv_fwrite(out, s, strlen(s));
}

static void csv_number(FILE *out, json_object *num)
{
	fputc(',', out);
	if (num)
		fputs(json_object_to_json_string(num), out);
	json_object_put(num);
}

static void add_csv_row(struct report_ctx *ctx, const struct group_row *r, void *unused)
{
	FILE *out = ctx->out;
	const char *problem = group_row_problem(r);

	(void)unused;
	csv_text(out, r->g->workload, true);
	csv_text(out, r->g->metric, false);
	csv_text(out, r->g->unit, false);
	csv_number(out, hb_json_count(r->g->cores));
	csv_text(out, ctx->ds.variants[r->variant], false);
	csv_number(out, json_object_new_int64(r->s.n));
	csv_number(out, hb_json_double(r->s.mean));
	csv_number(out, hb_json_double(r->s.stddev));
	csv_number(out, hb_json_double(r->s.stddev_pop));
	csv_number(out, hb_json_double(r->s.se));
	csv_number(out, hb_json_double(r->s.min));
	csv_number(out, hb_json_double(r->s.max));
	csv_number(out, hb_json_double(r->s.cv));
	csv_number(out, hb_json_double(r->c.ratio));
	csv_number(out, hb_json_double(r->c.slowdown_pct));
	csv_number(out, hb_json_double(r->c.slowdown_se_pct));
	csv_number(out, hb_json_double(r->c.p_value));
	fputs(r->g->lower_is_better ? ",true" : ",false", out);
	if (ctx->ratio_to >= 0)
		csv_number(out, hb_json_double(r->ratio_to));
	csv_text(out, problem ? problem : "", false);
	fputc('\n', out);
}

void report_render_csv(struct report_ctx *ctx)
{
	fputs("workload,metric,unit,cores,variant,n,mean,stddev,stddev_pop,stderr,min,max,cv,"
	      "ratio,slowdown_pct,slowdown_stderr_pct,p_value,lower_is_better", ctx->out);
	if (ctx->ratio_to >= 0)
		fputs(",ratio_to", ctx->out);
	fputs(",error\n", ctx->out);
	each_row(ctx, add_csv_row, NULL);
}
