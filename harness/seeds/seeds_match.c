/* A published figure -> the run's cells it can be compared with (rules: seeds.h). */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "common/log.h"
#include "common/xalloc.h"
#include "seeds/seeds_report.h"

static bool has_workload(const struct dataset *ds, const char *workload)
{
	for (size_t i = 0; i < ds->ngroups; i++)
		if (!strcmp(ds->groups[i]->workload, workload))
			return true;
	return false;
}

/* Does the run have samples of workload on line? */
static bool has_line(const struct dataset *ds, const char *workload, const char *line)
{
	for (size_t i = 0; i < ds->ngroups; i++)
		if (!strcmp(ds->groups[i]->workload, workload) && !strcmp(ds->groups[i]->line, line))
			return true;
	return false;
}

/* "6.1, 6.12": the lines the run has samples of workload on. Caller frees. */
static char *lines_of(const struct dataset *ds, const char *workload)
{
	char *out = xstrdup("");

	for (size_t i = 0; i < ds->ngroups; i++)
		if (!strcmp(ds->groups[i]->workload, workload))
			seeds_add_unique(&out, ds->groups[i]->line);
	return out;
}

static bool has_metric(const struct dataset *ds, const char *workload, const char *metric)
{
	for (size_t i = 0; i < ds->ngroups; i++)
		if (!strcmp(ds->groups[i]->workload, workload) && !strcmp(ds->groups[i]->metric, metric))
			return true;
	return false;
}

/* The first candidate metric the run has for this workload, or NULL. */
static const char *pick_metric(const struct dataset *ds, const char *workload, char *const *metrics)
{
	for (size_t i = 0; metrics[i]; i++)
		if (has_metric(ds, workload, metrics[i]))
			return metrics[i];
	return NULL;
}

/* The line a figure is compared on: its own, else the run's first. */
static const char *figure_line(const struct seeds_report *sr, const struct seed_figure *f)
{
	return f->kernel_line ? f->kernel_line : seeds_measured_line(sr->ctx);
}

static struct seed_match *new_row(struct seeds_report *sr, const struct seed_figure *f,
				  const char *metric)
{
	struct seed_match *m;

	sr->rows = xgrow(sr->rows, &sr->cap, sr->nrows + 1, sizeof(*sr->rows));
	m = &sr->rows[sr->nrows++];
	*m = (struct seed_match){ .f = f, .metric = metric, .cores = -1, .line = figure_line(sr, f) };
	return m;
}

__attribute__((format(printf, 5, 6))) static void not_measured(struct seeds_report *sr,
		const struct seed_figure *f, const char *metric, enum match_status status,
		const char *fmt, ...)
{
	struct seed_match *m = new_row(sr, f, metric);
	va_list ap;

	m->status = status;
	va_start(ap, fmt);
	m->why = xvasprintf(fmt, ap);
	va_end(ap);
}

/* measured +- t(0.975, Welch's df) x its standard error. */
static void set_interval(struct seed_match *m)
{
	double df = stats_welch_df(&m->sv, &m->sb);
	double half = NAN;

	if (isfinite(df) && df > 0 && isfinite(m->measured_se))
		half = gsl_cdf_tdist_Pinv(0.975, df) * m->measured_se;
	else if (isfinite(m->measured_se) && m->measured_se == 0)
		half = 0; /* both sides repeat exactly: a point */
	m->ci_low = m->measured - half;
	m->ci_high = m->measured + half;
}

static void compare_cell(struct seeds_report *sr, const struct seed_figure *f,
			 const struct ds_group *g, int v, int b)
{
	struct seed_match *m = new_row(sr, f, g->metric);

	m->g = g;
	m->cores = g->cores;
	m->cores_exact = f->cond.cores >= 0 && g->cores == f->cond.cores;
	summary_from_welford(&ds_group_cell(g, v)->w, &m->sv);
	summary_from_welford(&ds_group_cell(g, b)->w, &m->sb);
	m->delta = m->sv.mean - m->sb.mean;
	m->delta_se = sqrt(m->sv.se * m->sv.se + m->sb.se * m->sb.se); /* NAN when n < 2 */
	if (stats_compare(&m->sv, &m->sb, g->lower_is_better, &m->c) < 0) {
		m->status = MATCH_NO_RATIO;
		m->why = xasprintf("the %s mean is 0: no ratio", f->baseline);
		return;
	}
	/* A slowdown's standard error in percent is the ratio's in hundredths. */
	m->measured = f->kind == SEED_RATIO ? m->c.ratio : m->c.slowdown_pct;
	m->measured_se = f->kind == SEED_RATIO ? m->c.slowdown_se_pct / 100 : m->c.slowdown_se_pct;
	set_interval(m);
	seed_agree(f, m->measured, m->measured_se, &m->agree);
}

/* The groups of (workload, metric) on line holding both variants, in display (cores) order. */
static size_t both_cells(const struct seeds_report *sr, const char *workload, const char *metric,
			 const char *line, int v, int b, const struct ds_group **out)
{
	const struct dataset *ds = &sr->ctx->ds;
	size_t n = 0;

	for (size_t i = 0; i < ds->ngroups; i++) {
		const struct ds_group *g = ds->groups[i];
		if (!strcmp(g->workload, workload) && !strcmp(g->metric, metric) && !strcmp(g->line, line) &&
		    ds_group_cell(g, v) && ds_group_cell(g, b))
			out[n++] = g;
	}
	return n;
}

/* The published cores if measured, else the nearest measured (ties: the smaller). */
static const struct ds_group *nearest_cores(const struct ds_group **gs, size_t n, int cores)
{
	const struct ds_group *best = gs[0];

	for (size_t i = 1; i < n; i++)
		if (abs(gs[i]->cores - cores) < abs(best->cores - cores))
			best = gs[i];
	return best;
}

static void compare_cells(struct seeds_report *sr, const struct seed_figure *f, const char *wl,
			  const char *metric, int v, int b)
{
	const struct dataset *ds = &sr->ctx->ds;
	const struct ds_group **gs = xcalloc(ds->ngroups, sizeof(*gs));
	const char *line = figure_line(sr, f);
	size_t n = both_cells(sr, wl, metric, line, v, b, gs);

	if (!n)
		not_measured(sr, f, metric, MATCH_NO_CELL, "no %s and %s samples of %s %s at the same "
			     "cores on kernel line %s", f->variant, f->baseline, wl, metric, line);
	else if (f->cond.cores >= 0)
		compare_cell(sr, f, nearest_cores(gs, n, f->cond.cores), v, b);
	else
		for (size_t i = 0; i < n; i++)
			compare_cell(sr, f, gs[i], v, b);
	free(gs);
}

static char *join_metrics(char *const *metrics)
{
	char *out = xstrdup(metrics[0]);

	for (size_t i = 1; metrics[i]; i++) {
		char *next = xasprintf("%s or %s", out, metrics[i]);
		free(out);
		out = next;
	}
	return out;
}

/* Reasons run from the broadest (the run lacks the workload, its line or a variant
 * altogether) to the narrowest (no cell at any common cores). */
void seeds_match_figure(struct seeds_report *sr, const struct seed_figure *f)
{
	const struct dataset *ds = &sr->ctx->ds;
	const char *line = figure_line(sr, f);
	char *wl = seed_sample_workload(f), *lines;
	const char *metric = pick_metric(ds, wl, f->metrics);
	int v = dataset_variant(ds, f->variant), b = dataset_variant(ds, f->baseline);
	size_t first = sr->nrows;
	bool any = false;

	if (!has_workload(ds, wl)) {
		not_measured(sr, f, f->metrics[0], MATCH_NO_WORKLOAD, "no %s samples in this run", wl);
	} else if (!has_line(ds, wl, line)) {
		lines = lines_of(ds, wl);
		not_measured(sr, f, f->metrics[0], MATCH_NO_LINE, "no %s samples on kernel line %s in "
			     "this run (it has: %s)", wl, line, lines);
		free(lines);
	} else if (v < 0) {
		not_measured(sr, f, metric ? metric : f->metrics[0], MATCH_NO_VARIANT,
			     "no such variant in this run");
	} else if (b < 0) {
		not_measured(sr, f, metric ? metric : f->metrics[0], MATCH_NO_BASELINE,
			     "no baseline variant %s in this run", f->baseline);
	} else if (!metric) {
		char *names = join_metrics(f->metrics);
		not_measured(sr, f, f->metrics[0], MATCH_NO_METRIC, "no metric %s of %s in this run",
			     names, wl);
		free(names);
	} else {
		compare_cells(sr, f, wl, metric, v, b);
	}
	for (size_t i = first; i < sr->nrows; i++)
		any = any || sr->rows[i].status == MATCH_OK;
	if (any)
		sr->measured++;
	else
		sr->unmeasured++;
	free(wl);
}

void seeds_match_free(struct seed_match *m)
{
	free(m->why);
}
