#include "results/dataset.h"

#include <search.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/xalloc.h"
#include "results/store.h"

/* Groups are found through a tsearch tree (libc): O(log groups) per sample. */
static int group_cmp(const void *a, const void *b)
{
	const struct ds_group *x = a, *y = b;
	int c = strcmp(x->workload, y->workload);

	if (!c)
		c = strcmp(x->metric, y->metric);
	if (!c)
		c = (x->cores > y->cores) - (x->cores < y->cores);
	return c;
}

int dataset_variant(const struct dataset *ds, const char *name)
{
	for (size_t i = 0; i < ds->nvariants; i++)
		if (!strcmp(ds->variants[i], name))
			return (int)i;
	return -1;
}

static int intern_variant(struct dataset *ds, const char *name)
{
	int v = dataset_variant(ds, name);

	if (v >= 0)
		return v;
	ds->variants = xgrow(ds->variants, &ds->variants_cap, ds->nvariants + 1, sizeof(char *));
	ds->variants[ds->nvariants] = xstrdup(name);
	return (int)ds->nvariants++;
}

/* First-appearance ranks of the group's workload and metric (groups are few: a scan). */
static void rank_names(struct dataset *ds, struct ds_group *g)
{
	bool wl_seen = false, mt_seen = false;

	for (size_t i = 0; i < ds->ngroups; i++) {
		if (!wl_seen && !strcmp(ds->groups[i]->workload, g->workload)) {
			g->wl_order = ds->groups[i]->wl_order;
			wl_seen = true;
		}
		if (!mt_seen && !strcmp(ds->groups[i]->metric, g->metric)) {
			g->mt_order = ds->groups[i]->mt_order;
			mt_seen = true;
		}
	}
	if (!wl_seen)
		g->wl_order = ds->nworkloads++;
	if (!mt_seen)
		g->mt_order = ds->nmetrics++;
}

static struct ds_group *new_group(struct dataset *ds, const struct ds_group *key, const char *unit,
				  bool lower_is_better)
{
	struct ds_group *g = xcalloc(1, sizeof(*g));

	g->workload = xstrdup(key->workload);
	g->metric = xstrdup(key->metric);
	g->unit = xstrdup(unit);
	g->cores = key->cores;
	g->lower_is_better = lower_is_better;
	g->seq = ds->ngroups;
	rank_names(ds, g);
	ds->groups = xgrow(ds->groups, &ds->groups_cap, ds->ngroups + 1, sizeof(*ds->groups));
	ds->groups[ds->ngroups++] = g;
	return g;
}

static struct ds_cell *group_cell(struct ds_group *g, int variant)
{
	for (size_t i = 0; i < g->ncells; i++)
		if (g->cells[i].variant == variant)
			return &g->cells[i];
	g->cells = xgrow(g->cells, &g->cells_cap, g->ncells + 1, sizeof(*g->cells));
	g->cells[g->ncells].variant = variant;
	welford_init(&g->cells[g->ncells].w);
	return &g->cells[g->ncells++];
}

void dataset_add(struct dataset *ds, const char *workload, const char *metric, const char *unit,
		 int cores, const char *variant, bool lower_is_better, double value)
{
	struct ds_group key = { .workload = (char *)workload, .metric = (char *)metric, .cores = cores };
	struct ds_group **found = tfind(&key, &ds->tree, group_cmp);
	struct ds_group *g;

	if (found) {
		g = *found;
		if (strcmp(g->unit, unit) || g->lower_is_better != lower_is_better)
			g->conflicts++;
	} else {
		g = new_group(ds, &key, unit, lower_is_better);
		if (!tsearch(g, &ds->tree, group_cmp))
			hb_fatal("out of memory indexing groups");
	}
	welford_add(&group_cell(g, intern_variant(ds, variant))->w, value);
	ds->samples++;
}

static int add_sample(const struct sample *s, void *ctx)
{
	dataset_add(ctx, s->workload, s->metric, s->unit, s->cores, s->variant, s->lower_is_better,
		    s->value);
	return 0;
}

static int display_cmp(const void *a, const void *b)
{
	const struct ds_group *x = *(struct ds_group *const *)a, *y = *(struct ds_group *const *)b;

	if (x->wl_order != y->wl_order)
		return x->wl_order < y->wl_order ? -1 : 1;
	if (x->cores != y->cores)
		return x->cores < y->cores ? -1 : 1;
	if (x->mt_order != y->mt_order)
		return x->mt_order < y->mt_order ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

void dataset_sort(struct dataset *ds)
{
	if (ds->ngroups)
		qsort(ds->groups, ds->ngroups, sizeof(*ds->groups), display_cmp);
}

static void warn_conflicts(const struct dataset *ds)
{
	for (size_t i = 0; i < ds->ngroups; i++) {
		const struct ds_group *g = ds->groups[i];
		if (g->conflicts)
			hb_warn("%s %s: %ld samples disagree with the first on unit or direction; "
				"using unit '%s', %s is better", g->workload, g->metric, g->conflicts,
				g->unit, g->lower_is_better ? "lower" : "higher");
	}
}

int dataset_load(struct dataset *ds, const char *dir)
{
	long good;

	memset(ds, 0, sizeof(*ds));
	good = rs_read_samples_progress(dir, add_sample, ds, &ds->skipped, "reading samples");
	if (good < 0)
		return -1;
	dataset_sort(ds);
	warn_conflicts(ds);
	return 0;
}

static void no_free(void *p)
{
	(void)p; /* groups are owned by ds->groups */
}

void dataset_free(struct dataset *ds)
{
	tdestroy(ds->tree, no_free);
	for (size_t i = 0; i < ds->ngroups; i++) {
		free(ds->groups[i]->workload);
		free(ds->groups[i]->metric);
		free(ds->groups[i]->unit);
		free(ds->groups[i]->cells);
		free(ds->groups[i]);
	}
	for (size_t i = 0; i < ds->nvariants; i++)
		free(ds->variants[i]);
	free(ds->groups);
	free(ds->variants);
	memset(ds, 0, sizeof(*ds));
}

const struct ds_cell *ds_group_cell(const struct ds_group *g, int variant)
{
	for (size_t i = 0; i < g->ncells; i++)
		if (g->cells[i].variant == variant)
			return &g->cells[i];
	return NULL;
}

int dataset_pick_baseline(const struct dataset *ds, const char *name)
{
	int v;

	if (name)
		return dataset_variant(ds, name);
	v = dataset_variant(ds, "baseline");
	return v >= 0 || !ds->nvariants ? v : 0;
}

char *dataset_variant_list(const struct dataset *ds)
{
	size_t len = 1;
	char *out;

	for (size_t i = 0; i < ds->nvariants; i++)
		len += strlen(ds->variants[i]) + 2;
	out = xcalloc(1, len);
	for (size_t i = 0; i < ds->nvariants; i++) {
		if (i)
			strcat(out, ", ");
		strcat(out, ds->variants[i]);
	}
	return out;
}
