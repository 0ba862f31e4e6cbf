/* Where the cells of a run execute: here (local.c, the default), or sharded over a Slurm
 * cluster (slurm/). `harness run` (cmd_run.c) sets the run up with run/ and hands it to
 * the executor its options name; an executor uses run/ and never the other way round.
 *
 * On Slurm a shard is one complete round (every variant once, in the round's shuffled
 * order) of one (workload, vCPU count) and runs as one --exclusive job on one node, so
 * every paired comparison stays inside one node and one round. Each job runs
 * `harness run --shard-of RUN --shard ID` itself, which writes a partial result set
 * RUN/shards/ID/ with the local executor; the submitting harness merges the complete
 * ones into RUN.
 *
 * A new executor: its folder here, its name in run/exec_options.c (--executor) and its
 * entry in executor.c. */
#ifndef HB_EXECUTOR_EXECUTOR_H
#define HB_EXECUTOR_EXECUTOR_H

#include "run/exec_options.h"

struct run;
struct run_opts;

struct executor {
	const char *name;
	/* The whole run of a set-up plan (run_setup done): the exit status of `harness run`. */
	int (*run)(struct run *r, int argc, char **argv);
};

/* The executor of --executor's value; never NULL for a value of enum run_executor. */
const struct executor *executor_of(enum run_executor kind);

/* executor/local.c: every cell in this process, in plan order. */
int local_run(struct run *r, int argc, char **argv);

/* executor/options.c */
/* --cache: every later lookup (kernels, accel probe, prepared files) and every job
 * sees the same absolute cache path. 0, or -1 with *why. */
int exec_apply_cache(const struct exec_cli *c, char **why);
/* After --resume read the plan: a run sharded over Slurm stays on Slurm (and keeps its
 * partition and sbatch arguments) unless told otherwise. 0, or -1 with *why. */
int exec_resume_defaults(struct run_opts *o, const char *dir, char **why);

#endif
