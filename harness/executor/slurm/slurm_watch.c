/* Waiting for the shards: squeue every --poll-ms (never sbatch --wait, which polls at
 * 2, 10, 42 s...), each shard's progress from its journal, ETA from the estimator. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/log.h"
#include "common/progress.h"
#include "common/xalloc.h"
#include "run/journal.h"
#include "executor/slurm/slurm_exec.h"

bool shard_complete(const char *dir)
{
	json_object *meta = rs_read_meta(dir), *st;
	bool yes = meta && json_object_object_get_ex(meta, "status", &st) &&
		   !strcmp(json_object_get_string(st), "complete");
	json_object_put(meta);
	return yes;
}

static void count_entry(const struct journal_entry *e, void *ctx)
{
	(void)e;
	(*(size_t *)ctx)++;
}

/* Seconds the shard still needs: its unmeasured cells, less the time its current cell
 * has run already. */
static double shard_eta(const struct slurm_exec *x, const struct shard_run *h, double now)
{
	size_t left = h->s->ncells > h->cells_done ? h->s->ncells - h->cells_done : 0;
	double per = estimate_workload_s(&x->r->est, h->s->workload, x->r->plan.reps);
	double eta = (double)left * per - (h->st == SH_RUNNING ? now - h->progressed : 0);
	return eta > 0 ? eta : 0;
}

static void say(const struct slurm_exec *x, const struct shard_run *h, double now)
{
	char buf[32];
	size_t done = 0;

	for (size_t i = 0; i < x->sp.n; i++)
		done += x->sh[i].st == SH_DONE || x->sh[i].st == SH_DONE_BEFORE;
	if (h->st == SH_RUNNING)
		fprintf(stderr, "slurm: [%zu/%zu done] %s: job %ld running on %s, %zu/%zu cells, ETA %s\n",
			done, x->sp.n, h->s->id, h->job, h->js.node, h->cells_done, h->s->ncells,
			hb_format_duration(shard_eta(x, h, now), buf, sizeof(buf)));
	else if (h->st == SH_QUEUED)
		fprintf(stderr, "slurm: [%zu/%zu done] %s: job %ld %s (%s)\n", done, x->sp.n, h->s->id,
			h->job, h->js.listed ? h->js.state : "submitted", h->js.listed ? h->js.reason : "");
	else if (h->st == SH_DONE)
		fprintf(stderr, "slurm: [%zu/%zu done] %s: complete on %s in %s\n", done, x->sp.n, h->s->id,
			h->js.node, hb_format_duration(h->ended - h->started, buf, sizeof(buf)));
	else if (h->st == SH_FAILED)
		fprintf(stderr, "slurm: [%zu/%zu done] %s: FAILED (job %ld %s on %s); log %s, cell logs "
			"%s/logs\n", done, x->sp.n, h->s->id, h->job, h->js.listed ? h->js.state : "ended",
			*h->js.node ? h->js.node : "?", h->log, h->dir);
}

/* One squeue view applied to every active shard; says what changed. */
static void update(struct slurm_exec *x, const struct job_state *js, double now)
{
	for (size_t i = 0; i < x->sp.n; i++) {
		struct shard_run *h = &x->sh[i];
		enum shard_state before = h->st;
		size_t cells = 0;
		bool moved = js[i].listed && (strcmp(js[i].state, h->js.state) || strcmp(js[i].reason, h->js.reason));

		if (h->st != SH_QUEUED && h->st != SH_RUNNING)
			continue;
		if (js[i].listed)
			h->js = js[i];
		journal_read(h->dir, count_entry, &cells);
		if (job_state_final(&js[i])) {
			h->ended = now;
			h->st = shard_complete(h->dir) ? SH_DONE : SH_FAILED;
			if (h->st == SH_DONE && h->s->ncells) /* later shards' ETAs learn from it */
				estimator_observe_workload(&x->r->est, h->s->workload, x->r->plan.reps,
						  (h->ended - h->started) / (double)h->s->ncells);
		} else if (!strcmp(js[i].state, "RUNNING") && h->st == SH_QUEUED) {
			h->st = SH_RUNNING;
			h->started = h->progressed = now;
		}
		if (cells != h->cells_done)
			h->progressed = now;
		if (h->st != before || cells != h->cells_done || moved) {
			h->cells_done = cells;
			say(x, h, now);
		}
	}
}

static size_t active(const struct slurm_exec *x, long *ids)
{
	size_t n = 0;
	for (size_t i = 0; i < x->sp.n; i++) {
		bool on = x->sh[i].st == SH_QUEUED || x->sh[i].st == SH_RUNNING;
		ids[i] = on ? x->sh[i].job : 0;
		n += on;
	}
	return n;
}

/* Sleeps one polling interval; true when ^C or SIGTERM arrived. */
static bool wait_interval(int ms)
{
	sigset_t stop;
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	int sig;

	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	do
		sig = sigtimedwait(&stop, NULL, &ts);
	while (sig < 0 && errno == EINTR);
	return sig > 0;
}

static void cancel_all(struct slurm_exec *x, long *ids, struct job_state *js)
{
	size_t n = active(x, ids);
	char *why = NULL;

	fprintf(stderr, "slurm: interrupted: cancelling %zu job%s; finished shards are kept\n", n, n == 1 ? "" : "s");
	scancel_jobs(ids, x->sp.n);
	/* Wait for the jobs to end (their harness stops at SIGTERM and marks its set
	 * incomplete) so no job still writes while --resume moves its folder aside. */
	for (int i = 0; i < 120 && active(x, ids); i++) {
		if (squeue_states(ids, x->sp.n, js, &why) == 0)
			update(x, js, hb_now() - x->t0);
		free(why);
		why = NULL;
		if (active(x, ids))
			wait_interval(500);
	}
}

void slurm_watch(struct slurm_exec *x)
{
	long *ids = xcalloc(x->sp.n, sizeof(long));
	struct job_state *js = xcalloc(x->sp.n, sizeof(*js));
	double last_warn = -1e9;

	while (active(x, ids)) {
		char *why = NULL;
		double now = hb_now() - x->t0;

		if (squeue_states(ids, x->sp.n, js, &why) == 0) {
			update(x, js, now);
		} else if (now - last_warn > 60) {
			hb_warn("%s; polling again", why); /* a busy controller: not a reason to stop */
			last_warn = now;
		}
		free(why);
		if (!active(x, ids))
			break;
		if (wait_interval(x->r->opts->exec.poll_ms)) {
			x->interrupted = true;
			cancel_all(x, ids, js);
			break;
		}
	}
	free(ids);
	free(js);
}
