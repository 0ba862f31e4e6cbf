/* harness run --executor slurm: build the kernels here into the shared cache, submit one
 * --exclusive job per shard (executor/slurm/shard.h), watch them (slurm_watch.c), merge the complete
 * shards into the run folder, report. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/progress.h"
#include "common/spawn.h"
#include "common/xalloc.h"
#include "plot/plot.h"
#include "report/report.h"
#include "results/merge.h"
#include "executor/slurm/slurm.h"
#include "executor/slurm/slurm_exec.h"

static const char job_script[] =
	"#!/bin/sh\n"
	"# A shard of a harness run: runs its arguments as they are (no shell parsing).\n"
	"exec \"$@\"\n";

/* The arguments every shard's `harness run` gets: this command line less what only the
 * submitting side means (--dry-run); the job itself replaces the plan, --out and
 * --resume (shard_child.c). */
static char **run_args(int argc, char **argv)
{
	char **v = xcalloc((size_t)argc + 1, sizeof(char *));
	size_t n = 0;

	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--dry-run"))
			v[n++] = xstrdup(argv[i]);
	return v;
}

static char *absolute(const char *path)
{
	char cwd[PATH_MAX];

	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return xstrdup(path);
	return xasprintf("%s/%s", cwd, path);
}

static void exec_init(struct slurm_exec *x, struct run *r, int argc, char **argv)
{
	char self[PATH_MAX], cwd[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);

	*x = (struct slurm_exec){ .r = r, .t0 = hb_now() };
	self[len > 0 ? len : 0] = 0;
	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), "/");
	shard_plan_build(&r->plan, &x->sp);
	x->sh = xcalloc(x->sp.n ? x->sp.n : 1, sizeof(*x->sh));
	x->run_dir = absolute(r->dir);
	x->spec = (struct sbatch_spec){ .run_dir = x->run_dir, .cwd = xstrdup(cwd),
					.script = xasprintf("%s/shards/job.sh", x->run_dir),
					.partition = r->opts->exec.partition, .slurm_opts = r->opts->exec.slurm_opts,
					.harness = xstrdup(self), .run_args = run_args(argc, argv) };
	for (size_t i = 0; i < x->sp.n; i++) {
		struct shard_run *h = &x->sh[i];
		h->s = &x->sp.shards[i];
		h->dir = xasprintf("%s/shards/%s", x->run_dir, h->s->id);
		h->log = xasprintf("%s.log", h->dir);
		h->st = shard_complete(h->dir) ? SH_DONE_BEFORE : SH_TO_SUBMIT;
	}
}

static size_t count_state(const struct slurm_exec *x, enum shard_state st)
{
	size_t n = 0;
	for (size_t i = 0; i < x->sp.n; i++)
		n += x->sh[i].st == st;
	return n;
}

static int dry_run(struct slurm_exec *x)
{
	printf("slurm: %zu shards (one round of one workload and vCPU count each, %zu cells), "
	       "%zu to submit:\n", x->sp.n, x->sp.n ? x->sp.shards[0].ncells : 0, count_state(x, SH_TO_SUBMIT));
	for (size_t i = 0; i < x->sp.n; i++) {
		char **argv, *line;
		if (x->sh[i].st != SH_TO_SUBMIT)
			continue;
		argv = sbatch_argv(&x->spec, x->sh[i].s->id);
		line = argv_display(argv);
		printf("%s\n", line);
		free(line);
		hb_free_strv(argv);
	}
	return HB_EXIT_OK;
}

/* A shard that started but did not complete is measured again from its start, on
 * whichever node gets it (a round never spans two nodes): its partial set and log move
 * to shards/.attempts/ID-N, kept for their logs, never merged. */
static int set_aside(const struct slurm_exec *x, const struct shard_run *h)
{
	char *dir = xasprintf("%s/shards/.attempts", x->run_dir), *to = NULL, *log = NULL;
	int rc = 0;

	if (!hb_is_dir(h->dir) && !hb_is_file(h->log)) {
		free(dir);
		return 0;
	}
	hb_mkdir_p(dir, 0755);
	for (int n = 1; !to; n++) {
		to = xasprintf("%s/%s-%d", dir, h->s->id, n);
		if (hb_is_dir(to) || hb_is_file(to))
			free(to), to = NULL;
	}
	log = xasprintf("%s.log", to);
	if ((hb_is_dir(h->dir) && rename(h->dir, to) < 0) || (hb_is_file(h->log) && rename(h->log, log) < 0)) {
		hb_error("cannot move the incomplete shard %s aside: %s", h->dir, strerror(errno));
		rc = -1;
	} else {
		hb_info("shard %s was incomplete: measured again (old attempt in %s)", h->s->id, to);
	}
	free(log);
	free(to);
	free(dir);
	return rc;
}

/* A shard whose job from an earlier submission (its harness was killed, not stopped)
 * still runs is waited for, not moved aside under it and submitted twice. */
static void adopt_live_jobs(struct slurm_exec *x)
{
	long *ids = xcalloc(x->sp.n + 1, sizeof(long));
	struct job_state *js = xcalloc(x->sp.n + 1, sizeof(*js));
	char *why = NULL;

	for (size_t i = 0; i < x->sp.n; i++) {
		char *path = xasprintf("%s.job", x->sh[i].dir), *text;
		if (x->sh[i].st == SH_TO_SUBMIT && (text = hb_read_file_nofollow(path, NULL))) {
			ids[i] = strtol(text, NULL, 10);
			free(text);
		}
		free(path);
	}
	if (squeue_states(ids, x->sp.n, js, &why) == 0)
		for (size_t i = 0; i < x->sp.n; i++)
			if (ids[i] && !job_state_final(&js[i])) {
				x->sh[i].job = ids[i];
				x->sh[i].st = SH_QUEUED;
				hb_info("shard %s: job %ld of an earlier submission is %s: waiting for it",
					x->sh[i].s->id, ids[i], js[i].state);
			}
	free(why);
	free(ids);
	free(js);
}

/* RUN/shards/ID.job: the job id, for adopt_live_jobs. */
static void note_job(const struct shard_run *h)
{
	char *path = xasprintf("%s.job", h->dir), *text = xasprintf("%ld\n", h->job);
	hb_write_file_atomic(path, text, strlen(text));
	free(text);
	free(path);
}

static int submit(struct slurm_exec *x)
{
	char *script = (char *)x->spec.script, *dir = xasprintf("%s/shards", x->run_dir);

	size_t submitted = 0;

	hb_mkdir_p(dir, 0755);
	free(dir);
	if (x->r->opts->resume)
		adopt_live_jobs(x);
	if (hb_write_file_atomic(script, job_script, strlen(job_script)) < 0 || chmod(script, 0755) < 0) {
		hb_error("cannot write %s: %s", script, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < x->sp.n; i++) {
		struct shard_run *h = &x->sh[i];
		char **argv, *why = NULL;
		int rc;

		if (h->st != SH_TO_SUBMIT)
			continue;
		if (set_aside(x, h) < 0)
			return -1;
		argv = sbatch_argv(&x->spec, h->s->id);
		rc = sbatch_submit(argv, &h->job, &why);
		hb_free_strv(argv);
		if (rc < 0) {
			hb_error("shard %s: %s", h->s->id, why);
			free(why);
			return -1;
		}
		h->st = SH_QUEUED;
		h->submitted = hb_now() - x->t0;
		note_job(h);
		submitted++;
	}
	fprintf(stderr, "slurm: submitted %zu shard%s (%zu complete already)\n", submitted,
		submitted == 1 ? "" : "s", count_state(x, SH_DONE_BEFORE));
	return 0;
}

static json_object *slurm_meta(const struct slurm_exec *x)
{
	json_object *s = json_object_new_object(), *opts = json_object_new_array();
	const char *cache = getenv("HARDBENCH_CACHE");

	for (size_t i = 0; x->spec.slurm_opts[i]; i++)
		json_object_array_add(opts, json_object_new_string(x->spec.slurm_opts[i]));
	if (x->spec.partition)
		json_object_object_add(s, "partition", json_object_new_string(x->spec.partition));
	json_object_object_add(s, "slurm_opts", opts);
	json_object_object_add(s, "shards", json_object_new_int((int)x->sp.n));
	if (cache)
		json_object_object_add(s, "cache", json_object_new_string(cache));
	return s;
}

/* RUN's own meta.json: new, or the one being resumed (its "resumes" grows). */
static int open_run(struct slurm_exec *x, int argc, char **argv)
{
	struct run *r = x->r;

	if (r->opts->resume) {
		r->meta = rs_read_meta(r->dir);
		r->rs = r->meta ? rs_open_append(r->dir) : NULL;
	} else {
		r->meta = run_meta_build(r, argc, argv);
		json_object_object_add(r->meta, "executor", json_object_new_string("slurm"));
		json_object_object_add(r->meta, "slurm", slurm_meta(x));
		r->rs = rs_create(r->dir, r->meta);
	}
	return r->rs ? 0 : -1;
}

/* Per shard: job, node, and when it was submitted, started and ended (seconds after
 * the executor began; the benchmark's overhead figures come from these). */
static json_object *shards_meta(const struct slurm_exec *x)
{
	json_object *o = json_object_new_object();
	static const char *const names[] = { "complete_before", "not_submitted", "queued", "running",
					     "complete", "failed" };

	for (size_t i = 0; i < x->sp.n; i++) {
		const struct shard_run *h = &x->sh[i];
		json_object *e = json_object_new_object();
		json_object_object_add(e, "state", json_object_new_string(names[h->st]));
		if (h->job) {
			json_object_object_add(e, "job_id", json_object_new_int64(h->job));
			json_object_object_add(e, "node", json_object_new_string(h->js.node));
			json_object_object_add(e, "submitted_s", json_object_new_double(h->submitted));
			json_object_object_add(e, "started_s", json_object_new_double(h->started));
			json_object_object_add(e, "ended_s", json_object_new_double(h->ended));
			json_object_object_add(e, "log", json_object_new_string(h->log));
		}
		json_object_object_add(o, h->s->id, e);
	}
	return o;
}

/* How the guests ran comes from the nodes: the first complete shard's accel. */
static void take_node_facts(json_object *meta, const char *shard_dir)
{
	json_object *sm = rs_read_meta(shard_dir), *v;
	static const char *const keys[] = { RS_META_ACCEL, RS_META_ACCEL_REASON, "machine", "rootfs" };

	for (size_t k = 0; sm && k < sizeof(keys) / sizeof(keys[0]); k++)
		if (json_object_object_get_ex(sm, keys[k], &v))
			json_object_object_add(meta, keys[k], json_object_get(v));
	json_object_put(sm);
}

/* Every complete shard into RUN (again from scratch each time: merging is idempotent). */
static int merge_shards(struct slurm_exec *x)
{
	char **sets = xcalloc(x->sp.n + 1, sizeof(char *));
	size_t n = 0;
	char *why = NULL;
	int rc;

	for (size_t i = 0; i < x->sp.n; i++)
		if (x->sh[i].st == SH_DONE || x->sh[i].st == SH_DONE_BEFORE)
			sets[n++] = x->sh[i].dir;
	if (n)
		take_node_facts(x->r->meta, sets[0]);
	json_object_object_add(x->r->meta, "shards", shards_meta(x));
	rc = merge_sets(x->run_dir, sets, n, x->r->meta, &why);
	free(sets);
	if (rc) {
		hb_error("%s", why);
		free(why);
		return -1;
	}
	json_object_put(x->r->meta);
	x->r->meta = rs_read_meta(x->run_dir);
	return x->r->meta ? 0 : -1;
}

static int finish_run(struct slurm_exec *x, bool merged)
{
	size_t failed = count_state(x, SH_FAILED), left = count_state(x, SH_TO_SUBMIT) +
		count_state(x, SH_QUEUED) + count_state(x, SH_RUNNING);
	bool complete = merged && !failed && !left && !x->interrupted;

	json_object_object_add(x->r->meta, "status", json_object_new_string(complete ? "complete" : "incomplete"));
	json_object_object_add(x->r->meta, "failed_shards", json_object_new_int((int)failed));
	rs_write_meta(x->r->rs, x->r->meta);
	for (size_t i = 0; i < x->sp.n; i++)
		if (x->sh[i].st == SH_FAILED)
			hb_error("shard %s failed: job log %s, cell logs in %s/logs", x->sh[i].s->id,
				 x->sh[i].log, x->sh[i].dir);
	if (!complete)
		fprintf(stderr, "harness: %s: %zu of %zu shards not complete%s; continue with: harness run "
			"--resume %s\n", x->r->dir, failed + left, x->sp.n, x->interrupted ? " (interrupted)" : "",
			x->r->dir);
	if (merged && !x->r->opts->no_report && count_state(x, SH_DONE) + count_state(x, SH_DONE_BEFORE)) {
		struct report_opts ro = { .format = REPORT_TEXT };
		report_run_dir(x->r->dir, &ro, stdout);
		plot_run_dir(x->r->dir, NULL, "both");
		report_write_html(x->r->dir); /* RUN/report.html: tables and charts on one page */
	}
	printf("result set: %s\n", x->r->dir);
	return x->interrupted ? 130 : complete ? HB_EXIT_OK : HB_EXIT_FAIL;
}

static void exec_free(struct slurm_exec *x)
{
	for (size_t i = 0; i < x->sp.n; i++) {
		free(x->sh[i].dir);
		free(x->sh[i].log);
	}
	free(x->sh);
	shard_plan_free(&x->sp);
	free((char *)x->spec.cwd);
	free((char *)x->spec.script);
	free((char *)x->spec.harness);
	hb_free_strv((char **)x->spec.run_args);
	free(x->run_dir);
}

/* slurm_run once its state exists: the exit status. */
static int slurm_run_with(struct slurm_exec *x, struct run *r, int argc, char **argv)
{
	sigset_t stop;
	bool merged;
	char *cache;

	if (r->opts->dry_run)
		return dry_run(x);
	if (!hb_have_program("sbatch") || !hb_have_program("squeue") || !hb_have_program("scancel"))
		return hb_usage("--executor slurm: sbatch, squeue or scancel is not on PATH (accepted: a "
				"host where Slurm's client commands work, e.g. Debian's slurm-client)");
	if (lock_run_dir(r) != 0)
		return HB_EXIT_FAIL;
	cache = hb_cache_dir();
	slurm_check_cache(cache);
	free(cache);
	/* Here, before any job: one build per kernel into the cache every node reads (its
	 * per-key lock is an flock in the cache; see docs/slurm.md for shared filesystems). */
	if (run_build_kernels(r) != 0 || open_run(x, argc, argv) != 0)
		return HB_EXIT_FAIL;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigprocmask(SIG_BLOCK, &stop, NULL); /* taken by slurm_watch between polls */
	if (submit(x) != 0) {
		long *ids = xcalloc(x->sp.n, sizeof(long));
		for (size_t i = 0; i < x->sp.n; i++)
			if (x->sh[i].st == SH_QUEUED) {
				ids[i] = x->sh[i].job;
				x->sh[i].st = SH_TO_SUBMIT;
			}
		scancel_jobs(ids, x->sp.n); /* all or nothing: no half-submitted run */
		free(ids);
		return finish_run(x, merge_shards(x) == 0);
	}
	slurm_watch(x);
	merged = merge_shards(x) == 0;
	return finish_run(x, merged);
}

int slurm_run(struct run *r, int argc, char **argv)
{
	struct slurm_exec x;

	exec_init(&x, r, argc, argv);
	int rc = slurm_run_with(&x, r, argc, argv);
	exec_free(&x);
	return rc;
}
