#include "results/dataset.h"

#include <search.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/xalloc.h"
#include "results/store.h"

/* Groups are found through a tsearch tree (libc): O(log groups) per sample. */
static int group_cmp(const void *a, const void *b)
{
	const struct ds_group *x = a, *y = b;
	int c = strcmp(x->clock, y->clock);

	if (!c)
		c = strcmp(x->line, y->line);
	if (!c)
		c = strcmp(x->workload, y->workload);
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

/* The index of name in list (first-appearance order), adding it when new. */
static size_t intern(char ***list, size_t *n, size_t *cap, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*list)[i], name))
			return i;
	*list = xgrow(*list, cap, *n + 1, sizeof(char *));
	(*list)[*n] = xstrdup(name);
	return (*n)++;
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

	g->clock = xstrdup(key->clock);
	g->ck_order = intern(&ds->clocks, &ds->nclocks, &ds->clocks_cap, key->clock);
	g->line = xstrdup(key->line);
	g->ln_order = intern(&ds->lines, &ds->nlines, &ds->lines_cap, key->line);
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
	g->cells[g->ncells] = (struct ds_cell){ .variant = variant, .whole = true };
	welford_init(&g->cells[g->ncells].w);
	return &g->cells[g->ncells++];
}

/* Index of the first round with boot >= the given one (binary search: rounds stay sorted). */
static size_t round_slot(const struct ds_cell *cell, int boot)
{
	size_t lo = 0, hi = cell->nrounds;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cell->rounds[mid].boot < boot)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The round of that boot, inserted in order when new. Runs write rounds in ascending
 * order, so the usual insert is an append. */
static struct ds_round *cell_round(struct ds_cell *cell, int boot)
{
	size_t at = round_slot(cell, boot);

	if (at < cell->nrounds && cell->rounds[at].boot == boot)
		return &cell->rounds[at];
	cell->rounds = xgrow(cell->rounds, &cell->rounds_cap, cell->nrounds + 1, sizeof(*cell->rounds));
	memmove(&cell->rounds[at + 1], &cell->rounds[at], (cell->nrounds - at) * sizeof(*cell->rounds));
	cell->rounds[at].boot = boot;
	welford_init(&cell->rounds[at].w);
	cell->nrounds++;
	return &cell->rounds[at];
}

const struct ds_round *ds_cell_round(const struct ds_cell *cell, int boot)
{
	size_t at = round_slot(cell, boot);

	return at < cell->nrounds && cell->rounds[at].boot == boot ? &cell->rounds[at] : NULL;
}

static struct ds_group *find_group(struct dataset *ds, const struct sample *s)
{
	struct ds_group key = { .clock = (char *)sample_clock(s), .line = (char *)sample_line(s),
				.workload = (char *)s->workload,
				.metric = (char *)s->metric, .cores = s->cores };
	struct ds_group **found = tfind(&key, &ds->tree, group_cmp);
	struct ds_group *g;

	if (found) {
		g = *found;
		if (strcmp(g->unit, s->unit) || g->lower_is_better != s->lower_is_better)
			g->conflicts++;
		return g;
	}
	g = new_group(ds, &key, s->unit, s->lower_is_better);
	if (!tsearch(g, &ds->tree, group_cmp))
		hb_fatal("out of memory indexing groups");
	return g;
}

void dataset_add_sample(struct dataset *ds, const struct sample *s)
{
	struct ds_group *g = find_group(ds, s);
	int v = (int)intern(&ds->variants, &ds->nvariants, &ds->variants_cap, s->variant);
	struct ds_cell *cell = group_cell(g, v);

	welford_add(&cell->w, s->value);
	cell->whole &= s->value >= 0 && s->value == floor(s->value);
	if (s->boot >= 0)
		welford_add(&cell_round(cell, s->boot)->w, s->value);
	ds->samples++;
}

void dataset_add(struct dataset *ds, const char *workload, const char *metric, const char *unit,
		 int cores, const char *variant, bool lower_is_better, double value)
{
	struct sample s = { .variant = variant, .workload = workload, .metric = metric, .unit = unit,
			    .cores = cores, .boot = -1, .rep = -1, .value = value,
			    .lower_is_better = lower_is_better };

	dataset_add_sample(ds, &s);
}

static int add_sample(const struct sample *s, void *ctx)
{
	dataset_add_sample(ctx, s);
	return 0;
}

static int display_cmp(const void *a, const void *b)
{
	const struct ds_group *x = *(struct ds_group *const *)a, *y = *(struct ds_group *const *)b;

	if (x->ck_order != y->ck_order)
		return x->ck_order < y->ck_order ? -1 : 1;
	if (x->ln_order != y->ln_order)
		return x->ln_order < y->ln_order ? -1 : 1;
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
			hb_warn("%s %s (%s clock): %ld samples disagree with the first on unit or direction; "
				"using unit '%s', %s is better", g->workload, g->metric, g->clock, g->conflicts,
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
		for (size_t c = 0; c < ds->groups[i]->ncells; c++)
			free(ds->groups[i]->cells[c].rounds);
		free(ds->groups[i]->clock);
		free(ds->groups[i]->line);
		free(ds->groups[i]->workload);
		free(ds->groups[i]->metric);
		free(ds->groups[i]->unit);
		free(ds->groups[i]->cells);
		free(ds->groups[i]);
	}
	for (size_t i = 0; i < ds->nvariants; i++)
		free(ds->variants[i]);
	for (size_t i = 0; i < ds->nclocks; i++)
		free(ds->clocks[i]);
	free(ds->clocks);
	for (size_t i = 0; i < ds->nlines; i++)
		free(ds->lines[i]);
	free(ds->lines);
	free(ds->groups);
	free(ds->variants);
	memset(ds, 0, sizeof(*ds));
}

const struct ds_group *ds_group_on_line(const struct dataset *ds, const struct ds_group *g,
					const char *line)
{
	for (size_t i = 0; i < ds->ngroups; i++) {
		const struct ds_group *o = ds->groups[i];
		if (!strcmp(o->line, line) && !strcmp(o->clock, g->clock) && o->cores == g->cores &&
		    !strcmp(o->workload, g->workload) && !strcmp(o->metric, g->metric))
			return o;
	}
	return NULL;
}

const struct ds_cell *ds_group_cell(const struct ds_group *g, int variant)
{
	for (size_t i = 0; i < g->ncells; i++)
		if (g->cells[i].variant == variant)
			return &g->cells[i];
	return NULL;
}

bool dataset_has_rounds(const struct dataset *ds)
{
	for (size_t i = 0; i < ds->ngroups; i++)
		for (size_t c = 0; c < ds->groups[i]->ncells; c++)
			if (ds->groups[i]->cells[c].nrounds)
				return true;
	return false;
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
