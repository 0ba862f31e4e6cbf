/* One gnuplot chart: a data file, a script made of variables + plots/common.gp + a
 * template, and a gnuplot run per format that gets all of them by descriptor. Internal
 * to plot/. */
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

/* The output folder: walked and checked once (common/safepath.h); every file is made
 * through fd, path only names it in messages. */
struct chart_dir {
	int fd;
	const char *path;
};

/* base names keep letters, digits, '.', '_', '-'; the rest becomes '_'. Caller frees. */
char *chart_file_name(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Opens <base>.dat in the output folder for writing; NULL after printing why. */
FILE *chart_open_data(const struct chart_dir *d, const struct chart *c);
/* Writes <base>.gp (for a user to rerun) and runs gnuplot once per format, unprivileged,
 * on a copy from memory. formats: "png", "svg" or "png svg". 0, or -1 after printing why. */
int chart_render(const struct chart *c, const struct chart_dir *d, const char *formats);
void chart_free(struct chart *c);

#endif
