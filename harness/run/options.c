#include "run/options.h"

#include <stdlib.h>

#include "adhoc/specs.h"
#include "common/argparse.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "configs/kline.h"

static const char usage_text[] =
	"usage: harness run [options]\n"
	"\n"
	"Builds what is missing, then boots every kernel line x variant x workload x cores x boot\n"
	"and runs the workload --reps times per boot. Samples are fsync'd as they arrive; ^C stops\n"
	"cleanly and --resume runs exactly the missing repetitions. Ends with the report and the plots.\n"
	"With no options: the seeds' matrix scaled to this host (docs/methodology.md).\n"
	"\n";

static const char *const orders[] = { "interleaved", "grouped", NULL };

static int check_prebuilt(void *base, const char *value, char **why)
{
	struct kernel_spec k;

	(void)base;
	if (kernel_spec_parse(value, &k, why) < 0)
		return -1;
	kernel_spec_free(&k);
	return 0;
}

static int check_file(void *base, const char *value, char **why)
{
	(void)base;
	if (hb_is_file(value))
		return 0;
	*why = xasprintf("--line-fragment %s: no such file (accepted: a Kconfig fragment)", value);
	return -1;
}

#define RUN(f) offsetof(struct run_opts, f)

static const struct hb_option run_options[] = {
	{ "kernels", 0, HB_OPT_STR_LIST, "LINES", "comma-separated kernel lines, e.g. 6.1,6.12 (default\n"
	  HB_DEFAULT_LINE "; kernel-configs/lines/), or commits PATH@REF,\n"
	  "e.g. .@HEAD~1,.@HEAD: each variant runs on each; PATH@A..B:\n"
	  "A and each commit of A..B, step by step", .off = RUN(lines),
	  .group = HB_OG_WHAT, .complete = HB_CMP_LINES },
	{ "variants", 0, HB_OPT_STR_LIST, "LIST", "comma-separated variants (harness list)", .off = RUN(variants),
	  .group = HB_OG_WHAT, .complete = HB_CMP_VARIANTS },
	{ "workloads", 0, HB_OPT_STR_LIST, "LIST", "comma-separated workloads (harness list)", .off = RUN(workloads),
	  .group = HB_OG_WHAT, .complete = HB_CMP_WORKLOADS },
	{ "reps", 0, HB_OPT_INT, "N", "repetitions per boot", 1, 1000, .off = RUN(reps), .def = "1",
	  .given_off = RUN(reps_given), .group = HB_OG_HOW },
	/* Three boots of one repetition rather than one boot of three: the cells of a round
	 * run side by side and each round is shuffled, so drift on the host spreads over all
	 * variants instead of landing on one. Measured here: over one half-hour kbuild round
	 * the guests' user time (which no variant changes) fell 19%, and with the baseline
	 * always first init_on_free came out 13% *faster*; interleaved over 4 boots it did not. */
	{ "boots", 0, HB_OPT_INT, "M", "boots per variant, workload and cores (each boot is a\n"
	  "round in which every variant runs once, in shuffled order)", 1, 1000, .off = RUN(boots),
	  .def = "3", .given_off = RUN(boots_given), .group = HB_OG_HOW },
	{ "until-ci", 0, HB_OPT_DOUBLE, "PCT", "add rounds until every variant's cost on each\n"
	  "workload's primary metric has a 95% CI half-width <= PCT points, or PCT% of the\n"
	  "ratio when the variant is slower (--boots is then the minimum)", 0.01, 1000, .off = RUN(until_ci),
	  .group = HB_OG_HOW },
	{ "max-boots", 0, HB_OPT_INT, "N", "with --until-ci: at most N rounds (at least --boots)", 2,
	  1000, .off = RUN(max_boots), .def = "10", .given_off = RUN(max_boots_given),
	  .group = HB_OG_HOW },
	{ "param", 0, HB_OPT_STR_REPEAT, "W.KEY=VALUE", "workload parameter (repeatable; harness list shows\n"
	  "them)", .off = RUN(params), .group = HB_OG_WHAT, .complete = HB_CMP_PARAMS },
	{ "order", 0, HB_OPT_CHOICE, "O", "cell order: interleaved (ABAB per round) or grouped",
	  .choices = orders, .off = RUN(order), .def = "interleaved", .given_off = RUN(order_given),
	  .group = HB_OG_HOW },
	/* A fixed default seed: --dry-run shows the order the run will use; meta.json keeps it. */
	{ "seed", 0, HB_OPT_LONG, "N", "seed of the per-round shuffle (interleaved order; kept in\n"
	  "meta.json)", 1, 0x7fffffffL, .off = RUN(seed), .def = "1", .given_off = RUN(seed_given),
	  .group = HB_OG_HOW },
	{ "out", 0, HB_OPT_STRING, "DIR", "result set directory; a relative DIR is under the current\n"
	  "folder (default results/<date>-<time>)", .off = RUN(out),
	  .group = HB_OG_WHERE, .complete = HB_CMP_DIR },
	{ "resume", 0, HB_OPT_STRING, "DIR", "continue an interrupted or partly failed run", .off = RUN(resume),
	  .group = HB_OG_WHERE, .complete = HB_CMP_DIR },
	{ "dry-run", 0, HB_OPT_FLAG, NULL, "print the plan and the time estimate, run nothing", .off = RUN(dry_run),
	  .group = HB_OG_WHERE },
	{ "max-failures", 0, HB_OPT_INT, "N", "failed cells tolerated before stopping", 0, 1000000,
	  .off = RUN(max_failures), .def = "3", .group = HB_OG_ADVANCED },
	KLINE_SOURCE_OPTION(RUN(sources)),
	{ "jobs", 0, HB_OPT_INT, "N", "kernel build jobs (default: host cores)", 1, 4096, .off = RUN(jobs),
	  .group = HB_OG_ADVANCED },
	{ "kernel", 0, HB_OPT_STR_REPEAT, "NAME=IMAGE[,modules=DIR][,cmdline=ARGS]", "\n"
	  "a kernel built elsewhere (bzImage or PVH vmlinux) as variant\n"
	  "NAME, after the config check boot --kernel does (repeatable;\n"
	  "cmdline= last)", .off = RUN(prebuilt), .set = check_prebuilt,
	  .group = HB_OG_WHAT, .complete = HB_CMP_FILE },
	{ "line-fragment", 0, HB_OPT_STRING, "FILE", "a Kconfig fragment for the lines of --kernels\n"
	  "PATH@REF (after base.config)", .off = RUN(adhoc.line_fragment), .set = check_file,
	  .group = HB_OG_ADVANCED, .complete = HB_CMP_FILE },
	{ "per-patch", 0, HB_OPT_FLAG, NULL, "each --patch series step by step: build and variant\n"
	  "NAME.1 = base + patch 1, NAME.2 = base + patches 1-2, ...; the report\n"
	  "gives each patch's own cost against the step before it (docs/tutorial.md)",
	  .off = RUN(adhoc.per_patch), .group = HB_OG_WHAT },
	{ "profile", 0, HB_OPT_FLAG, NULL, "count each timed section's guest instructions per kernel\n"
	  "function (TCG: a QEMU plugin, exact; docs/profile.md); the report says where the cost goes",
	  .off = RUN(profile), .group = HB_OG_HOW },
	{ "no-report", 0, HB_OPT_FLAG, NULL, "do not print the report or draw plots at the end", .off = RUN(no_report),
	  .group = HB_OG_WHERE },
	{ NULL },
};

static const struct hb_example run_examples[] = {
	{ "harness run --dry-run", "The main job's plan and time estimate; nothing runs." },
	{ "harness run --workloads hugetlb",
	  "The main job's hugetlb cells: three variants, three boots each." },
	{ "harness run --patch mine=fix.patch --variants baseline --workloads hackbench",
	  "Your patch against baseline on hackbench, three rounds (docs/tutorial.md)." },
	{ NULL },
};

const struct hb_cmdspec run_spec = {
	.cmd = "run",
	.usage = usage_text,
	.groups = { { run_options, 0 }, { vm_cli_options, RUN(vm) },
		    { exec_cli_options, RUN(exec) }, { adhoc_cli_options, RUN(adhoc) }, { NULL, 0 } },
	.examples = run_examples,
	.operand_complete = HB_CMP_NONE,
};

int run_opts_parse(int argc, char **argv, struct run_opts *o, char **why)
{
	int first, rc;

	*o = (struct run_opts){ .order = ORDER_INTERLEAVED };
	rc = hb_opts_parse(&run_spec, argc, argv, o, &first, why);
	if (rc == HB_OPTS_OK && first < argc) {
		*why = xasprintf("run: unexpected argument '%s' (run takes only options; see 'harness "
				 "run --help')", argv[first]);
		rc = HB_OPTS_BAD;
	}
	if (!o->vm.clock_given) /* boot's default is host (interactive); run's is auto */
		o->vm.clock = CLOCK_AUTO;
	if (!o->params)
		o->params = xcalloc(1, sizeof(char *));
	if (!o->exec.slurm_opts)
		o->exec.slurm_opts = xcalloc(1, sizeof(char *));
	return rc;
}

void run_opts_free(struct run_opts *o)
{
	hb_opts_free(&run_spec, o);
	hb_free_strv(o->keep);
	hb_free_strv(o->workload_boots);
	o->keep = NULL;
	o->workload_boots = NULL;
}
