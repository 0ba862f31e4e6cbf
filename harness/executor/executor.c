/* The executors by --executor value (run/exec_options.c names them). */
#include "executor/executor.h"

#include "executor/slurm/slurm.h"

static const struct executor executors[] = {
	[EXECUTOR_LOCAL] = { "local", local_run },
	[EXECUTOR_SLURM] = { "slurm", slurm_run },
};

_Static_assert(sizeof(executors) / sizeof(executors[0]) == EXECUTOR_SLURM + 1,
	       "an --executor value lacks its executor");

const struct executor *executor_of(enum run_executor kind)
{
	return &executors[kind];
}
