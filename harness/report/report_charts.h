/* The page's charts: `harness plot`'s SVGs (the same gnuplot scripts, plots/ templates), drawn
 * into a private temporary folder and read back to be inlined. Internal to report/. */
#ifndef HB_REPORT_REPORT_CHARTS_H
#define HB_REPORT_REPORT_CHARTS_H

#include "plot/plot.h"
#include "report/report_ctx.h"

struct report_charts {
	char *dir;             /* the temporary folder; NULL when nothing was drawn */
	struct plot_index ix;
	const char *none_why;  /* why there are no charts, or NULL */
};

/* Draws every chart of the run (quietly). Never fails: without gnuplot, none_why says so. */
void report_charts_draw(const struct report_ctx *ctx, struct report_charts *rc);
/* The <svg> element of chart ch, ready to inline; NULL when it cannot be read or holds
 * anything active (script, event handler, foreign object), which gnuplot never writes. */
char *report_chart_svg(const struct report_charts *rc, const struct plot_chart *ch);
/* Removes the temporary folder. */
void report_charts_free(struct report_charts *rc);

#endif
