/* A result set reduced to running moments: one accumulator per (workload, metric, cores,
 * variant). Loading streams samples.jsonl, so memory grows with the number of groups and
 * never with the number of samples. report, plot and gate all start from here. */
#ifndef HB_RESULTS_DATASET_H
#define HB_RESULTS_DATASET_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/stats.h"

struct ds_cell {
	int variant; /* index into dataset.variants */
	struct welford w;
};

/* One (workload, metric, cores): the unit and direction come from its first sample. */
struct ds_group {
	char *workload;
	char *metric;
	char *unit;
	int cores; /* -1: absent */
	bool lower_is_better;
	long conflicts; /* samples whose unit or direction disagreed with the first */
	struct ds_cell *cells;
	size_t ncells, cells_cap;
	size_t seq;      /* creation order */
	size_t wl_order; /* first appearance of the workload */
	size_t mt_order; /* first appearance of the metric */
};

struct dataset {
	char **variants; /* first-appearance order */
	size_t nvariants, variants_cap;
	struct ds_group **groups; /* display order after dataset_load */
	size_t ngroups, groups_cap;
	size_t nworkloads, nmetrics; /* distinct names seen, for first-appearance order */
	void *tree;   /* tsearch index of groups */
	long samples;
	long skipped;
};

/* Reads dir/samples.jsonl. 0, or -1 after printing why (unreadable file). */
int dataset_load(struct dataset *ds, const char *dir);
void dataset_free(struct dataset *ds);
/* Adds one value (used by the loader; public for tests). */
void dataset_add(struct dataset *ds, const char *workload, const char *metric, const char *unit,
		 int cores, const char *variant, bool lower_is_better, double value);
/* Puts groups in display order: workloads and metrics as first seen, cores ascending. */
void dataset_sort(struct dataset *ds);

int dataset_variant(const struct dataset *ds, const char *name); /* -1 when absent */
/* The cell of variant in g, or NULL when g has no sample of it. */
const struct ds_cell *ds_group_cell(const struct ds_group *g, int variant);
/* The baseline: name when given (-1 when absent), else "baseline", else the first. */
int dataset_pick_baseline(const struct dataset *ds, const char *name);
/* "a, b, c" of the variant names, for "accepted: ..." messages. Caller frees. */
char *dataset_variant_list(const struct dataset *ds);

#endif
