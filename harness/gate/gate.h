/* The CI regression gate: compares a run with a reference, per (clock, workload, metric,
 * cores, variant) present in both. A regression is a change in the bad direction (by the
 * metric's lower_is_better) that is both significant (p < alpha) and larger than
 * max_slowdown_pct; every line also shows the change's 95% confidence interval. The
 * reference is a result set directory or a `report --format json` file; both reduce to n,
 * mean and sample stddev per entry, which is all Welch's test needs.
 *
 * Absolute mode compares two sets' means: rounds of different runs have nothing in common
 * to pair, so Welch's unpaired estimate is the headline here. --relative compares each
 * set's cost against its baseline, and that cost is the report's headline: paired over
 * the set's rounds where it has them. It means something across
 * machines only under the icount clock, whose instruction counts do not depend on the
 * host. Like is compared with like: a run and a reference of different clocks (meta.json
 * "clock", each sample's "clock"; none: host) are refused, exit 2, and so are icount sets
 * of different QEMU versions (results/provenance.h). */
#ifndef HB_GATE_GATE_H
#define HB_GATE_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <json-c/json.h>

#include "stats/stats.h"

struct gate_entry {
	char *clock; /* "host" or "icount" */
	char *line;  /* kernel line (HB_DEFAULT_LINE when the set or report row names none) */
	char *workload, *metric, *unit, *variant;
	int cores; /* -1: absent */
	bool lower_is_better;
	struct summary s;
	/* --relative: its cost against the baseline of its own set, when that set measured it
	 * paired (analysis/rows.h: >= 2 rounds on both sides; imported sets never): the mean
	 * log ratio over the rounds and its standard error, the report's headline. */
	bool cost_paired;
	long cost_pairs;
	double cost_log, cost_se_log;
};

struct gate_set {
	struct gate_entry *e;
	size_t n, cap;
	char *clock; /* the entries' clocks joined by '+' ("icount", "host+icount"); with no
		      * entries, meta.json's clock name or "host" */
	json_object *meta; /* its meta.json (a JSON report's "meta"), or NULL: which QEMU */
};

enum gate_outcome { GATE_OK, GATE_REGRESSION, GATE_IMPROVEMENT, GATE_NOT_COMPARABLE };

struct gate_result {
	const struct gate_entry *run, *ref;
	enum gate_outcome outcome;
	double slowdown_pct; /* positive = worse, whatever the metric's direction */
	double ci95_low_pct; /* its 95% confidence interval; NAN when unknown */
	double ci95_high_pct;
	double p_value;
	const char *why;     /* for GATE_NOT_COMPARABLE */
	double run_ratio;    /* relative mode: variant/baseline in the run and in the reference */
	double ref_ratio;
};

struct gate_opts {
	double max_slowdown_pct; /* default 2 */
	double alpha;            /* default 0.05 */
	const char *junit;       /* NULL, or a file for JUnit XML */
	const char *relative_to; /* NULL: absolute means; else compare each variant's ratio to
				  * this baseline variant between run and reference */
};

/* Loads a result set dir or a JSON report file; with baseline (--relative), each entry's
 * paired cost against it where there is one. 0, or -1 after printing why. */
int gate_load(const char *path, const char *baseline, struct gate_set *set);
void gate_set_free(struct gate_set *set);
/* Judges one pair. */
void gate_judge(const struct gate_entry *run, const struct gate_entry *ref,
		const struct gate_opts *opts, struct gate_result *out);
/* Relative mode (gate_relative.c): e's cost against baseline in run vs in ref. */
void gate_judge_relative(const struct gate_set *run, const struct gate_set *ref,
			 const struct gate_entry *e, const char *baseline,
			 const struct gate_opts *opts, struct gate_result *out);
/* Runs the whole gate, printing one line per comparison to out. Returns HB_EXIT_OK,
 * HB_EXIT_FAIL (a regression, or an unreadable input) or HB_EXIT_USAGE (nothing in common,
 * or the two sets' clocks, or under icount their QEMU versions, differ: one line naming
 * both). */
int gate_run(const char *run, const char *ref, const struct gate_opts *opts, FILE *out);
/* Writes JUnit XML, one testcase per result. 0 or -1 after printing why. */
int gate_write_junit(const char *path, const struct gate_result *res, size_t n,
		     const struct gate_opts *opts);
/* The set's clock label (gate_set.clock) from its entries; meta_clock when it has none. */
void gate_set_clock(struct gate_set *set, const char *meta_clock);
/* "hackbench time cores=2 init_on_free" (" clock=icount" after the cores when not host).
 * Caller frees. */
char *gate_entry_name(const struct gate_entry *e);

#endif
