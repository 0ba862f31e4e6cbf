#include "executor/slurm/slurm_jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/spawn.h"
#include "common/xalloc.h"

static void push(char ***v, size_t *n, size_t *cap, char *s)
{
	*v = xgrow(*v, cap, *n + 2, sizeof(char *));
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

/* sbatch reads --output as a pattern: "%j" becomes the job id, "%%" a '%'. A name with
 * a backslash anywhere is taken literally (sbatch's "\\" rule), so it stays as it is. */
static char *output_pattern(const char *run_dir, const char *shard_id)
{
	char *path = xasprintf("%s/shards/%s.log", run_dir, shard_id), *out, *o;

	if (strchr(path, '\\') || !strchr(path, '%'))
		return path;
	out = o = xmalloc(2 * strlen(path) + 1);
	for (const char *p = path; *p; p++)
		if ((*o++ = *p) == '%')
			*o++ = '%';
	*o = '\0';
	free(path);
	return out;
}

char **sbatch_argv(const struct sbatch_spec *s, const char *shard_id)
{
	char *output = output_pattern(s->run_dir, shard_id);

	char **v = NULL;
	size_t n = 0, cap = 0;

	push(&v, &n, &cap, xstrdup("sbatch"));
	push(&v, &n, &cap, xstrdup("--parsable"));
	/* A requeued shard would run its cells twice (after a node failure Slurm reruns
	 * the script from the start); a failed shard is resubmitted by --resume instead. */
	push(&v, &n, &cap, xstrdup("--no-requeue"));
	/* The whole node: no other job's load on the cores the guests are pinned to. */
	push(&v, &n, &cap, xstrdup("--exclusive"));
	push(&v, &n, &cap, xstrdup("--nodes=1"));
	push(&v, &n, &cap, xstrdup("--ntasks=1"));
	push(&v, &n, &cap, xasprintf("--job-name=hb-%s", shard_id));
	/* Absolute paths: relative ones resolve against whatever cwd sbatch had. */
	push(&v, &n, &cap, xasprintf("--chdir=%s", s->cwd));
	push(&v, &n, &cap, xasprintf("--output=%s", output));
	free(output);
	if (s->partition)
		push(&v, &n, &cap, xasprintf("--partition=%s", s->partition));
	for (size_t i = 0; s->slurm_opts[i]; i++)
		push(&v, &n, &cap, xstrdup(s->slurm_opts[i]));
	push(&v, &n, &cap, xstrdup(s->script));
	push(&v, &n, &cap, xstrdup(s->harness));
	push(&v, &n, &cap, xstrdup("run"));
	for (size_t i = 0; s->run_args[i]; i++)
		push(&v, &n, &cap, xstrdup(s->run_args[i]));
	push(&v, &n, &cap, xstrdup("--executor=local"));
	push(&v, &n, &cap, xasprintf("--shard-of=%s", s->run_dir));
	push(&v, &n, &cap, xasprintf("--shard=%s", shard_id));
	return v;
}

static bool plain_word(const char *w)
{
	if (!*w)
		return false;
	for (; *w; w++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%", *w))
			return false;
	return true;
}

char *argv_display(char *const *argv)
{
	size_t cap = 1;
	char *out, *p;

	for (size_t i = 0; argv[i]; i++)
		cap += 4 * strlen(argv[i]) + 3;
	out = p = xmalloc(cap);
	*p = 0;
	for (size_t i = 0; argv[i]; i++) {
		if (i)
			*p++ = ' ';
		if (plain_word(argv[i])) {
			p += sprintf(p, "%s", argv[i]);
			continue;
		}
		*p++ = '\'';
		for (const char *c = argv[i]; *c; c++)
			p += *c == '\'' ? sprintf(p, "'\\''") : sprintf(p, "%c", *c);
		*p++ = '\'';
		*p = 0;
	}
	return out;
}

int sbatch_submit(char *const *argv, long *job_id, char **why)
{
	int code = -1;
	char *out = hb_run_capture(argv, &code), *end = NULL;

	*job_id = out ? strtol(out, &end, 10) : 0;
	/* --parsable prints "ID" or "ID;CLUSTER". */
	if (!out || code != 0 || *job_id <= 0 || end == out) {
		*why = xasprintf("sbatch failed (exit %d%s%s)", code, out && *out ? ", said: " : "",
				 out ? strtok(out, "\n") ?: "" : "");
		free(out);
		return -1;
	}
	free(out);
	return 0;
}

static void copy_field(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

int squeue_states(const long *ids, size_t n, struct job_state *out, char **why)
{
	/* Our jobs only (--me), finished ones too (-t all) while Slurm keeps them (MinJobAge):
	 * one call per poll however many shards. A job id squeue no longer knows would make
	 * `squeue -j` fail for all of them. */
	char *argv[] = { "squeue", "--me", "-h", "-t", "all", "-o", "%i|%T|%N|%r", NULL };
	int code = -1;
	char *text = hb_run_capture(argv, &code), *save = NULL;

	for (size_t i = 0; i < n; i++)
		out[i] = (struct job_state){ 0 };
	if (!text || code != 0) {
		*why = xasprintf("squeue failed (exit %d)", code);
		free(text);
		return -1;
	}
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[4] = { 0 }, *s2 = NULL;
		long id;
		f[0] = strtok_r(line, "|", &s2);
		for (int k = 1; k < 4; k++)
			f[k] = strtok_r(NULL, "|", &s2);
		id = f[0] ? strtol(f[0], NULL, 10) : 0;
		for (size_t i = 0; i < n; i++)
			if (ids[i] && ids[i] == id) {
				out[i].listed = true;
				copy_field(out[i].state, sizeof(out[i].state), f[1]);
				copy_field(out[i].node, sizeof(out[i].node), f[2]);
				copy_field(out[i].reason, sizeof(out[i].reason), f[3]);
			}
	}
	free(text);
	return 0;
}

bool job_state_final(const struct job_state *s)
{
	static const char *const active[] = { "PENDING", "CONFIGURING", "RUNNING", "COMPLETING",
					      "SUSPENDED", "REQUEUED", "RESIZING", "SIGNALING",
					      "STAGE_OUT", "REQUEUE_HOLD", "REQUEUE_FED", NULL };
	if (!s->listed)
		return true;
	for (size_t i = 0; active[i]; i++)
		if (!strcmp(s->state, active[i]))
			return false;
	return true;
}

void scancel_jobs(const long *ids, size_t n)
{
	char **argv = xcalloc(n + 2, sizeof(char *));
	size_t k = 0;

	argv[k++] = xstrdup("scancel");
	for (size_t i = 0; i < n; i++)
		if (ids[i])
			argv[k++] = xasprintf("%ld", ids[i]);
	if (k > 1)
		hb_run(argv, NULL);
	hb_free_strv(argv);
}
