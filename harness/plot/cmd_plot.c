/* harness plot RUN [--out DIR] [--format png|svg|both] [--baseline VARIANT] */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "common/log.h"
#include "common/options.h"
#include "common/paths.h"
#include "plot/plot.h"

static const char *const formats[] = { "png", "svg", "both", NULL };

static const struct hb_option plot_options[] = {
	{ "out", 0, HB_OPT_STRING, "DIR", "where to write (default: RUN/plots)",
	  .off = offsetof(struct plot_opts, out_dir),
	  .group = HB_OG_WHERE, .complete = HB_CMP_DIR },
	{ "format", 0, HB_OPT_CHOICE_STR, "FORMAT", "png, svg or both", .choices = formats,
	  .off = offsetof(struct plot_opts, format), .def = "both", .group = HB_OG_WHERE },
	{ "baseline", 0, HB_OPT_STRING, "VARIANT", "compare with this variant (default: 'baseline',\n"
	  "else the first)", .off = offsetof(struct plot_opts, baseline),
	  .group = HB_OG_WHAT, .complete = HB_CMP_VARIANTS },
	{ NULL },
};

static const struct hb_example plot_examples[] = {
	{ "harness plot results/RUN",
	  "Charts in RUN/plots/, with their gnuplot scripts and data." },
	{ "harness plot results/RUN --format svg --out charts", "SVG charts only, into ./charts." },
	{ NULL },
};

const struct hb_cmdspec plot_spec = {
	.cmd = "plot",
	.usage = "usage: harness plot RUN [--out DIR] [--format png|svg|both] [--baseline VARIANT]\n"
		 "gnuplot charts of result set RUN: slowdown per variant (st.err bars), slowdown vs\n"
		 "vCPU count, per-test ratios. Scripts (.gp) and data (.dat) stay beside the images.\n",
	.groups = { { plot_options, 0 }, { NULL, 0 } },
	.operand = "RUN",
	.operand_accepted = "a result set directory or run name",
	.examples = plot_examples,
	.group_titles = { [HB_OG_WHAT] = "what is drawn", [HB_OG_WHERE] = "output" },
	.operand_complete = HB_CMP_DIR,
};

int cmd_plot(int argc, char **argv)
{
	struct plot_opts opts = { 0 };
	char *dir;
	int first, rc;

	if (!hb_opts_cmd(&plot_spec, argc, argv, &opts, &first, &rc))
		return rc;
	dir = hb_resolve_run_dir(argv[first]);
	if (!hb_is_dir(dir))
		rc = hb_usage("plot: result set '%s' not found (accepted: a directory holding "
			      "samples.jsonl)", argv[first]);
	else
		rc = plot_run(dir, &opts);
	free(dir);
	return rc;
}
