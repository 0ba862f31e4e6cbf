#include "analysis/rows.h"
#include "workload/meta.h"

#include <math.h>
#include <string.h>

void rows_pair_cells(const struct ds_cell *cell, const struct ds_cell *base, bool lower_is_better,
		     struct paired_estimate *out, long *unpaired)
{
	struct welford logs;
	size_t j = 0;

	welford_init(&logs);
	*unpaired = 0;
	/* Both round lists are sorted by boot: one merge walk. */
	for (size_t i = 0; i < cell->nrounds; i++) {
		const struct ds_round *v = &cell->rounds[i];
		while (j < base->nrounds && base->rounds[j].boot < v->boot)
			j++;
		if (j >= base->nrounds || base->rounds[j].boot != v->boot ||
		    paired_add(&logs, v->w.mean, base->rounds[j].w.mean) < 0)
			++*unpaired;
	}
	paired_estimate(&logs, lower_is_better, out);
}

static struct row_estimate estimate_of_paired(const struct paired_estimate *pe)
{
	return (struct row_estimate){ pe->slowdown_pct, pe->se_pct, pe->ci95_low_pct,
				      pe->ci95_high_pct, pe->p_value, pe->mde_pct };
}

static const struct row_estimate unknown = { NAN, NAN, NAN, NAN, NAN, NAN };

/* Units of time, where a reading of exactly 0 means the clock did not tick (a count of 0,
 * an IPI count say, is a real value). */
static bool time_unit(const char *unit)
{
	static const char *const units[] = { "s", "ms", "us", "usec", "ns", NULL };

	for (size_t i = 0; units[i]; i++)
		if (!strcmp(unit, units[i]))
			return true;
	return false;
}

static bool all_zero(const struct ds_cell *c)
{
	return c->w.n > 0 && c->w.min == 0 && c->w.max == 0;
}

/* The rule of ROW_TOO_FEW_EVENTS (rows.h). */
static bool too_few_events(const struct ds_group *g, const struct ds_cell *cell, const struct ds_cell *base)
{
	if (time_unit(g->unit)) /* a time's zeros are its clock's resolution (ROW_BELOW_RESOLUTION) */
		return false;
	if (all_zero(cell) || all_zero(base))
		return true;
	/* A metric without a unit (an imported CSV's) may be a time of whole seconds. */
	if (!cell->whole || !base->whole || !*g->unit)
		return false;
	return cell->w.mean * (double)cell->w.n < ROW_MIN_EVENTS ||
	       base->w.mean * (double)base->w.n < ROW_MIN_EVENTS;
}

/* The comparison of a non-baseline cell: Welch always, paired when the rounds allow. */
static void compare_row(const struct ds_group *g, const struct ds_cell *cell,
			const struct ds_cell *base, const struct rows_opts *opts, struct group_row *r)
{
	struct summary bs;

	if (too_few_events(g, cell, base)) {
		r->status = ROW_TOO_FEW_EVENTS;
		return;
	}
	summary_from_welford(&base->w, &bs);
	if (stats_compare(&r->s, &bs, g->lower_is_better, &r->c) < 0) {
		r->status = ROW_BASELINE_ZERO;
		return;
	}
	r->status = ROW_OK;
	r->welch = (struct row_estimate){ .slowdown_pct = r->c.slowdown_pct,
					  .se_pct = r->c.slowdown_se_pct, .p_value = r->c.p_value };
	stats_unpaired_interval(&r->s, &bs, &r->c, &r->welch.ci95_low_pct, &r->welch.ci95_high_pct,
				&r->welch.mde_pct);
	r->head = r->welch;
	if (opts->no_pairing)
		return;
	rows_pair_cells(cell, base, g->lower_is_better, &r->pe, &r->rounds_unpaired);
	r->paired = r->pe.n_pairs >= ROW_MIN_PAIRS;
	if (r->paired)
		r->head = estimate_of_paired(&r->pe);
}

static bool below_resolution(const struct ds_group *g, const struct ds_cell *cell,
			     const struct ds_cell *base)
{
	return time_unit(g->unit) && ((cell->w.n > 0 && cell->w.min == 0) ||
				      (base->w.n > 0 && base->w.min == 0));
}

static void fill_row(const struct ds_group *g, const struct ds_cell *cell, const struct ds_cell *base,
		     const struct ds_cell *ref, const struct rows_opts *opts, struct group_row *r)
{
	struct summary rs;

	*r = (struct group_row){ .g = g, .variant = cell->variant, .ratio_to = NAN,
				 .welch = unknown, .head = unknown };
	paired_estimate(&(struct welford){ 0 }, g->lower_is_better, &r->pe); /* all unknown */
	summary_from_welford(&cell->w, &r->s);
	r->c = (struct comparison){ NAN, NAN, NAN, NAN };
	if (!base) {
		r->status = ROW_NO_BASELINE;
	} else if (base == cell) {
		r->status = ROW_IS_BASELINE;
		r->c.ratio = 1;
		r->c.slowdown_pct = 0;
		r->head.slowdown_pct = r->welch.slowdown_pct = 0;
	} else {
		compare_row(g, cell, base, opts, r);
		if (r->status == ROW_OK && below_resolution(g, cell, base)) {
			r->status = ROW_BELOW_RESOLUTION;
			r->head = r->welch = unknown;
			r->c.ratio = NAN;
			r->paired = false;
		}
	}
	if (ref && ref != cell) {
		summary_from_welford(&ref->w, &rs);
		if (rs.mean != 0)
			r->ratio_to = r->s.mean / rs.mean;
	}
}

void rows_compare_cells(const struct ds_group *g, const struct ds_cell *cell,
			const struct ds_cell *base, const struct rows_opts *opts, struct group_row *out)
{
	static const struct rows_opts defaults = { 0 };

	fill_row(g, cell, base, NULL, opts ? opts : &defaults, out);
}

size_t group_rows_opts(const struct dataset *ds, const struct ds_group *g, int baseline,
		       int ratio_to, const struct rows_opts *opts, struct group_row *out)
{
	static const struct rows_opts defaults = { 0 };
	const struct ds_cell *base = baseline >= 0 ? ds_group_cell(g, baseline) : NULL;
	const struct ds_cell *ref = ratio_to >= 0 ? ds_group_cell(g, ratio_to) : NULL;
	size_t n = 0;

	if (!opts)
		opts = &defaults;
	if (base)
		fill_row(g, base, base, ref, opts, &out[n++]);
	for (size_t v = 0; v < ds->nvariants; v++) {
		const struct ds_cell *cell = ds_group_cell(g, (int)v);
		if (cell && cell != base)
			fill_row(g, cell, base, ref, opts, &out[n++]);
	}
	return n;
}

size_t group_rows(const struct dataset *ds, const struct ds_group *g, int baseline, int ratio_to,
		  struct group_row *out)
{
	return group_rows_opts(ds, g, baseline, ratio_to, NULL, out);
}

const char *group_row_kind(const struct group_row *r)
{
	return r->paired ? "paired" : "Welch";
}

size_t ds_section_end(const struct dataset *ds, size_t from)
{
	const struct ds_group *first = ds->groups[from];
	size_t to = from + 1;

	while (to < ds->ngroups && ds->groups[to]->cores == first->cores &&
	       !strcmp(ds->groups[to]->workload, first->workload) &&
	       !strcmp(ds->groups[to]->clock, first->clock) &&
	       !strcmp(ds->groups[to]->line, first->line))
		to++;
	return to;
}

bool ds_section_is_wide_hint(struct ds_group *const *groups, size_t from, size_t to, int hint)
{
	if (hint >= 0)
		return hint;
	for (size_t i = from; i < to; i++) {
		size_t same_unit = 0;
		for (size_t j = from; j < to; j++)
			same_unit += !strcmp(groups[i]->unit, groups[j]->unit);
		if (same_unit >= WIDE_MIN_METRICS)
			return true;
	}
	return false;
}

bool ds_section_is_wide(struct ds_group *const *groups, size_t from, size_t to)
{
	int hint = from < to ? workload_per_test_hint(groups[from]->workload) : -1;

	return ds_section_is_wide_hint(groups, from, to, hint);
}

const char *group_row_problem(const struct group_row *r)
{
	switch (r->status) {
	case ROW_NO_BASELINE:
		return "no baseline samples in this group";
	case ROW_BASELINE_ZERO:
		return "baseline mean is 0: no ratio";
	case ROW_BELOW_RESOLUTION:
		return "below the clock's resolution (a reading of 0: shorter than the clock's step)";
	case ROW_TOO_FEW_EVENTS:
		return "too few events: no ratio to judge";
	default:
		return NULL;
	}
}
