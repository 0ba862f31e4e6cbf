/* The canonical order of a result set's variants, which every table, chart and JSON list
 * follows whatever order the samples arrived in (a shuffled round puts any variant first):
 * the baseline first, then the run's plan (meta.json "plan"."variants": the --variants
 * order, or the default set as the run listed it), then the order of kernel-configs/
 * variants (sorted by name), then whatever else the set holds as first seen (imported
 * names no definition knows). */
#ifndef HB_ANALYSIS_VARIANT_ORDER_H
#define HB_ANALYSIS_VARIANT_ORDER_H

#include <json-c/json.h>

#include "results/dataset.h"

/* Renumbers ds's variants (ds->variants and every cell's index) so that baseline (NULL:
 * "baseline") comes first and then the names of order (NULL-terminated, may be NULL) in
 * that order; the rest keep their relative order after them. */
void dataset_order_variants(struct dataset *ds, const char *baseline, char *const *order);
/* The canonical order above for a set with this meta.json (may be NULL): plan, then
 * kernel-configs. NULL-terminated; hb_free_strv. */
char **variant_canonical_order(json_object *meta);
/* ds in the order of like's variants (a part of like: one host's samples of a merged set). */
void dataset_order_like(struct dataset *ds, const struct dataset *like);
/* The indexes 0..nvariants-1 with baseline (if >= 0) first and the rest in order:
 * what a table lists. On the heap (a set may hold tens of thousands of variants); free. */
int *variant_indexes_baseline_first(size_t nvariants, int baseline, size_t *n);
/* Both: what report, plot and gate call right after dataset_load. */
void dataset_canonical_order(struct dataset *ds, json_object *meta, const char *baseline);

#endif
