/* The state of a run on the Slurm executor, shared by slurm.c (setup, submit,
 * merge) and slurm_watch.c (polling, progress, ^C). Internal to executor/slurm/. */
#ifndef HB_EXECUTOR_SLURM_SLURM_EXEC_H
#define HB_EXECUTOR_SLURM_SLURM_EXEC_H

#include <stdbool.h>
#include <stddef.h>

#include "run/run.h"
#include "executor/slurm/shard.h"
#include "executor/slurm/slurm_jobs.h"

enum shard_state { SH_DONE_BEFORE, SH_TO_SUBMIT, SH_QUEUED, SH_RUNNING, SH_DONE, SH_FAILED };

struct shard_run {
	const struct shard *s;
	char *dir;               /* RUN/shards/ID */
	char *log;               /* RUN/shards/ID.log: the job's output */
	long job;                /* 0: not submitted */
	enum shard_state st;
	struct job_state js;     /* last squeue view */
	size_t cells_done;       /* journal lines of the shard */
	double submitted, started, ended, progressed; /* seconds since the executor began */
};

struct slurm_exec {
	struct run *r;
	struct shard_plan sp;
	struct shard_run *sh;    /* [sp.n] */
	char *run_dir;           /* absolute */
	struct sbatch_spec spec;
	double t0;
	bool interrupted;
};

/* slurm_watch.c: polls until every submitted shard ended, showing progress; on ^C or
 * SIGTERM cancels the jobs still queued or running and waits for them to end. */
void slurm_watch(struct slurm_exec *x);
/* Is the shard's partial result set complete (its meta.json says so)? */
bool shard_complete(const char *dir);

#endif
