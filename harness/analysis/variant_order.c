/* The canonical variant order (variant_order.h). kernel-configs/ is read for its variant
 * names through configs/ (the definitions' readers, below the builder), as the seeds read
 * the definitions themselves. */
#include "analysis/variant_order.h"

#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/xalloc.h"
#include "configs/kconfigs.h"

/* Where name goes: its place in order, or after all of them. */
static size_t rank_of(const char *name, const char *baseline, char *const *order)
{
	size_t n = 0;

	if (!strcmp(name, baseline))
		return 0;
	for (; order && order[n]; n++)
		if (!strcmp(order[n], name))
			return n + 1;
	return n + 1;
}

static int by_variant(const void *a, const void *b)
{
	const struct ds_cell *x = a, *y = b;
	return (x->variant > y->variant) - (x->variant < y->variant);
}

void dataset_order_variants(struct dataset *ds, const char *baseline, char *const *order)
{
	size_t n = ds->nvariants;
	size_t *rank = xcalloc(n ? n : 1, sizeof(*rank));
	int *new_of = xcalloc(n ? n : 1, sizeof(*new_of));
	char **sorted = xcalloc(n ? n : 1, sizeof(*sorted));
	size_t placed = 0;

	for (size_t v = 0; v < n; v++)
		rank[v] = rank_of(ds->variants[v], baseline ? baseline : "baseline", order);
	/* A stable selection by rank: variants are few (a dozen), and equal ranks (names
	 * no list knows) keep their first-seen order. */
	for (size_t r = 0; placed < n; r++)
		for (size_t v = 0; v < n; v++)
			if (rank[v] == r) {
				new_of[v] = (int)placed;
				sorted[placed++] = ds->variants[v];
			}
	if (n) /* an empty set (every line corrupt) has no variants array at all */
		memcpy(ds->variants, sorted, n * sizeof(*sorted));
	/* The cells too, for code that walks a group's cells rather than its variants. */
	for (size_t i = 0; i < ds->ngroups; i++) {
		struct ds_group *g = ds->groups[i];
		for (size_t c = 0; c < g->ncells; c++)
			g->cells[c].variant = new_of[g->cells[c].variant];
		qsort(g->cells, g->ncells, sizeof(*g->cells), by_variant);
	}
	free(sorted);
	free(new_of);
	free(rank);
}

static void push_new(struct hb_strv *out, const char *name)
{
	if (!out->v || !hb_strv_contains(out->v, name))
		hb_strv_push(out, xstrdup(name));
}

char **variant_canonical_order(json_object *meta)
{
	struct hb_strv out = { 0 };
	json_object *plan = NULL, *planned = NULL;
	char **known = config_list_variants();

	if (meta && json_object_object_get_ex(meta, "plan", &plan) &&
	    json_object_object_get_ex(plan, "variants", &planned) &&
	    json_object_is_type(planned, json_type_array))
		for (size_t i = 0; i < json_object_array_length(planned); i++) {
			json_object *name = json_object_array_get_idx(planned, i);
			if (json_object_is_type(name, json_type_string))
				push_new(&out, json_object_get_string(name));
		}
	for (size_t i = 0; known && known[i]; i++)
		push_new(&out, known[i]);
	hb_free_strv(known);
	return out.v ? out.v : xcalloc(1, sizeof(char *));
}

void dataset_canonical_order(struct dataset *ds, json_object *meta, const char *baseline)
{
	char **order = variant_canonical_order(meta);

	dataset_order_variants(ds, baseline, order);
	hb_free_strv(order);
}

void dataset_order_like(struct dataset *ds, const struct dataset *like)
{
	char **order = xcalloc(like->nvariants + 1, sizeof(*order));

	memcpy(order, like->variants, like->nvariants * sizeof(*order));
	dataset_order_variants(ds, like->nvariants ? like->variants[0] : NULL, order);
	free(order);
}

int *variant_indexes_baseline_first(size_t nvariants, int baseline, size_t *n)
{
	int *order = xcalloc(nvariants + 1, sizeof(int));

	*n = 0;
	if (baseline >= 0)
		order[(*n)++] = baseline;
	for (size_t v = 0; v < nvariants; v++)
		if ((int)v != baseline)
			order[(*n)++] = (int)v;
	return order;
}
