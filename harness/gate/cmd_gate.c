/* harness gate RUN --against REF [--max-slowdown PCT] [--alpha A] [--junit FILE] */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "common/log.h"
#include "common/options.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "gate/gate.h"

struct gate_args {
	struct gate_opts opts;
	const char *against;
};

#define GATE(f) offsetof(struct gate_args, f)

static const struct hb_option gate_options[] = {
	{ "against", 0, HB_OPT_STRING, "REF", "the reference (required)", .off = GATE(against),
	  .group = HB_OG_WHAT, .complete = HB_CMP_DIR },
	{ "max-slowdown", 0, HB_OPT_DOUBLE, "PCT", "tolerated slowdown in percent", 0, 1000,
	  .off = GATE(opts.max_slowdown_pct), .def = "2", .group = HB_OG_HOW },
	{ "alpha", 0, HB_OPT_DOUBLE, "A", "significance level", 0, 1, .off = GATE(opts.alpha),
	  .def = "0.05", .group = HB_OG_HOW },
	{ "junit", 0, HB_OPT_STRING, "FILE", "also write JUnit XML, one testcase per comparison",
	  .off = GATE(opts.junit), .group = HB_OG_WHERE, .complete = HB_CMP_FILE },
	{ "relative", 0, HB_OPT_STRING, "VARIANT", "compare each variant's cost (ratio to VARIANT)\n"
	  "instead of absolute means: for references from another host or TCG",
	  .off = GATE(opts.relative_to), .group = HB_OG_WHAT, .complete = HB_CMP_VARIANTS },
	{ NULL },
};

static const struct hb_example gate_examples[] = {
	{ "harness gate results/RUN --against ci/reference",
	  "Exit 1 when a variant got slower than in the reference." },
	{ "harness gate RUN --against REF --relative baseline --max-slowdown 5",
	  "Compare each variant's cost, not absolute times: for another host." },
	{ NULL },
};

const struct hb_cmdspec gate_spec = {
	.cmd = "gate",
	.usage = "usage: harness gate RUN --against REF [options]\n"
		 "Compares result set RUN with REF (a result set, or a `harness report --format json`\n"
		 "file) per workload, metric, cores and variant, each line with the change's 95%\n"
		 "confidence interval. Exit 0: nothing regressed; 1: a regression: worse by more\n"
		 "than --max-slowdown (the point estimate) and significant, p < --alpha (Welch's\n"
		 "test on the two sets' means; --relative: a z-test on the two costs, each the\n"
		 "paired per-round estimate where its set has >= 2 rounds, as in the report); 2: bad\n"
		 "input, or RUN and REF measured with different clocks (host vs icount never\n"
		 "compare). Under --clock icount absolute means compare across machines.\n",
	.groups = { { gate_options, 0 }, { NULL, 0 } },
	.operand = "RUN",
	.operand_accepted = "a result set directory or run name",
	.examples = gate_examples,
	.group_titles = { [HB_OG_WHAT] = "what is compared",
			  [HB_OG_HOW] = "how a change is judged",
			  [HB_OG_WHERE] = "output" },
	.operand_complete = HB_CMP_DIR,
	.exit_status = "0: nothing regressed. 1: a regression (worse by more than --max-slowdown "
		       "and significant). 2: bad input, or RUN and REF measured with different "
		       "clocks.",
};

int cmd_gate(int argc, char **argv)
{
	struct gate_args a = { 0 };
	char *run, *ref;
	int first, rc;

	if (!hb_opts_cmd(&gate_spec, argc, argv, &a, &first, &rc))
		return rc;
	if (!a.against)
		return hb_usage("gate: missing --against REF (accepted: a result set or a JSON report)");
	run = hb_resolve_run_dir(argv[first]);
	ref = hb_is_file(a.against) ? xstrdup(a.against) : hb_resolve_run_dir(a.against);
	if (!hb_is_dir(run))
		rc = hb_usage("gate: result set '%s' not found (accepted: a directory holding "
			      "samples.jsonl)", argv[first]);
	else if (!hb_is_dir(ref) && !hb_is_file(ref))
		rc = hb_usage("gate: --against: '%s' not found (accepted: a result set or a JSON "
			      "report file)", a.against);
	else
		rc = gate_run(run, ref, &a.opts, stdout);
	free(run);
	free(ref);
	return rc;
}
