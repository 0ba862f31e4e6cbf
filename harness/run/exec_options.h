/* The executor options of `harness run` (one group of its option table): where the cells
 * run, and the Slurm executor's settings. The executors themselves: harness/executor/. */
#ifndef HB_RUN_EXEC_OPTIONS_H
#define HB_RUN_EXEC_OPTIONS_H

#include <stdbool.h>

#include "common/options.h"

enum run_executor { EXECUTOR_LOCAL, EXECUTOR_SLURM };

struct exec_cli {
	int executor;            /* enum run_executor */
	bool executor_given;
	const char *partition;   /* NULL: the cluster's default partition */
	char **slurm_opts;       /* extra sbatch arguments, one per --slurm-opt (never NULL) */
	const char *cache;       /* kernel cache every node sees; NULL: HARDBENCH_CACHE or ~/.cache */
	const char *shard_of;    /* internal, in a shard's job: the run the shard belongs to */
	const char *shard;       /* internal: the shard's id */
	int poll_ms;             /* scheduler polling interval */
};

extern const struct hb_option exec_cli_options[];

#endif
