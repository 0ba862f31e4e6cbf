/* --against-seeds as JSON (one object per comparison, the published side as the data
 * file has it) and CSV (one line per comparison). Unknown numbers are null / empty. */
#include <csv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/table.h"
#include "common/xalloc.h"
#include "seeds/render.h"
#include "seeds/seeds_report.h"
#include "results/jsonfmt.h"
#include "results/store.h"

static json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static json_object *strv_json(char *const *v)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; v[i]; i++)
		json_object_array_add(a, json_object_new_string(v[i]));
	return a;
}

static json_object *published_json(const struct seed_figure *f)
{
	json_object *o = json_object_new_object(), *c = json_object_new_object();

	json_object_object_add(o, "value", hb_json_double(f->value));
	json_object_object_add(o, "stderr_pct", hb_json_double(f->stderr_pct));
	json_object_object_add(o, "noise", json_object_new_boolean(f->noise));
	json_object_object_add(o, "expect_none", str_or_null(f->expect_none));
	json_object_object_add(o, "derived", json_object_new_boolean(f->derived));
	json_object_object_add(o, "variant_value", hb_json_double(f->variant_value));
	json_object_object_add(o, "baseline_value", hb_json_double(f->baseline_value));
	json_object_object_add(o, "unit", json_object_new_string(f->unit));
	json_object_object_add(o, "delta", hb_json_double(f->delta));
	json_object_object_add(o, "per_count", hb_json_count(f->per_count));
	json_object_object_add(o, "per_item", str_or_null(f->per_item));
	json_object_object_add(o, "delta_per", hb_json_double(f->delta_per));
	json_object_object_add(o, "kernel_line", str_or_null(f->kernel_line));
	json_object_object_add(o, "note", json_object_new_string(f->note));
	json_object_object_add(o, "icount_note", str_or_null(f->icount_note));
	json_object_object_add(c, "cores", hb_json_count(f->cond.cores));
	json_object_object_add(c, "machine", json_object_new_string(f->cond.machine));
	json_object_object_add(c, "kernel", json_object_new_string(f->cond.kernel));
	json_object_object_add(c, "text", json_object_new_string(f->cond.text));
	json_object_object_add(o, "conditions", c);
	return o;
}

static json_object *measured_conditions(struct seeds_report *sr, const struct seed_match *m)
{
	json_object *c = json_object_new_object();
	char *accel = seeds_measured_accel(sr->ctx);
	char *kv = seeds_measured_kernel(sr->ctx, m->f->variant, m->line);
	char *kb = seeds_measured_kernel(sr->ctx, m->f->baseline, m->line);

	json_object_object_add(c, "cores", hb_json_count(m->cores));
	json_object_object_add(c, "accel", json_object_new_string(accel));
	json_object_object_add(c, "kernel", json_object_new_string(kv));
	json_object_object_add(c, "kernel_line", json_object_new_string(m->line));
	json_object_object_add(c, "baseline_kernel", json_object_new_string(kb));
	free(accel);
	free(kv);
	free(kb);
	return c;
}

static json_object *measured_json(struct seeds_report *sr, const struct seed_match *m)
{
	json_object *o = json_object_new_object();
	char *wl = seed_sample_workload(m->f);
	bool ok = m->status == MATCH_OK, cell = m->g != NULL;

	json_object_object_add(o, "status", json_object_new_string(ok ? "measured" : "not measured"));
	json_object_object_add(o, "why", str_or_null(m->why));
	json_object_object_add(o, "workload", json_object_new_string(wl));
	json_object_object_add(o, "metric", json_object_new_string(m->metric));
	json_object_object_add(o, "value", ok ? hb_json_double(m->measured) : NULL);
	json_object_object_add(o, "stderr", ok ? hb_json_double(m->measured_se) : NULL);
	json_object_object_add(o, "ci95_low", ok ? hb_json_double(m->ci_low) : NULL);
	json_object_object_add(o, "ci95_high", ok ? hb_json_double(m->ci_high) : NULL);
	json_object_object_add(o, "n", cell ? json_object_new_int64(m->sv.n) : NULL);
	json_object_object_add(o, "baseline_n", cell ? json_object_new_int64(m->sb.n) : NULL);
	json_object_object_add(o, "mean", cell ? hb_json_double(m->sv.mean) : NULL);
	json_object_object_add(o, "baseline_mean", cell ? hb_json_double(m->sb.mean) : NULL);
	json_object_object_add(o, "delta", cell ? hb_json_double(m->delta) : NULL);
	json_object_object_add(o, "delta_stderr", cell ? hb_json_double(m->delta_se) : NULL);
	json_object_object_add(o, "unit", cell ? json_object_new_string(m->g->unit) : NULL);
	json_object_object_add(o, "ratio", ok ? hb_json_double(m->c.ratio) : NULL);
	json_object_object_add(o, "slowdown_pct", ok ? hb_json_double(m->c.slowdown_pct) : NULL);
	json_object_object_add(o, "slowdown_stderr_pct", ok ? hb_json_double(m->c.slowdown_se_pct) : NULL);
	json_object_object_add(o, "p_value", ok ? hb_json_double(m->c.p_value) : NULL);
	json_object_object_add(o, "conditions", measured_conditions(sr, m));
	free(wl);
	return o;
}

static const char *sign_name(enum seed_sign s)
{
	static const char *const names[] = { "same", "opposite", "published within noise",
		"measured within noise", "both within noise", "no judgement (n=1)" };
	return names[s];
}

static json_object *agreement_json(const struct seed_match *m)
{
	json_object *o;

	if (m->status != MATCH_OK)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "sign", json_object_new_string(sign_name(m->agree.sign)));
	json_object_object_add(o, "factor", hb_json_double(m->agree.factor));
	json_object_object_add(o, "same_order", json_object_new_boolean(m->agree.same_order));
	json_object_object_add(o, "within_2x", json_object_new_boolean(m->agree.within_2x));
	json_object_object_add(o, "text", json_object_new_string(m->agree.text));
	return o;
}

static json_object *comparison_json(struct seeds_report *sr, const struct seed_match *m)
{
	const struct seed_figure *f = m->f;
	json_object *o = json_object_new_object();

	json_object_object_add(o, "seed", json_object_new_string(f->seed));
	json_object_object_add(o, "line", json_object_new_int64(f->line));
	json_object_object_add(o, "quote", strv_json(f->quotes));
	json_object_object_add(o, "file", json_object_new_string(f->file));
	json_object_object_add(o, "workload", json_object_new_string(f->workload));
	json_object_object_add(o, "section", str_or_null(f->section));
	json_object_object_add(o, "metric", strv_json(f->metrics));
	json_object_object_add(o, "variant", json_object_new_string(f->variant));
	json_object_object_add(o, "baseline_variant", json_object_new_string(f->baseline));
	json_object_object_add(o, "kind", json_object_new_string(f->kind == SEED_RATIO ? "ratio" : "slowdown_pct"));
	json_object_object_add(o, "published", published_json(f));
	json_object_object_add(o, "measured", measured_json(sr, m));
	json_object_object_add(o, "agreement", agreement_json(m));
	return o;
}

void seeds_render_json(struct seeds_report *sr)
{
	json_object *top = json_object_new_object(), *rows = json_object_new_array();
	json_object *meta = json_object_new_object(), *v;
	char *accel = seeds_measured_accel(sr->ctx), *host = seeds_measured_host(sr->ctx);

	json_object_object_add(meta, "accel", json_object_new_string(accel));
	if (sr->ctx->meta && json_object_object_get_ex(sr->ctx->meta, RS_META_ACCEL_REASON, &v))
		json_object_object_add(meta, "accel_reason", json_object_get(v));
	json_object_object_add(meta, "host", json_object_new_string(host));
	json_object_object_add(top, "run", json_object_new_string(sr->ctx->dir));
	json_object_object_add(top, "published", json_object_new_string(sr->path));
	json_object_object_add(top, "figures", json_object_new_int64((int64_t)sr->figures));
	json_object_object_add(top, "compared", json_object_new_int64((int64_t)sr->measured));
	json_object_object_add(top, "not_measured", json_object_new_int64((int64_t)sr->unmeasured));
	json_object_object_add(top, "samples", json_object_new_int64(sr->ctx->ds.samples));
	json_object_object_add(top, "measured_conditions", meta);
	for (size_t i = 0; i < sr->nrows; i++)
		json_object_array_add(rows, comparison_json(sr, &sr->rows[i]));
	json_object_object_add(top, "comparisons", rows);
	fprintf(sr->ctx->out, "%s\n", hb_json_pretty(top));
	json_object_put(top);
	free(accel);
	free(host);
}

static void csv_cell(FILE *out, const char *s, bool first)
{
	if (!first)
		fputc(',', out);
	table_csv_text(out, s ? s : "");
}

/* The shortest decimal that reads back the same, as the JSON report writes numbers. */
static void csv_num(FILE *out, json_object *num)
{
	fputc(',', out);
	if (num)
		fputs(json_object_to_json_string(num), out);
	json_object_put(num);
}

static void csv_row(struct seeds_report *sr, const struct seed_match *m)
{
	const struct seed_figure *f = m->f;
	FILE *out = sr->ctx->out;
	char *kv = seeds_measured_kernel(sr->ctx, f->variant, m->line), *accel = seeds_measured_accel(sr->ctx);
	bool ok = m->status == MATCH_OK;

	csv_cell(out, f->seed, true);
	fprintf(out, ",%ld", f->line);
	csv_cell(out, f->workload, false);
	csv_cell(out, f->section, false);
	csv_cell(out, m->metric, false);
	csv_cell(out, f->variant, false);
	csv_cell(out, f->baseline, false);
	csv_cell(out, f->kind == SEED_RATIO ? "ratio" : "slowdown_pct", false);
	csv_num(out, hb_json_double(f->value));
	csv_num(out, hb_json_double(f->stderr_pct));
	csv_num(out, hb_json_count(f->cond.cores));
	csv_cell(out, ok ? "measured" : "not measured", false);
	csv_cell(out, m->why, false);
	csv_num(out, hb_json_double(ok ? m->measured : NAN));
	csv_num(out, hb_json_double(ok ? m->measured_se : NAN));
	csv_num(out, hb_json_count(m->cores));
	csv_num(out, hb_json_count(m->g ? m->sv.n : -1));
	csv_num(out, hb_json_count(m->g ? m->sb.n : -1));
	csv_cell(out, accel, false);
	csv_cell(out, kv, false);
	csv_cell(out, ok ? m->agree.text : "", false);
	csv_cell(out, m->line, false);
	fputc('\n', out);
	free(kv);
	free(accel);
}

void seeds_render_csv(struct seeds_report *sr)
{
	fputs("seed,line,workload,section,metric,variant,baseline_variant,kind,published,"
	      "published_stderr_pct,published_cores,status,why,measured,measured_stderr,"
	      "measured_cores,n,baseline_n,accel,kernel,agreement,kernel_line\n", sr->ctx->out);
	for (size_t i = 0; i < sr->nrows; i++)
		csv_row(sr, &sr->rows[i]);
}
