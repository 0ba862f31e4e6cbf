/* The seeds' published figures (workloads/<workload>/published.json) and their comparison
 * with a result set: `harness report RUN --against-seeds[=PATH]`.
 *
 * published.json:
 *   {"about": "...", "icount_note": "...", "figures": [FIGURE, ...]}
 * The file's "icount_note" (optional) is that of every figure without its own.
 * FIGURE (keys marked * are required; unknown keys are errors, so typos are caught):
 *   *"seed"             "001": the list mail, /work/shared/seeds/<seed>_*.txt
 *   *"line"             its line where the figure appears (1 when the mail is one line)
 *   *"quote"            the text found on that line, or an array of such texts
 *   *"workload"         the workload (the folder's name)
 *    "section"          the sample workload is "<workload>-<section>" (test_vmalloc modes)
 *   *"metric"           a metric name, or an array of candidates: the first one the run has
 *   *"variant"          the variant the figure is about (it may not exist here: "xpfo")
 *   *"baseline_variant" what it was compared with
 *   *"kind"             "slowdown_pct" (+7.71 means 7.71% more) or "ratio" (variant/baseline)
 *   *"value"            the figure as published
 *    "stderr_pct"       the published standard error of a slowdown_pct
 *    "noise"            true when the author called the effect noise
 *    "expect_none"      why this comparison should show no effect although a difference
 *                       was published: the author claims none ("the same level as with
 *                       init_on_alloc disabled", the published gap being one run of each),
 *                       or the kernel compared replaced the design the seed measured. The
 *                       row is judged against no effect, and the report counts it apart
 *                       from the rows whose published effect is to be resolved.
 *    "derived"          true when we computed the figure from published raw values
 *    "variant_value", "baseline_value", "unit": the published raw values behind the figure
 *    "delta"            variant_value - baseline_value as the seed printed it (needs both)
 *    "per_count", "per_item", "delta_per": the raw values cover per_count items ("VMA"), and
 *                       the seed printed the delta per item (all three together, with delta)
 *    "kernel_line"      the kernel line the figure is compared on ("6.12"); absent: the
 *                       run's first line (seeds_measured_line)
 *    "note"             one line for the reader
 *    "icount_note"      why the figure measures differently under the icount clock,
 *                       printed when a comparison under icount does not agree within 2x
 *   *"conditions"       {*"cores": N or null, *"machine": "...", *"kernel": "...", "text": "..."}
 *
 * Figures with a "delta" come from a seed that printed both arms and their difference
 * (seed 003's "t t_mseal delta_ns per_vma %"); the text report shows them in that shape,
 * published next to measured (seeds_arms.c).
 *
 * Matching (data-driven, tolerant): a figure's cell is the run's group with the sample
 * workload, the first candidate metric the run has, and cores: the published cores when
 * the run has them, else the nearest the run has (ties: the smaller); with cores null,
 * every cores the run measured (one comparison each). Only groups of the figure's kernel
 * line are compared: a figure is never matched across lines. */
#ifndef HB_SEEDS_SEEDS_H
#define HB_SEEDS_SEEDS_H

#include <stdbool.h>
#include <stddef.h>

enum seed_kind { SEED_SLOWDOWN_PCT, SEED_RATIO };

struct seed_conditions {
	int cores; /* -1: not stated */
	char *machine;
	char *kernel;
	char *text; /* "" when absent */
};

struct seed_figure {
	char *file;   /* the published.json it came from */
	size_t index; /* 1-based position in its "figures" */
	char *seed;
	long line;
	char **quotes;  /* NULL-terminated */
	char *workload;
	char *section;  /* NULL when absent */
	char **metrics; /* NULL-terminated candidates, at least one */
	char *variant;
	char *baseline;
	enum seed_kind kind;
	double value;
	double stderr_pct;                    /* NAN when not published */
	double variant_value, baseline_value; /* NAN when not published */
	char *unit;                           /* "" when absent */
	double delta, delta_per;              /* NAN when not published */
	long per_count;                       /* -1 when not published */
	char *per_item;                       /* NULL when not published */
	char *kernel_line;                    /* NULL: the run's first line */
	bool noise;
	bool derived;
	char *expect_none; /* NULL when absent */
	char *note; /* "" when absent */
	char *icount_note; /* NULL when absent */
	struct seed_conditions cond;
};

struct seed_data {
	struct seed_figure *figs;
	size_t n;
	size_t files;
};

/* Loads path: one published.json, or a folder whose subfolders may hold one each (then a
 * figure's workload must be its folder's name). 0; or, for a missing or broken file, one
 * line naming the file, figure and key and what is accepted, then HB_EXIT_USAGE. */
int seeds_load(const char *path, struct seed_data *out);
void seeds_free(struct seed_data *d);

/* The workload name of the figure's samples: "<workload>-<section>" or "<workload>".
 * Caller frees. */
char *seed_sample_workload(const struct seed_figure *f);

/* Published vs measured, in the figure's kind: how the two agree. */
enum seed_sign {
	SIGN_SAME,
	SIGN_OPPOSITE,
	SIGN_PUBLISHED_NOISE, /* the published effect is within its noise */
	SIGN_MEASURED_NOISE,  /* the measured effect is within 2 standard errors of none */
	SIGN_BOTH_NOISE,
	SIGN_NO_ERROR,        /* one sample on a side (n=1): no error estimate, no judgement */
};

struct seed_agreement {
	enum seed_sign sign;
	double factor;        /* measured effect / published effect; NAN when undefined */
	bool same_order;      /* factor within 10x either way */
	bool within_2x;       /* factor within 2x either way (same sign) */
	char text[160];       /* "same sign, same order of magnitude (measured effect 1.11x)" */
};

/* measured and published are in the figure's kind (percent for SEED_SLOWDOWN_PCT, a
 * ratio for SEED_RATIO); measured_se in the same unit (NAN when unknown). The effect of a
 * slowdown is the percentage, of a ratio its distance from 1. */
void seed_agree(const struct seed_figure *f, double measured, double measured_se,
		struct seed_agreement *out);

#endif
