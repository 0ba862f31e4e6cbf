/* The pieces of the HTML page (report_html.c puts them together). Internal to report/. */
#ifndef HB_REPORT_REPORT_HTML_H
#define HB_REPORT_REPORT_HTML_H

#include <stddef.h>

#include "report/conditions.h"
#include "report/report_ctx.h"

/* The conditions summary (report_html_cond.c). */
void report_html_conditions(const struct report_ctx *ctx, const struct report_conditions *c);
/* The headline table of groups gs[0..n) of one workload (report_html_headline.c): per
 * metric, vCPUs and variant the mean, cost, 95% CI, MDE, estimate and a verdict in words. */
void report_html_headline(struct report_ctx *ctx, struct ds_group *const *gs, size_t n);
/* The seeds' published figures next to this workload's cells, when it has any
 * (report_html_extra.c). */
void report_html_seeds(struct report_ctx *ctx, const struct ds_group *g);
/* The per-host figures of a set merged from several hosts; nothing otherwise. */
void report_html_hosts(struct report_ctx *ctx);
/* The verdict of a headline in words: "worse" or "better" (its 95% CI excludes 0),
 * "within noise" (it spans 0), "baseline", or why there is none. */
const char *report_verdict(const struct group_row *r);

#endif
