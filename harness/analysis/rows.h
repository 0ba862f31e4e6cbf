/* Rows of a dataset, what report and plot show: per group and variant, the summary and
 * the comparison with the baseline (and optionally with a second reference variant,
 * Axtens' "x KASAN"); and its sections (one workload at one cores under one clock).
 *
 * Two estimates of each slowdown:
 *   paired  per boot round present on both sides, the log of (variant's mean of reps /
 *           baseline's mean of reps in the same round); their mean, spread between rounds
 *           and Student's t (stats/paired.h). Drift between rounds cancels.
 *   Welch   the ratio of the two overall means, delta-method standard error, Welch's
 *           t-test and its Welch-Satterthwaite interval: today's estimate, unpaired.
 * The headline (what the one-liners, the table's slowdown, the plots and the JSON
 * "slowdown_pct"/"ci95_*" fields show) is the paired estimate when the row has at least
 * ROW_MIN_PAIRS paired rounds, else Welch's. Imported sets pair only when asked
 * (rows_opts.pair_rounds, `report --paired`): a CSV's "boot" column may number the runs
 * of each variant independently, which would pair unrelated runs. */
#ifndef HB_ANALYSIS_ROWS_H
#define HB_ANALYSIS_ROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "results/dataset.h"
#include "stats/paired.h"
#include "stats/stats.h"

/* Fewest paired rounds for a paired headline: one round has no spread, so no interval. */
#define ROW_MIN_PAIRS 2

/* One estimate of a slowdown, whichever kind: what a report line shows. */
struct row_estimate {
	double slowdown_pct;  /* positive = worse, whatever the metric's direction */
	double se_pct;
	double ci95_low_pct;  /* NAN when unknown (n < 2) */
	double ci95_high_pct;
	double p_value;
	double mde_pct;       /* smallest slowdown detectable at 80% power, alpha 0.05 */
};

enum row_status {
	ROW_OK,            /* compared with the baseline */
	ROW_IS_BASELINE,   /* the baseline itself: ratio 1, slowdown 0 */
	ROW_NO_BASELINE,   /* the group has no baseline samples */
	ROW_BASELINE_ZERO, /* baseline mean is 0: no ratio */
	/* A time that read exactly 0 on either side: the timing is shorter than its clock's
	 * step (the guest tick, for user and sys), so its values sit within a few steps of
	 * zero and neither a ratio nor an interval means anything. */
	ROW_BELOW_RESOLUTION,
	ROW_TOO_FEW_EVENTS, /* not a time: a side all zeros, or a count too small for a ratio */
};

/* "Too few events": a row of a metric that is not a time (a time's zeros are
 * ROW_BELOW_RESOLUTION) gets no estimate and no verdict (text, page, mail, json) when
 *  - either side's samples are all zero: a zero has no ratio, and "-100%" from 1 event
 *    against 0 is not a measurement (hackbench's ipi_tlb: 1 IPI in 8 boots of baseline,
 *    0 in every boot of init_on_free); or
 *  - the metric counts events (every sample on both sides a whole number >= 0, its unit
 *    given: "IPIs", "cycles") and either side counted fewer than ROW_MIN_EVENTS in all
 *    its samples.
 *    Counts that small are not normal: a Poisson count of 10 has a relative standard
 *    error of 1/sqrt(10) = 32%, so the ratio of two such counts is uncertain by 45% or
 *    more before any other noise, and per-round ratios with zeros in them drop rounds
 *    unpaired. Large counts (cycles, IPIs by the thousand) never come near it. */
#define ROW_MIN_EVENTS 10

struct group_row {
	const struct ds_group *g;
	int variant;
	struct summary s;
	struct comparison c;         /* ratio of means (Welch): ratio, slowdown, se, p */
	enum row_status status;
	double ratio_to; /* mean / mean of the ratio_to variant; NAN when absent or 0 */
	struct row_estimate welch;   /* c with its interval and MDE */
	struct paired_estimate pe;   /* rounds on both sides; n_pairs 0 when none */
	long rounds_unpaired;        /* the variant's rounds with no baseline partner (or no log) */
	bool paired;                 /* pe.n_pairs >= ROW_MIN_PAIRS: the headline is pe */
	struct row_estimate head;    /* the headline: pe when paired, else welch */
};

/* How rows are estimated. */
struct rows_opts {
	bool no_pairing; /* ignore the rounds: Welch headline everywhere (imported sets) */
};

/* A group "is per-test" (seed 004's test_vmalloc, seed 003's vmaops) when the workload's
 * metadata says per_test (workloads/<name>/workload.ini, workload_per_test_hint()); for
 * workloads the harness does not know (imported sets), when its workload and cores
 * together have at least this many metrics in one unit. No workload name is hard-coded. */
#define WIDE_MIN_METRICS 5

/* Fills out (room for ds->nvariants rows) with g's variants, baseline first.
 * ratio_to may be -1. Pairs rounds. Returns the number of rows. */
size_t group_rows(const struct dataset *ds, const struct ds_group *g, int baseline, int ratio_to,
		  struct group_row *out);
/* The same with options (opts NULL: defaults). */
size_t group_rows_opts(const struct dataset *ds, const struct ds_group *g, int baseline,
		       int ratio_to, const struct rows_opts *opts, struct group_row *out);
/* The paired estimate of cell against base over the rounds both hold; *unpaired counts
 * the cell's rounds left out (no baseline round, or a mean <= 0 with no log). */
void rows_pair_cells(const struct ds_cell *cell, const struct ds_cell *base, bool lower_is_better,
		     struct paired_estimate *out, long *unpaired);
/* The row of cell against base (fill_row's: Welch, and paired when the rounds allow),
 * where base may be any cell, of g or of another group with g's metric (a step of a
 * series against the step before it, on another kernel line). g gives the names and the
 * direction. */
void rows_compare_cells(const struct ds_group *g, const struct ds_cell *cell,
			const struct ds_cell *base, const struct rows_opts *opts, struct group_row *out);
/* Which estimate the headline of r is: "paired" or "Welch". */
const char *group_row_kind(const struct group_row *r);
/* One-line reason for a row with no comparison, or NULL. */
const char *group_row_problem(const struct group_row *r);

/* End of the section starting at ds->groups[from] (display order): the groups up to it
 * share its clock, workload and cores. */
size_t ds_section_end(const struct dataset *ds, size_t from);
/* Is the section groups[from..to) a per-test workload? The workload's metadata answers
 * when it knows the workload; else, are there enough metrics in one unit? */
bool ds_section_is_wide(struct ds_group *const *groups, size_t from, size_t to);
/* The same with the metadata's answer given: 1 or 0, or -1 for none (tests). */
bool ds_section_is_wide_hint(struct ds_group *const *groups, size_t from, size_t to, int hint);

#endif
