/* Charts of a result set, drawn by gnuplot (run through fork/exec, never a shell). Each
 * chart leaves NAME.gp and NAME.dat next to NAME.png / NAME.svg, so a user can edit the
 * script and rerun `gnuplot NAME.gp` in that folder. The scripts are built from the
 * templates in plots/ (common.gp + one per kind):
 *   slowdown-<workload>-<metric>   slowdown % per variant, 95% CI bars, a bar per cores value
 *   cores-<workload>-<metric>      slowdown % vs vCPU count, when there are several
 *   ratios-<workload>[-c<cores>]   per-test "x baseline" ratios of per-test workloads
 *                                  (the report's wide tables, analysis/rows.h WIDE_MIN_METRICS) */
#ifndef HB_PLOT_PLOT_H
#define HB_PLOT_PLOT_H

#include <stdbool.h>
#include <stddef.h>

/* One chart drawn, for callers that embed them (the HTML page, report/report_charts.c). */
struct plot_chart {
	char *base;     /* file name without extension, in the output folder */
	const char *kind; /* "slowdown", "cores" or "ratios" */
	char *clock, *line, *workload;
	char *metric;   /* NULL for a per-test ratios chart */
	int cores;      /* a ratios chart's vCPUs; -1 otherwise */
};

struct plot_index {
	struct plot_chart *charts;
	size_t n, cap;
};

struct plot_opts {
	const char *out_dir;  /* NULL: <run>/plots */
	const char *format;   /* "png", "svg" or "both" (NULL: both) */
	const char *baseline; /* NULL: "baseline", else the first variant */
	bool quiet;           /* no file names on stdout, no summary line */
	struct plot_index *index; /* NULL, or filled with every chart drawn */
};

void plot_index_free(struct plot_index *ix);

/* Draws every chart. Returns HB_EXIT_OK, HB_EXIT_FAIL (unreadable set, gnuplot missing or
 * failing) or HB_EXIT_USAGE (unknown baseline, after one line naming it). Never exits. */
int plot_run(const char *dir, const struct plot_opts *opts);
/* plot_run with the default baseline, for in-process callers (`harness run`). */
int plot_run_dir(const char *dir, const char *out_dir, const char *fmt);

#endif
