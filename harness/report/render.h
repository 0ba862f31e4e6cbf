/* The report's output formats as plug-ins (in the manner of fio's I/O engines): one
 * entry point per --format name (report_format_names). A renderer reads what
 * report_ctx.h holds and writes; it never calls back into the dispatcher (report.c),
 * which picks it here. Internal to report/.
 *
 * A new format: its renderer file, its name and entry point in render.c, its seeds
 * renderer in seeds/render.c, and its value in enum report_format
 * (analysis/report_opts.h). `harness report --format` accepts it then. */
#ifndef HB_REPORT_RENDER_H
#define HB_REPORT_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/report_opts.h"

struct report_ctx;

struct report_renderer {
	void (*report)(struct report_ctx *ctx);  /* the ordinary report */
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
/* The comparison across kernel lines (report_kernel_lines.c); nothing for a one-line set. */
void report_kernel_lines_text(struct report_ctx *ctx, bool markdown);
void report_render_json(struct report_ctx *ctx);
void report_render_csv(struct report_ctx *ctx);

#endif
