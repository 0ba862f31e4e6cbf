/* The seeds comparison in each report format (seeds/render.c picks one). A renderer reads
 * what seeds_report.h holds and writes; it never calls back into seeds_report.c. */
#ifndef HB_SEEDS_RENDER_H
#define HB_SEEDS_RENDER_H

#include <stdbool.h>

#include "analysis/report_opts.h"

struct seeds_report;

typedef void seeds_renderer_fn(struct seeds_report *sr);

/* The renderer of a format (it writes to sr->ctx->out); never NULL for a value of enum
 * report_format. */
seeds_renderer_fn *seeds_renderer(enum report_format format);

/* The renderers' entry points, for render.c. */
void seeds_render_text(struct seeds_report *sr, bool markdown);
void seeds_render_json(struct seeds_report *sr);
void seeds_render_csv(struct seeds_report *sr);
/* The text in a page's frame (seeds_html.c). */
void seeds_render_html(struct seeds_report *sr);

#endif
