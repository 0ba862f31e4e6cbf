/* The registry of report formats (render.h): names and renderers, indexed by enum
 * report_format. */
#include "report/render.h"

#include <stdbool.h>
#include <stddef.h>

static void text(struct report_ctx *ctx) { report_render_text(ctx, false); }
static void markdown(struct report_ctx *ctx) { report_render_text(ctx, true); }

const char *const report_format_names[] = {
	[REPORT_TEXT] = "text",
	[REPORT_MARKDOWN] = "markdown",
	[REPORT_CSV] = "csv",
	[REPORT_JSON] = "json",
	[REPORT_HTML] = "html",
	[REPORT_MAIL] = "mail",
	[REPORT_NFORMATS] = NULL,
};

static const struct report_renderer renderers[] = {
	[REPORT_TEXT] = { text },
	[REPORT_MARKDOWN] = { markdown },
	[REPORT_CSV] = { report_render_csv },
	[REPORT_JSON] = { report_render_json },
	[REPORT_HTML] = { report_render_html },
	[REPORT_MAIL] = { report_render_mail },
};

/* One name and one renderer per enum report_format value, none missing. */
_Static_assert(sizeof(renderers) / sizeof(renderers[0]) == REPORT_NFORMATS, "a format lacks a renderer");
_Static_assert(sizeof(report_format_names) / sizeof(report_format_names[0]) == REPORT_NFORMATS + 1,
	       "a format lacks a name");

const struct report_renderer *report_renderer(enum report_format format)
{
	return &renderers[format];
}
