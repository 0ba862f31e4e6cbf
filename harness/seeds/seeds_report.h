/* --against-seeds, internal to seeds/: published figures matched with the run's cells,
 * the measured conditions, and what the renderers share (the renderers: render.h). */
#ifndef HB_SEEDS_SEEDS_REPORT_H
#define HB_SEEDS_SEEDS_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/view.h"
#include "seeds/seeds.h"
#include "stats/stats.h"

enum match_status {
	MATCH_OK,
	MATCH_NO_WORKLOAD, /* the run has no samples of the figure's workload */
	MATCH_NO_LINE,     /* ... on the figure's kernel line */
	MATCH_NO_METRIC,   /* ... nor any of its metrics */
	MATCH_NO_VARIANT,  /* the variant is not in the run at all (e.g. xpfo) */
	MATCH_NO_BASELINE, /* nor the baseline variant */
	MATCH_NO_CELL,     /* both are in the run, but not with this workload/metric/cores */
	MATCH_NO_RATIO,    /* the baseline mean is 0 */
};

/* One published figure against one measured cell. */
struct seed_match {
	const struct seed_figure *f;
	enum match_status status;
	char *why;      /* "not measured: ..." reason; NULL when MATCH_OK */
	const char *metric; /* the metric compared (the first candidate when none matched) */
	const char *line;   /* the kernel line compared: the figure's, else the run's first */
	const struct ds_group *g;
	int cores;      /* measured cores; -1 when unknown or not measured */
	bool cores_exact; /* measured at the published cores */
	struct summary sv, sb;  /* variant and baseline */
	double delta, delta_se; /* sv.mean - sb.mean in the metric's unit, its Welch st.err */
	struct comparison c;
	double measured, measured_se; /* in the figure's kind */
	double ci_low, ci_high; /* its 95% interval (Welch's t); NAN when a side has n < 2 */
	struct seed_agreement agree;
};

struct seeds_report {
	struct report_ctx *ctx;
	const char *path;           /* where the published figures came from */
	struct seed_data data;
	struct seed_match *rows;
	size_t nrows, cap;
	size_t figures;             /* figures selected by --workload / --metric */
	size_t measured, unmeasured;
};

/* `harness report RUN --against-seeds[=PATH]` on a loaded run (ctx: dataset and meta
 * read). Returns HB_EXIT_OK, or HB_EXIT_USAGE after one line (bad published file, or
 * --workload/--metric naming no figure). */
int seeds_report_run(struct report_ctx *ctx, const char *path);

/* Appends the comparisons of figure f (usually one; one per measured cores when the
 * published cores are unknown; one "not measured" row when there is nothing to compare). */
void seeds_match_figure(struct seeds_report *sr, const struct seed_figure *f);
void seeds_match_free(struct seed_match *m);

/* Measured conditions from meta.json ("unknown" where it says nothing). Callers free. */
char *seeds_measured_accel(const struct report_ctx *ctx);
/* The release the variant ran on the kernel line (NULL: the run's only line, old sets). */
char *seeds_measured_kernel(const struct report_ctx *ctx, const char *variant, const char *line);
/* The kernel line a figure without "kernel_line" is compared on: the run's first line
 * (meta.json plan.kernels[0], whose kernels meta.json "kernels" lists), else the samples'
 * first, else 6.1. */
const char *seeds_measured_line(const struct report_ctx *ctx);
char *seeds_measured_host(const struct report_ctx *ctx);

/* "+7.71%" or "76.55x" of a figure's kind. buf: NUMFMT_SIZE bytes. */
const char *seeds_fmt_figure(char *buf, enum seed_kind kind, double v);

/* One line instead of a table when rows[0..n) are all not measured for one reason. */
bool seeds_one_reason_line(struct seeds_report *sr, const struct seed_match *rows, size_t n, bool md);
/* One line for all figures of a workload the run lacks, at the first of them; true when
 * rows[i] is such a figure (printed now or earlier). */
bool seeds_absent_workload_line(struct seeds_report *sr, size_t i, bool md);
/* Are rows[0..n) figures with the seed's own delta columns, shown in its shape? */
bool seeds_arms_wanted(const struct seed_match *rows, size_t n);
/* Their table, text or markdown (seeds_arms.c). */
void seeds_arms_table(struct seeds_report *sr, const struct seed_match *rows, size_t n, bool md);
/* Adds name to the ", "-separated list *list unless it is there. */
void seeds_add_unique(char **list, const char *name);

#endif
