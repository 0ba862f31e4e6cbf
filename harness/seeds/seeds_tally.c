/* Counting --against-seeds rows (seeds_tally.h). */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "seeds/seeds_tally.h"

/* A published effect to resolve: at least 2% (or 2% away from a ratio of 1), not called
 * noise by its author and not expected to be none here. */
static bool published_at_least_2pct(const struct seed_figure *f)
{
	return !f->noise && !f->expect_none &&
	       fabs(f->kind == SEED_RATIO ? (f->value - 1) * 100 : f->value) >= 2;
}

/* "No effect" in the figure's kind: 0%, or a ratio of 1. */
static double no_effect(const struct seed_figure *f)
{
	return f->kind == SEED_RATIO ? 1 : 0;
}

/* The measured 95% interval is known (both ends finite). */
static bool interval_known(const struct seed_match *m)
{
	return isfinite(m->ci_low) && isfinite(m->ci_high);
}

static bool interval_includes(const struct seed_match *m, double figure)
{
	return interval_known(m) && m->ci_low <= figure && figure <= m->ci_high;
}

/* The measured 95% interval excludes no effect. */
static bool interval_excludes_none(const struct seed_match *m)
{
	return interval_known(m) && !interval_includes(m, no_effect(m->f));
}

/* How far the interval reaches from no effect, in percent: what "none" was resolved to. */
static double interval_reach_pct(const struct seed_match *m)
{
	double none = no_effect(m->f), scale = m->f->kind == SEED_RATIO ? 100 : 1;
	return fmax(fabs(m->ci_low - none), fabs(m->ci_high - none)) * scale;
}

enum seeds_resolution seeds_row_resolution(const struct seed_match *m)
{
	if (m->status != MATCH_OK || !published_at_least_2pct(m->f))
		return RESOLUTION_NONE_TO_RESOLVE;
	if (interval_excludes_none(m))
		return RESOLUTION_RESOLVED;
	/* an unknown interval (one sample a side) cannot exclude anything: too wide */
	return interval_known(m) && !interval_includes(m, m->f->value) ? RESOLUTION_SMALLER
								       : RESOLUTION_TOO_WIDE;
}

static void tally_init(struct seeds_tally *t, const char *seed, const char *workload, size_t rows)
{
	*t = (struct seeds_tally){ .seed = seed, .workload = workload,
				   .none_reach_pct = xcalloc(rows + 1, sizeof(double)) };
}

static void tally_row(struct seeds_tally *t, const struct seed_match *m)
{
	enum seeds_resolution r = seeds_row_resolution(m);

	t->compared++;
	t->same += m->agree.sign == SIGN_SAME || m->agree.sign == SIGN_BOTH_NOISE;
	t->order += m->agree.sign == SIGN_SAME && m->agree.same_order;
	t->within += m->agree.sign == SIGN_SAME && m->agree.within_2x;
	t->unjudged += m->agree.sign == SIGN_NO_ERROR;
	t->big += r != RESOLUTION_NONE_TO_RESOLVE;
	t->resolved += r == RESOLUTION_RESOLVED;
	t->smaller += r == RESOLUTION_SMALLER;
	t->too_wide += r == RESOLUTION_TOO_WIDE;
	if (m->f->expect_none && interval_known(m)) {
		t->none_included += !interval_excludes_none(m);
		t->none_reach_pct[t->none_expected++] = interval_reach_pct(m);
	}
}

void seeds_tally_run(const struct seeds_report *sr, struct seeds_tally *t)
{
	tally_init(t, NULL, NULL, sr->nrows);
	for (size_t i = 0; i < sr->nrows; i++)
		if (sr->rows[i].status == MATCH_OK)
			tally_row(t, &sr->rows[i]);
}

static struct seeds_tally *find_or_add(struct seeds_tally **all, size_t *n, const struct seed_figure *f,
				       size_t rows)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*all)[i].seed, f->seed) && !strcmp((*all)[i].workload, f->workload))
			return &(*all)[i];
	*all = xrealloc(*all, (*n + 1) * sizeof(**all));
	tally_init(&(*all)[*n], f->seed, f->workload, rows);
	return &(*all)[(*n)++];
}

struct seeds_tally *seeds_tally_by_seed(const struct seeds_report *sr, size_t *n)
{
	struct seeds_tally *all = NULL;

	*n = 0;
	for (size_t i = 0; i < sr->nrows; i++)
		if (sr->rows[i].status == MATCH_OK)
			tally_row(find_or_add(&all, n, sr->rows[i].f, sr->nrows), &sr->rows[i]);
	return all;
}

void seeds_tally_free(struct seeds_tally *t)
{
	free(t->none_reach_pct);
	t->none_reach_pct = NULL;
}
