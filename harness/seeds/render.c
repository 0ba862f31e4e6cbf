/* The seeds comparison's renderer per report format, indexed by enum report_format (the
 * formats themselves: analysis/report_opts.h; the ordinary report's: report/render.c). */
#include "seeds/render.h"

static void text(struct seeds_report *sr) { seeds_render_text(sr, false); }
static void markdown(struct seeds_report *sr) { seeds_render_text(sr, true); }
/* A list reply quotes the comparison as it is: the text form. */
static void mail(struct seeds_report *sr) { seeds_render_text(sr, false); }

static seeds_renderer_fn *const renderers[] = {
	[REPORT_TEXT] = text,
	[REPORT_MARKDOWN] = markdown,
	[REPORT_CSV] = seeds_render_csv,
	[REPORT_JSON] = seeds_render_json,
	[REPORT_HTML] = seeds_render_html,
	[REPORT_MAIL] = mail,
};

_Static_assert(sizeof(renderers) / sizeof(renderers[0]) == REPORT_NFORMATS,
	       "a format lacks a seeds renderer");

seeds_renderer_fn *seeds_renderer(enum report_format format)
{
	return renderers[format];
}
