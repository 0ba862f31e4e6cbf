#include "analysis/per_patch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/xalloc.h"

static const char *str_of(json_object *o, const char *key)
{
	json_object *v = hb_json_get(o, key);
	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

/* A step (or the base, k = 0) of a series of kind commits: NULL when it lacks its place. */
static bool read_step(json_object *e, bool commits, int k, int of, struct pp_step *out)
{
	*out = (struct pp_step){ .step = k, .of = of, .subject = k ? str_of(e, "subject") : NULL,
				 .variant = str_of(e, "variant"), .line = str_of(e, "line"),
				 .commit = str_of(e, "commit") };
	return (commits ? out->line != NULL : out->variant != NULL) && (k == 0 || out->subject);
}

static bool read_series(const char *name, json_object *entry, struct pp_series *s)
{
	const char *kind = str_of(entry, "kind");
	json_object *steps = hb_json_get(entry, "steps");
	size_t n = steps && json_object_is_type(steps, json_type_array) ? json_object_array_length(steps) : 0;

	*s = (struct pp_series){ .name = name, .commits = kind && !strcmp(kind, "commit") };
	if (!kind || (strcmp(kind, "patch") && strcmp(kind, "commit")) || !n ||
	    !read_step(hb_json_get(entry, "base"), s->commits, 0, (int)n, &s->base))
		return false;
	s->steps = xcalloc(n, sizeof(*s->steps));
	for (size_t i = 0; i < n; i++)
		if (!read_step(json_object_array_get_idx(steps, i), s->commits, (int)i + 1, (int)n,
			       &s->steps[i])) {
			free(s->steps);
			return false;
		}
	s->n = n;
	return true;
}

struct pp_series *pp_series_read(json_object *meta, size_t *n)
{
	json_object *all = hb_json_get(hb_json_get(meta, "own_change"), "per_patch");
	struct pp_series *out = NULL;

	*n = 0;
	if (!all || !json_object_is_type(all, json_type_object))
		return NULL;
	json_object_object_foreach(all, name, entry) {
		out = xrealloc(out, (*n + 1) * sizeof(*out));
		if (read_series(name, entry, &out[*n]))
			++*n;
	}
	if (!*n) {
		free(out);
		return NULL;
	}
	return out;
}

void pp_series_free(struct pp_series *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(s[i].steps);
	free(s);
}

static const struct ds_cell *cell_of(const struct dataset *ds, const struct ds_group *g,
				     const char *variant)
{
	int v = variant ? dataset_variant(ds, variant) : -1;
	return g && v >= 0 ? ds_group_cell(g, v) : NULL;
}

/* The cells of step 0..n at (g, variant): the steps' variants in g, or variant on each
 * step's line. true when some step other than 0 was measured there. */
static bool fill_cells(const struct dataset *ds, const struct pp_series *s, const struct ds_group *g,
		       int variant, const struct ds_cell **cells)
{
	bool any = false;

	for (size_t k = 0; k <= s->n; k++) {
		const struct pp_step *st = k ? &s->steps[k - 1] : &s->base;
		cells[k] = s->commits ? cell_of(ds, ds_group_on_line(ds, g, st->line), ds->variants[variant])
				      : cell_of(ds, g, st->variant);
		any |= k > 0 && cells[k];
	}
	return any;
}

struct pp_place *pp_places(const struct dataset *ds, const struct pp_series *s, size_t *n)
{
	struct pp_place *out = NULL;
	const struct ds_cell **cells = xcalloc(s->n + 1, sizeof(*cells));

	*n = 0;
	for (size_t i = 0; i < ds->ngroups; i++) {
		const struct ds_group *g = ds->groups[i];
		/* A commit series is read from step 0's line; a patch series from each line. */
		size_t nv = s->commits ? ds->nvariants : 1;
		if (s->commits && strcmp(g->line, s->base.line))
			continue;
		for (size_t v = 0; v < nv; v++) {
			if (!fill_cells(ds, s, g, s->commits ? (int)v : -1, cells))
				continue;
			out = xrealloc(out, (*n + 1) * sizeof(*out));
			out[*n] = (struct pp_place){ .g = g, .variant = s->commits ? (int)v : -1,
						     .cells = cells };
			++*n;
			cells = xcalloc(s->n + 1, sizeof(*cells));
		}
	}
	free(cells);
	return out;
}

void pp_places_free(struct pp_place *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i].cells);
	free(p);
}

void pp_estimate(const struct pp_place *p, size_t k, const struct rows_opts *opts,
		 struct pp_estimate *out)
{
	*out = (struct pp_estimate){ .measured = p->cells[k] != NULL };
	out->own.status = out->all.status = ROW_NO_BASELINE;
	out->own.head.slowdown_pct = out->all.head.slowdown_pct = NAN;
	if (!p->cells[k])
		return;
	/* A step before it not measured: rows_compare_cells' "no baseline" row. */
	rows_compare_cells(p->g, p->cells[k], p->cells[k - 1], opts, &out->own);
	rows_compare_cells(p->g, p->cells[k], p->cells[0], opts, &out->all);
}

bool pp_same_every_round(const struct group_row *r)
{
	return r->status == ROW_OK && r->paired && r->pe.sd_log == 0 && r->pe.mean_log == 0;
}
