/* The page's seeds comparison and per-host figures: the text report's own renderings of
 * them (--against-seeds in seeds/, report_hosts.c), shown preformatted, so that the page
 * and the text agree to the character. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "analysis/html.h"
#include "report/render.h"
#include "report/report.h"
#include "report/report_html.h"
#include "seeds/seeds_report.h"

/* What fn writes for a copy of ctx whose output goes to memory (never NULL). */
static char *captured(struct report_ctx *ctx, const struct report_opts *opts,
		      int (*fn)(struct report_ctx *, const void *), const void *arg, int *rc)
{
	struct report_ctx copy = *ctx;
	char *text = NULL;
	size_t len = 0;

	copy.opts = opts;
	copy.out = open_memstream(&text, &len);
	if (!copy.out)
		hb_fatal("out of memory: open_memstream");
	*rc = fn(&copy, arg);
	fclose(copy.out);
	return text;
}

static int seeds_of(struct report_ctx *ctx, const void *path)
{
	return seeds_report_run(ctx, path);
}

static int hosts_of(struct report_ctx *ctx, const void *unused)
{
	(void)unused;
	report_hosts(ctx);
	return 0;
}

/* Is g the set's first group of its workload? The seeds compare across lines and clocks
 * themselves: one comparison per workload. */
static bool first_of_workload(const struct report_ctx *ctx, const struct ds_group *g)
{
	for (size_t i = 0; i < ctx->ds.ngroups; i++)
		if (!strcmp(ctx->ds.groups[i]->workload, g->workload))
			return ctx->ds.groups[i] == g;
	return false;
}

void report_html_seeds(struct report_ctx *ctx, const struct ds_group *g)
{
	char *path = xasprintf("%s/workloads/%s/published.json", hb_source_dir(), g->workload);
	struct report_opts opts = { .format = REPORT_TEXT, .seeds = path, .metric = ctx->opts->metric };
	char *text;
	int rc;

	/* A name from the run picks a file: never one outside workloads/ ("..", "a/b"). */
	if (strchr(g->workload, '/') || g->workload[0] == '.' || !first_of_workload(ctx, g) ||
	    access(path, R_OK) != 0) {
		free(path);
		return;
	}
	text = captured(ctx, &opts, seeds_of, path, &rc);
	if (rc == 0 && *text) {
		fputs("<details class=\"seeds\" open><summary>The list mails' published figures next to "
		      "this run (<code>harness report --against-seeds</code>)</summary>\n<pre>", ctx->out);
		html_text(ctx->out, text);
		fputs("</pre></details>\n", ctx->out);
	}
	free(text);
	free(path);
}

void report_html_hosts(struct report_ctx *ctx)
{
	int rc;
	char *text = captured(ctx, ctx->opts, hosts_of, NULL, &rc);

	if (*text) {
		fputs("<section id=\"hosts\"><h2>Per host</h2>\n<p>This set was merged from several "
		      "hosts; the tables above pool them.</p>\n<pre>", ctx->out);
		html_text(ctx->out, text);
		fputs("</pre></section>\n", ctx->out);
	}
	free(text);
}
