/* A result set reduced to running moments: one accumulator per (clock, workload, metric,
 * cores, variant), and inside it one per boot round (the sample's "boot"), which paired
 * estimates need (analysis/rows.h). Loading streams samples.jsonl, so memory grows with
 * the number of groups and rounds, never with the number of samples or repetitions.
 * report, plot and gate all start from here.
 *
 * The guest clock is part of a group's key: icount samples (guest instructions) and host
 * samples (wall time) never share an accumulator, and a group knows its clock. The kernel
 * line is too, in the same way: a variant is compared with its own line's baseline. */
#ifndef HB_RESULTS_DATASET_H
#define HB_RESULTS_DATASET_H

#include <stdbool.h>
#include <stddef.h>

#include "results/store.h"
#include "stats/stats.h"

/* The repetitions of one variant in one boot round. */
struct ds_round {
	int boot;         /* the samples' "boot" index */
	struct welford w;
};

struct ds_cell {
	int variant; /* index into dataset.variants */
	struct welford w;
	bool whole;  /* every sample a whole number >= 0 (what a count of events is) */
	/* Per round, ascending by boot; none for samples without a boot (imported CSVs
	 * without a boot column). */
	struct ds_round *rounds;
	size_t nrounds, rounds_cap;
};

/* One (clock, kernel line, workload, metric, cores): the unit and direction come from its first sample. */
struct ds_group {
	char *clock;      /* "host" or "icount" (sample_clock()) */
	char *line;       /* kernel line (sample_line(): HB_DEFAULT_LINE for sets from before lines) */
	char *workload;
	char *metric;
	char *unit;
	int cores; /* -1: absent */
	bool lower_is_better;
	long conflicts; /* samples whose unit or direction disagreed with the first */
	struct ds_cell *cells;
	size_t ncells, cells_cap;
	size_t seq;      /* creation order */
	size_t ck_order; /* first appearance of the clock */
	size_t ln_order; /* first appearance of the line */
	size_t wl_order; /* first appearance of the workload */
	size_t mt_order; /* first appearance of the metric */
};

struct dataset {
	char **variants; /* first-appearance order */
	size_t nvariants, variants_cap;
	struct ds_group **groups; /* display order after dataset_load */
	size_t ngroups, groups_cap;
	size_t nworkloads, nmetrics; /* distinct names seen, for first-appearance order */
	char **clocks;               /* distinct clocks, first-appearance order */
	size_t nclocks, clocks_cap;
	char **lines;                /* distinct kernel lines, first-appearance order */
	size_t nlines, lines_cap;
	void *tree;   /* tsearch index of groups */
	long samples;
	long skipped;
};

/* Reads dir/samples.jsonl. 0, or -1 after printing why (unreadable file). */
int dataset_load(struct dataset *ds, const char *dir);
void dataset_free(struct dataset *ds);
/* Adds one sample (what the loader does for every line; public for tests). */
void dataset_add_sample(struct dataset *ds, const struct sample *s);
/* The same for a host-clock sample without boot round (tests). */
void dataset_add(struct dataset *ds, const char *workload, const char *metric, const char *unit,
		 int cores, const char *variant, bool lower_is_better, double value);
/* Puts groups in display order: clocks apart (as first seen), then lines (as first
 * seen), then workloads and metrics as
 * first seen, cores ascending. */
void dataset_sort(struct dataset *ds);

int dataset_variant(const struct dataset *ds, const char *name); /* -1 when absent */
/* The cell of variant in g, or NULL when g has no sample of it. */
const struct ds_cell *ds_group_cell(const struct ds_group *g, int variant);
/* The group of g's clock, workload, metric and cores on kernel line line, or NULL. */
const struct ds_group *ds_group_on_line(const struct dataset *ds, const struct ds_group *g,
					const char *line);
/* The round of cell with that boot index, or NULL. */
const struct ds_round *ds_cell_round(const struct ds_cell *cell, int boot);
/* Does some cell of the set hold boot rounds? */
bool dataset_has_rounds(const struct dataset *ds);
/* The baseline: name when given (-1 when absent), else "baseline", else the first. */
int dataset_pick_baseline(const struct dataset *ds, const char *name);
/* "a, b, c" of the variant names, for "accepted: ..." messages. Caller frees. */
char *dataset_variant_list(const struct dataset *ds);

#endif
