/* The report's output formats as plug-ins (in the manner of fio's I/O engines): one
 * struct of entry points per --format name (report_format_names). A renderer reads what
 * report_ctx.h or seeds_report.h hold and writes; it never calls back into the
 * dispatchers (report.c, seeds_report.c), which pick it here. Internal to report/.
 *
 * A new format: its renderer file(s), and in render.c its name and entry points; plus its
 * value in enum report_format (report_opts.h). `harness report --format` accepts it then. */
#ifndef HB_REPORT_RENDER_H
#define HB_REPORT_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include "report/report_opts.h"

struct report_ctx;
struct seeds_report;

struct report_renderer {
	void (*report)(struct report_ctx *ctx);  /* the ordinary report */
	void (*seeds)(struct seeds_report *sr);  /* --against-seeds */
};

/* The renderer of a format; never NULL for a value of enum report_format. */
const struct report_renderer *report_renderer(enum report_format format);

/* The renderers' entry points, for render.c. */
void report_render_text(struct report_ctx *ctx, bool markdown);
void report_render_html(struct report_ctx *ctx);
void report_render_mail(struct report_ctx *ctx);
struct table;
struct group_row;
struct ds_group;
/* The long table of one group (report_text.c): a row per variant with every statistic;
 * units: value headers say "[unit]". Fills rows (room for ds.nvariants) and inits t
 * (table_free). Returns the number of rows. */
size_t report_long_table(struct report_ctx *ctx, const struct ds_group *g, bool units,
			 struct table *t, struct group_row *rows);
/* The comparison across kernel lines (report_lines.c); nothing for a one-line set. */
void report_lines_text(struct report_ctx *ctx, bool markdown);
void report_render_json(struct report_ctx *ctx);
void report_render_csv(struct report_ctx *ctx);
void seeds_render_text(struct seeds_report *sr, bool markdown);
void seeds_render_json(struct seeds_report *sr);
void seeds_render_csv(struct seeds_report *sr);
/* The seeds' text comparison as a page (report_html_extra.c). */
void seeds_render_html(struct seeds_report *sr);

#endif
