/* The executor options of `harness run`: a separate group of its option table. */
#include "run/exec_options.h"

#include <stddef.h>

static const char *const executors[] = { "local", "slurm", NULL };

static int executor_given(void *base, const char *value, char **why)
{
	(void)value, (void)why;
	((struct exec_cli *)base)->executor_given = true;
	return 0;
}

#define EX(f) offsetof(struct exec_cli, f)

const struct hb_option exec_cli_options[] = {
	{ "executor", 0, HB_OPT_CHOICE, "E", "where cells run: local (default) or slurm (one\n"
	  "--exclusive job per round of a workload and vCPU count; see docs/slurm.md)",
	  .choices = executors, .off = EX(executor), .set = executor_given, .group = HB_OG_WHERE },
	{ "partition", 0, HB_OPT_STRING, "P", "slurm: the partition to submit to", .off = EX(partition),
	  .group = HB_OG_WHERE, .complete = HB_CMP_NONE },
	{ "slurm-opt", 0, HB_OPT_STR_REPEAT, "ARG", "slurm: one more sbatch argument, e.g.\n"
	  "--slurm-opt=--time=2:00:00 (repeatable)", .off = EX(slurm_opts),
	  .group = HB_OG_WHERE, .complete = HB_CMP_NONE },
	{ "cache", 0, HB_OPT_STRING, "DIR", "kernel cache (default $HARDBENCH_CACHE or\n"
	  "~/.cache/hardbench); with slurm, on a filesystem every node sees", .off = EX(cache),
	  .group = HB_OG_WHERE, .complete = HB_CMP_DIR },
	{ "poll-ms", 0, HB_OPT_INT, "MS", "slurm: scheduler polling interval", 100, 600000,
	  .off = EX(poll_ms), .def = "1000", .group = HB_OG_ADVANCED },
	{ "shard-of", 0, HB_OPT_STRING, "RUN", "internal: set by the slurm executor in its jobs",
	  .off = EX(shard_of), .group = HB_OG_ADVANCED, .complete = HB_CMP_DIR, .hidden = true },
	{ "shard", 0, HB_OPT_STRING, "ID", "internal: set by the slurm executor in its jobs",
	  .off = EX(shard), .group = HB_OG_ADVANCED, .complete = HB_CMP_NONE, .hidden = true },
	{ NULL },
};
