/* Where the cells of a run execute: here (local, the default), or sharded over a Slurm
 * cluster. A shard is one complete round (every variant once, in the round's shuffled
 * order) of one (workload, vCPU count) and runs as one --exclusive job on one node, so
 * every paired comparison stays inside one node and one round. Each job runs
 * `harness run --shard-of RUN --shard ID` itself, which writes a partial result set
 * RUN/shards/ID/; the submitting harness merges the complete ones into RUN. */
#ifndef HB_RUN_EXECUTOR_H
#define HB_RUN_EXECUTOR_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "common/options.h"

enum run_executor { EXECUTOR_LOCAL, EXECUTOR_SLURM };

/* The executor options of `harness run` (one group of its option table). */
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

struct run;
struct run_opts;

/* --cache: every later lookup (kernels, accel probe, prepared files) and every job
 * sees the same absolute cache path. 0, or -1 with *why. */
int exec_apply_cache(const struct exec_cli *c, char **why);
/* After --resume read the plan: a run sharded over Slurm stays on Slurm (and keeps its
 * partition and sbatch arguments) unless told otherwise. 0, or -1 with *why. */
int exec_resume_defaults(struct run_opts *o, const char *dir, char **why);

/* In a shard's job, before run_setup: the plan of RUN (its meta.json), out = the shard's
 * folder, no report. 0, or -1 with *why (a usage error). */
int shard_child_prepare(struct run_opts *o, char **why);
/* After run_setup: every cell outside the shard is marked measured, and the kernels
 * must be in the shared cache with the keys RUN recorded (a node never builds).
 * 0; or HB_EXIT_USAGE / HB_EXIT_FAIL with *why. */
int shard_child_select(struct run *r, char **why);

/* In a shard's meta.json: "shard": {"id", "of", "node", "job_id"}. */
void shard_meta_note(const struct run *r, json_object *meta);

/* run/cache_fs.c: says when the kernel cache is local to this host, or on a shared
 * filesystem whose flock does not reach other hosts. */
void slurm_check_cache(const char *cache);

/* The whole run through Slurm (run/executor_slurm.c): exit status of `harness run`. */
int slurm_run(struct run *r, int argc, char **argv);

#endif
