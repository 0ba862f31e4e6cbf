/* One gnuplot chart: a data file, a script made of variables + plots/common.gp + a
 * template, and a gnuplot run in the output folder. Internal to plot/. */
#ifndef HB_PLOT_CHART_H
#define HB_PLOT_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct chart {
	const char *template; /* "slowdown", "cores" or "ratios": plots/<template>.gp */
	char *base;           /* file name without extension */
	char *title;
	char *xlabel;
	char *ylabel;
	char **series;        /* legend entries */
	size_t nseries;
	char *xtics;          /* cores charts: "(2, 6, 12, 24)" */
	int width;            /* pixels; 0: 900 */
	int height;           /* pixels; 0: 560 */
	int bmargin;          /* bottom margin in characters for long rotated tics; 0: auto */
	bool all_positive;    /* no negative values: the y axis starts at 0 */
	size_t points;        /* finite values in the data: none, nothing to draw */
};

/* base names keep letters, digits, '.', '_', '-'; the rest becomes '_'. Caller frees. */
char *chart_file_name(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Opens <out_dir>/<base>.dat for writing; NULL after printing why. */
FILE *chart_open_data(const char *out_dir, const struct chart *c);
/* Writes <base>.gp and runs gnuplot on it. formats: "png", "svg" or "png svg".
 * 0, or -1 after printing why. */
int chart_render(const struct chart *c, const char *out_dir, const char *formats);
void chart_free(struct chart *c);

#endif
