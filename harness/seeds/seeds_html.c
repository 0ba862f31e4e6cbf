/* `--against-seeds --format html`: the text comparison in a page's frame (the seeds have
 * no table layout of their own for a page; the text is what the report page shows too). */
#include <stdlib.h>

#include "analysis/html.h"
#include "analysis/html_page.h"
#include "common/log.h"
#include "common/xalloc.h"
#include "seeds/render.h"
#include "seeds/seeds_report.h"

void seeds_render_html(struct seeds_report *sr)
{
	struct report_ctx *ctx = sr->ctx;
	FILE *page = ctx->out;
	char *text = NULL, *title;
	size_t len = 0;

	ctx->out = open_memstream(&text, &len);
	if (!ctx->out)
		hb_fatal("out of memory: open_memstream");
	seeds_render_text(sr, false);
	fclose(ctx->out);
	ctx->out = page;
	title = xasprintf("hardbench report against the seeds: %s", ctx->dir);
	html_page_head(page, title);
	fputs("<section id=\"seeds\"><h2>The list mails' published figures next to this run</h2>\n<pre>", page);
	html_text(page, text);
	fputs("</pre></section>\n", page);
	html_page_foot(page);
	free(title);
	free(text);
}
