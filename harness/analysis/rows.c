#include "analysis/rows.h"
#include "workload/meta.h"

#include <math.h>
#include <string.h>

static void fill_row(const struct ds_group *g, const struct ds_cell *cell, const struct ds_cell *base,
		     const struct ds_cell *ref, struct group_row *r)
{
	struct summary bs, rs;

	*r = (struct group_row){ .g = g, .variant = cell->variant, .ratio_to = NAN };
	summary_from_welford(&cell->w, &r->s);
	r->c = (struct comparison){ NAN, NAN, NAN, NAN };
	if (!base) {
		r->status = ROW_NO_BASELINE;
	} else if (base == cell) {
		r->status = ROW_IS_BASELINE;
		r->c.ratio = 1;
		r->c.slowdown_pct = 0;
	} else {
		summary_from_welford(&base->w, &bs);
		r->status = stats_compare(&r->s, &bs, g->lower_is_better, &r->c) < 0 ? ROW_BASELINE_ZERO
										      : ROW_OK;
	}
	if (ref && ref != cell) {
		summary_from_welford(&ref->w, &rs);
		if (rs.mean != 0)
			r->ratio_to = r->s.mean / rs.mean;
	}
}

size_t group_rows(const struct dataset *ds, const struct ds_group *g, int baseline, int ratio_to,
		  struct group_row *out)
{
	const struct ds_cell *base = baseline >= 0 ? ds_group_cell(g, baseline) : NULL;
	const struct ds_cell *ref = ratio_to >= 0 ? ds_group_cell(g, ratio_to) : NULL;
	size_t n = 0;

	if (base)
		fill_row(g, base, base, ref, &out[n++]);
	for (size_t v = 0; v < ds->nvariants; v++) {
		const struct ds_cell *cell = ds_group_cell(g, (int)v);
		if (cell && cell != base)
			fill_row(g, cell, base, ref, &out[n++]);
	}
	return n;
}

size_t ds_section_end(const struct dataset *ds, size_t from)
{
	const struct ds_group *first = ds->groups[from];
	size_t to = from + 1;

	while (to < ds->ngroups && ds->groups[to]->cores == first->cores &&
	       !strcmp(ds->groups[to]->workload, first->workload))
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
	default:
		return NULL;
	}
}
