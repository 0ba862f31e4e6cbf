/* Talking to Slurm: sbatch, squeue, scancel, always as argv arrays (no shell), with
 * SLURM_CONF and the rest of the environment inherited. Internal to executor/slurm/. */
#ifndef HB_EXECUTOR_SLURM_SLURM_JOBS_H
#define HB_EXECUTOR_SLURM_SLURM_JOBS_H

#include <stdbool.h>
#include <stddef.h>

/* What a shard's sbatch command line is made of. */
struct sbatch_spec {
	const char *run_dir;      /* absolute */
	const char *cwd;          /* absolute: the job's working directory (-D) */
	const char *script;       /* absolute: RUN/shards/job.sh, which execs its arguments */
	const char *partition;    /* NULL: the default partition */
	char *const *slurm_opts;  /* extra sbatch arguments (never NULL) */
	const char *harness;      /* absolute path of this harness binary */
	char *const *run_args;    /* `harness run` arguments every shard gets (never NULL) */
};

/* sbatch --parsable --no-requeue --exclusive --nodes=1 ... SCRIPT HARNESS run ARGS
 * --executor local --shard-of RUN --shard ID. NULL-terminated; hb_free_strv() it. */
char **sbatch_argv(const struct sbatch_spec *s, const char *shard_id);
/* The command line for display, each word shell-quoted when it needs it. Caller frees. */
char *argv_display(char *const *argv);
/* Runs sbatch; 0 with *job_id, or -1 with *why. */
int sbatch_submit(char *const *argv, long *job_id, char **why);

struct job_state {
	bool listed;         /* squeue still lists the job */
	char state[24];      /* PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, ... */
	char node[64];
	char reason[48];
};

/* One squeue call for all our jobs. 0, or -1 with *why (squeue failed: keep polling). */
int squeue_states(const long *ids, size_t n, struct job_state *out, char **why);
/* Is this state one a job does not leave (or the job gone from squeue)? */
bool job_state_final(const struct job_state *s);
/* scancel the jobs with a nonzero id. */
void scancel_jobs(const long *ids, size_t n);

#endif
