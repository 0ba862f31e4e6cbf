#include "kernel/recipe.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "common/spawn.h"
#include "common/xalloc.h"
#include "configs/extmod.h"

static const char *const step_names[STEP_COUNT] = { "tinyconfig", "merge fragments", "olddefconfig",
						    "compile", "modules_install" };

const char *recipe_step_name(enum recipe_step step)
{
	return step < STEP_COUNT ? step_names[step] : "?";
}

/* make ARCH=x86_64 O=obj [CC=.. HOSTCC=..]: the same on every make step, or Kconfig
 * would see a different compiler between tinyconfig and the build. */
static void push_make_head(struct hb_strv *s, const struct recipe *r)
{
	hb_strv_push(s, xstrdup("make"));
	hb_strv_push(s, xstrdup("ARCH=x86_64"));
	hb_strv_push(s, xstrdup("O=" RECIPE_OBJ));
	if (r->ccache) {
		hb_strv_push(s, xstrdup("CC=ccache gcc"));
		hb_strv_push(s, xstrdup("HOSTCC=ccache gcc"));
	}
}

char **recipe_argv(const struct recipe *r, enum recipe_step step)
{
	struct hb_strv s = { 0 };

	if (step == STEP_MERGE) {
		hb_strv_push(&s, xstrdup("scripts/kconfig/merge_config.sh"));
		hb_strv_push(&s, xstrdup("-m"));
		hb_strv_push(&s, xstrdup("-O"));
		hb_strv_push(&s, xstrdup(RECIPE_OBJ));
		hb_strv_push(&s, xstrdup(RECIPE_OBJ "/.config"));
		for (size_t i = 0; r->fragments && r->fragments[i]; i++)
			hb_strv_push(&s, xstrdup(r->fragments[i]));
		return s.v;
	}
	push_make_head(&s, r);
	switch (step) {
	case STEP_TINYCONFIG:
		hb_strv_push(&s, xstrdup("tinyconfig"));
		break;
	case STEP_OLDDEFCONFIG:
		hb_strv_push(&s, xstrdup("olddefconfig"));
		break;
	case STEP_COMPILE:
		hb_strv_push(&s, xasprintf("-j%d", r->jobs));
		hb_strv_push(&s, xstrdup("bzImage"));
		hb_strv_push(&s, xstrdup("modules"));
		break;
	case STEP_MODULES_INSTALL:
		hb_strv_push(&s, xstrdup("modules_install"));
		hb_strv_push(&s, xasprintf("INSTALL_MOD_PATH=%s", r->modules_dir));
		hb_strv_push(&s, xstrdup("INSTALL_MOD_STRIP=1"));
		break;
	default:
		break;
	}
	return s.v;
}

char **recipe_module_argv(const struct recipe *r, const char *dir, bool install)
{
	struct hb_strv s = { 0 };

	push_make_head(&s, r);
	hb_strv_push(&s, xasprintf("M=%s", dir));
	if (install) {
		hb_strv_push(&s, xstrdup("modules_install"));
		hb_strv_push(&s, xasprintf("INSTALL_MOD_PATH=%s", r->modules_dir));
		/* kbuild's default is extra/ up to 6.5, updates/ since: one place on every line. */
		hb_strv_push(&s, xstrdup("INSTALL_MOD_DIR=" EXTMOD_INSTALL_DIR));
		hb_strv_push(&s, xstrdup("INSTALL_MOD_STRIP=1"));
	} else {
		hb_strv_push(&s, xasprintf("-j%d", r->jobs));
		hb_strv_push(&s, xstrdup("modules"));
	}
	return s.v;
}

char **recipe_env(const struct recipe *r)
{
	struct hb_strv s = { 0 };

	hb_strv_push(&s, xstrdup("LC_ALL=C"));
	hb_strv_push(&s, xstrdup("KBUILD_BUILD_USER=hardbench"));
	hb_strv_push(&s, xstrdup("KBUILD_BUILD_HOST=hardbench"));
	if (r->sandbox && r->sandbox->on)
		hb_strv_push(&s, xstrdup("HOME=" SANDBOX_WORK));
	if (r->ccache) {
		/* Paths under the copy become relative, and the working directory (which
		 * differs per copy) is left out of the hash. */
		char *tree = r->sandbox ? sandbox_path(r->sandbox, r->tree) : xstrdup(r->tree);
		hb_strv_push(&s, xasprintf("CCACHE_BASEDIR=%s", tree));
		free(tree);
		/* Root's ccache is not the build uid's to write: the build ccache is. */
		if (r->sandbox && r->sandbox->on)
			hb_strv_push(&s, xstrdup("CCACHE_DIR=" SANDBOX_CCACHE));
		hb_strv_push(&s, xstrdup("CCACHE_NOHASHDIR=1"));
		if (r->ccache_log)
			hb_strv_push(&s, xasprintf("CCACHE_STATSLOG=%s", r->ccache_log));
	}
	return s.v;
}

static bool needs_quotes(const char *a)
{
	return !*a || strpbrk(a, " \t\n'\"\\$`*?[]{}()<>|&;!#~");
}

char *recipe_render(char *const *argv)
{
	char *out = xstrdup("");

	for (size_t i = 0; argv[i]; i++) {
		char *q, *next;
		if (needs_quotes(argv[i]) && !strchr(argv[i], '\''))
			q = xasprintf("'%s'", argv[i]);
		else
			q = xstrdup(argv[i]);
		next = xasprintf("%s%s%s", out, i ? " " : "", q);
		free(q);
		free(out);
		out = next;
	}
	return out;
}

size_t recipe_count_compiles(const char *text, size_t len)
{
	static const char mark[] = "  CC ";
	size_t count = 0;
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (l >= sizeof(mark) - 1 && !memcmp(p, mark, sizeof(mark) - 1))
			count++;
		p += l + 1;
	}
	return count;
}

/* Reads what was appended to the log since *offset, counting whole lines only. */
static size_t poll_compiles(int fd, off_t *offset)
{
	char buf[1 << 16];
	size_t count = 0;
	ssize_t n;

	while ((n = pread(fd, buf, sizeof(buf), *offset)) > 0) {
		char *last_nl = memrchr(buf, '\n', (size_t)n);
		if (!last_nl)
			break;
		count += recipe_count_compiles(buf, (size_t)(last_nl - buf + 1));
		*offset += last_nl - buf + 1;
	}
	return count;
}

/* Waits for pid, updating progress every half second from the log's compile lines. */
static int wait_with_progress(pid_t pid, const char *log, struct progress *p, size_t *compiles)
{
	int fd = open(log, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	off_t offset = fd >= 0 ? lseek(fd, 0, SEEK_END) : 0;
	size_t seen = 0;
	int status = 0;
	pid_t done = 0;
	double started = hb_now();

	while ((done = waitpid(pid, &status, WNOHANG)) == 0) {
		struct timespec half = { 0, 500 * 1000 * 1000 };
		nanosleep(&half, NULL);
		if (fd >= 0)
			seen += poll_compiles(fd, &offset);
		if (p && p->tty) {
			size_t shown = p->total && seen > p->total ? p->total : seen;
			/* The rate of this step only: configure time says nothing about it. */
			double eta = shown ? (hb_now() - started) / (double)shown *
						     (double)(p->total - shown) : -1;
			progress_update(p, shown, "compile", eta);
		}
	}
	if (fd >= 0) {
		seen += poll_compiles(fd, &offset);
		close(fd);
	}
	if (compiles)
		*compiles = seen;
	if (done < 0)
		return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}

static void log_command(const char *log, char *const *argv)
{
	char *cmd = recipe_render(argv);
	FILE *f = hb_fopen_nofollow(log, "a");

	if (f) {
		fprintf(f, "+ %s\n", cmd);
		fclose(f);
	}
	free(cmd);
}

/* Runs argv in the tree with the steps' environment, output appended to log; a compile
 * shows progress and counts compiles. */
static int run_argv(const struct recipe *r, char **argv, const char *log, bool compile,
		    struct progress *p, size_t *compiles)
{
	char **env = recipe_env(r);
	struct spawn_opts o = { .cwd = r->tree, .stdout_path = log, .stderr_path = "=stdout",
				.append = true, .stdin_null = true, .new_pgrp = false, .parent_death_signal = SIGTERM,
				.env_add = env };

	/* make runs the tree's Makefiles, a patch's included: never as root. */
	if (r->sandbox && r->sandbox->on) {
		o.cwd = NULL; /* the sandbox's src/ (sandbox_enter) */
		o.setup = sandbox_enter;
		o.setup_ctx = r->sandbox;
		o.unprivileged = true;
	}
	pid_t pid;
	int rc;

	log_command(log, argv);
	pid = hb_spawn(argv, &o);
	if (pid < 0)
		rc = -1;
	else if (compile)
		rc = wait_with_progress(pid, log, p, compiles);
	else
		rc = hb_wait(pid);
	hb_free_strv(env);
	return rc;
}

int recipe_run(const struct recipe *r, enum recipe_step step, const char *log,
	       struct progress *p, size_t *compiles)
{
	char **argv = recipe_argv(r, step);
	int rc = run_argv(r, argv, log, step == STEP_COMPILE, p, compiles);

	hb_free_strv(argv);
	return rc;
}

int recipe_run_argv(const struct recipe *r, char **argv, const char *log)
{
	return run_argv(r, argv, log, false, NULL, NULL);
}

int recipe_ccache_stats(const char *statslog, long *hits, long *misses)
{
	char *text = statslog ? hb_read_file_nofollow(statslog, NULL) : NULL;
	char *save = NULL;

	*hits = *misses = 0;
	if (!text)
		return -1;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strcmp(line, "direct_cache_hit") || !strcmp(line, "preprocessed_cache_hit"))
			(*hits)++;
		else if (!strcmp(line, "cache_miss"))
			(*misses)++;
	}
	free(text);
	return 0;
}

static bool is_error_line(const char *line, size_t len)
{
	char *copy = xstrndup(line, len);
	bool yes = strstr(copy, "error:") || strstr(copy, "Error ");
	free(copy);
	return yes;
}

char *recipe_error_lines(const char *log, int max_lines)
{
	char *text = hb_read_file_nofollow(log, NULL);
	const char **starts = NULL;
	size_t *lens = NULL, n = 0, cap_s = 0, cap_l = 0;
	char *out;

	if (!text)
		return xasprintf("(cannot read %s: %s)", log, strerror(errno));
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		if (is_error_line(p, l)) {
			starts = xgrow(starts, &cap_s, n + 1, sizeof(*starts));
			lens = xgrow(lens, &cap_l, n + 1, sizeof(*lens));
			starts[n] = p;
			lens[n++] = l;
		}
		p += l + (nl ? 1 : 0);
	}
	if (n == 0) {
		out = xstrdup(hb_tail_lines(text, max_lines));
	} else {
		out = xstrdup("");
		for (size_t i = n > (size_t)max_lines ? n - (size_t)max_lines : 0; i < n; i++) {
			char *next = xasprintf("%s%.*s\n", out, (int)lens[i], starts[i]);
			free(out);
			out = next;
		}
	}
	free(starts);
	free(lens);
	free(text);
	return out;
}
