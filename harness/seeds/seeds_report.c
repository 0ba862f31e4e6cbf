/* --against-seeds: load the published figures, keep those --workload / --metric select,
 * match each with the run, render. */
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/xalloc.h"
#include "seeds/render.h"
#include "seeds/seeds_report.h"

static bool wanted(const struct report_opts *o, const struct seed_figure *f)
{
	char *wl = seed_sample_workload(f);
	bool ok = !o->workload || !strcmp(o->workload, f->workload) || !strcmp(o->workload, wl);

	free(wl);
	if (ok && o->metric) {
		ok = false;
		for (size_t i = 0; f->metrics[i]; i++)
			ok |= !strcmp(f->metrics[i], o->metric);
	}
	return ok;
}

/* The distinct workload (or metric) names of the figures, for "accepted: ...". */
static char *figure_names(const struct seed_data *d, bool metric)
{
	char *out = xstrdup("");

	for (size_t i = 0; i < d->n; i++) {
		if (!metric)
			seeds_add_unique(&out, d->figs[i].workload);
		for (size_t k = 0; metric && d->figs[i].metrics[k]; k++)
			seeds_add_unique(&out, d->figs[i].metrics[k]);
	}
	return out;
}

static int no_figures(const struct report_opts *o, const struct seed_data *d)
{
	bool metric = o->metric != NULL;
	char *names = figure_names(d, metric);

	if (o->workload && o->metric)
		hb_error("report: no published figure for --workload %s with --metric %s (accepted "
			 "metrics: %s)", o->workload, o->metric, names);
	else
		hb_error("report: %s: no published figure for '%s' (accepted: %s)",
			 metric ? "--metric" : "--workload", metric ? o->metric : o->workload, names);
	free(names);
	return HB_EXIT_USAGE;
}

int seeds_report_run(struct report_ctx *ctx, const char *path)
{
	struct seeds_report sr = { .ctx = ctx, .path = path };
	int rc = seeds_load(path, &sr.data);

	if (rc != HB_EXIT_OK)
		return rc;
	for (size_t i = 0; i < sr.data.n; i++)
		if (wanted(ctx->opts, &sr.data.figs[i])) {
			sr.figures++;
			seeds_match_figure(&sr, &sr.data.figs[i]);
		}
	if (!sr.figures)
		rc = no_figures(ctx->opts, &sr.data);
	else
		seeds_renderer(ctx->opts->format)(&sr);
	for (size_t i = 0; i < sr.nrows; i++)
		seeds_match_free(&sr.rows[i]);
	free(sr.rows);
	seeds_free(&sr.data);
	return rc;
}
