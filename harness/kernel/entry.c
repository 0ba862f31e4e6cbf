/* The cache entry side of a build: storing, publishing, and failing cleanly. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/make.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"

void make_phase(struct make_state *r, const char *name)
{
	size_t done = r->stats.compiles;

	if (r->progress.total && done > r->progress.total)
		done = r->progress.total;
	/* Before the compile there is no rate to estimate from; after it, little is left. */
	if (r->progress.tty)
		progress_update(&r->progress, done, name, done ? 0 : -1);
	else
		hb_info("%s: %s", r->p->def.name, name);
}

void make_end_progress_line(struct make_state *r)
{
	if (r->progress.line_open)
		fputc('\n', stderr);
	r->progress.line_open = false;
}

/* Work and staging folders belong to the slot's lock holder: leftovers of a killed
 * build are removed before a new one starts. Directories of a source copy are writable
 * (ksource_copy), so removal never needs to touch the shared, hard-linked files. */
void make_remove_owned(const char *path)
{
	if (hb_remove_tree(path) < 0)
		hb_warn("cannot remove %s: %s", path, strerror(errno));
}

/* Removes every folder in trash/: this build's, and any an interrupted removal left. Two
 * removers racing over one folder is harmless: what one misses, the other removes. */
static int empty_trash(const char *trash_dir)
{
	DIR *d = opendir(trash_dir);
	struct dirent *e;
	int rc = 0;

	while (d && (e = readdir(d))) {
		char *path;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		path = hb_path_join(trash_dir, e->d_name);
		rc |= hb_remove_tree(path);
		free(path);
	}
	if (d)
		closedir(d);
	return rc;
}

/* Removing a source copy (80k hard links) waits on the file system for 10-20 s while
 * costing little CPU: the caller should not wait for it. The folder is renamed out of
 * the way at once, then removed by a detached child with no terminal or pipes. */
void make_discard(const struct kernel_plan *p, const char *path)
{
	char *trash_dir = hb_path_join(p->cache, "trash");
	char *trash = xasprintf("%s/%s.%d", trash_dir, p->slot, (int)getpid());
	pid_t pid;

	if (hb_mkdir_p(trash_dir, 0755) < 0 || rename(path, trash) < 0) {
		make_remove_owned(path);
		goto out;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		setsid();
		for (int fd = 0; fd < 3 && null >= 0; fd++)
			dup2(null, fd);
		/* Inherited descriptors would keep the slot's flock held, and a test
		 * runner's pipes open, until the removal ends. */
		close_range(3, ~0U, 0);
		if (fork() == 0) /* a grandchild, so the harness never has to reap it */
			_exit(empty_trash(trash_dir) < 0);
		_exit(0);
	}
	if (pid < 0)
		make_remove_owned(trash);
	else
		waitpid(pid, NULL, 0);
out:
	free(trash);
	free(trash_dir);
}

/* <cache>/failed/<slot><suffix>; the folder is created only when a build fails. */
static char *failed_path(const struct kernel_plan *p, const char *suffix, bool create)
{
	char *dir = hb_path_join(p->cache, "failed");
	char *path = xasprintf("%s/%s%s", dir, p->slot, suffix);

	if (create)
		hb_mkdir_p(dir, 0755);
	free(dir);
	return path;
}

/* Each line of text (freed) prefixed by two spaces, without a final newline. */
static char *indented(char *text)
{
	char *out = xstrdup(""), *save = NULL;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *next = xasprintf("%s%s  %s", out, *out ? "\n" : "", line);
		free(out);
		out = next;
	}
	free(text);
	return out;
}

/* from (a file under the work folder) moved to the path to. The make that wrote it ran
 * as another uid: its folders are walked from the work folder without following a symlink
 * (openat2 RESOLVE_NO_SYMLINKS, RESOLVE_BENEATH), and only a regular file is moved. 0, or
 * -1 with errno. */
static int move_to(const struct make_state *r, const char *from, const char *to)
{
	char *rel = xstrdup(from + strlen(r->p->work) + 1), *slash = strrchr(rel, '/');
	int work = open(r->p->work, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), at = -1, rc = -1;
	struct stat st;
	const char *base = slash ? slash + 1 : rel;

	if (slash)
		*slash = '\0';
	if (work >= 0)
		at = slash ? hb_open_beneath(work, rel, O_PATH | O_DIRECTORY) : dup(work);
	if (at >= 0 && fstatat(at, base, &st, AT_SYMLINK_NOFOLLOW) == 0)
		rc = S_ISREG(st.st_mode) ? renameat(at, base, AT_FDCWD, to) : (errno = EINVAL, -1);
	int e = errno;
	if (at >= 0)
		close(at);
	if (work >= 0)
		close(work);
	free(rel);
	errno = e;
	return rc;
}

static int move_into(const struct make_state *r, const char *from, const char *dir,
		     const char *name)
{
	char *to = hb_path_join(dir, name);
	int rc = move_to(r, from, to);

	if (rc < 0)
		hb_error("cannot move %s to %s: %s", from, to, strerror(errno));
	free(to);
	return rc;
}

void make_fail(struct make_state *r, const char *step, int rc)
{
	char *log = failed_path(r->p, ".log", true);
	char *config = failed_path(r->p, ".config", true);
	char *cfg_src = hb_path_join(r->obj, ".config");
	char *errors, *exit_text = rc ? xasprintf(" (exit %d)", rc) : xstrdup("");

	make_end_progress_line(r);
	/* The obj/.config moved below is the build uid's until then (kernel/sandbox.h). */
	sandbox_take_back(&r->sb);
	if (rename(r->log, log) < 0) {
		free(log);
		log = xstrdup(r->log);
	}
	move_to(r, cfg_src, config); /* none, when configure never made it */
	errors = indented(recipe_error_lines(log, 12));
	hb_error("build '%s' failed at %s%s; log: %s\nlast error lines of the log:\n%s",
		 r->p->def.name, step, exit_text, log, errors);
	free(exit_text);
	free(errors);
	free(cfg_src);
	free(config);
	free(log);
	make_remove_owned(r->p->staging);
	make_discard(r->p, r->p->work);
}

/* A success makes an earlier failure's log and .config of the same key obsolete. */
static void forget_failure(const struct kernel_plan *p)
{
	char *log = failed_path(p, ".log", false);
	char *config = failed_path(p, ".config", false);

	unlink(log);
	unlink(config);
	free(config);
	free(log);
}

static char *read_release(const struct make_state *r)
{
	char *rel = xasprintf("%s/include/config/kernel.release", r->obj + strlen(r->p->work) + 1);
	int work = open(r->p->work, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int fd = work < 0 ? -1 : hb_open_beneath(work, rel, O_RDONLY);
	char *text = fd < 0 ? NULL : hb_read_fd(fd, NULL);

	if (fd >= 0)
		close(fd);
	if (work >= 0)
		close(work);
	free(rel);
	if (text)
		text[strcspn(text, "\n")] = '\0';
	return text;
}

/* modules_install links lib/modules/<release>/build (and source) to the object tree,
 * which is removed after the build: drop the links rather than ship dangling ones. */
static void drop_build_links(const char *staging, const char *release)
{
	static const char *const links[] = { "build", "source", NULL };
	/* The modules and the release were written by the build uid: the folder is reached
	 * without following a symlink, and a release with a '/' names none. */
	char *rel = xasprintf("modules/lib/modules/%s", release);
	int top = open(staging, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int dir = top < 0 || strchr(release, '/') ? -1 : hb_open_beneath(top, rel, O_PATH | O_DIRECTORY);

	for (size_t i = 0; dir >= 0 && links[i]; i++)
		unlinkat(dir, links[i], 0);
	if (dir >= 0)
		close(dir);
	if (top >= 0)
		close(top);
	free(rel);
}

int make_store(struct make_state *r)
{
	char *bz = hb_path_join(r->obj, "arch/x86/boot/bzImage");
	char *vmlinux = hb_path_join(r->obj, "vmlinux");
	char *config = hb_path_join(r->obj, ".config");
	char *release = read_release(r);
	int rc = -1;

	make_phase(r, "store");
	if (!release) {
		hb_error("build '%s': no include/config/kernel.release in %s", r->p->def.name, r->obj);
		goto out;
	}
	drop_build_links(r->p->staging, release);
	if (move_into(r, bz, r->p->staging, "bzImage") < 0 ||
	    move_into(r, vmlinux, r->p->staging, "vmlinux") < 0 ||
	    move_into(r, config, r->p->staging, "config") < 0)
		goto out;
	r->stats.jobs = r->p->jobs;
	r->stats.ccache_used = r->p->ccache;
	if (!r->p->ccache || recipe_ccache_stats(r->ccache_log, &r->stats.ccache_hits,
						&r->stats.ccache_misses) < 0)
		r->stats.ccache_hits = r->stats.ccache_misses = -1;
	r->stats.seconds_total = hb_now() - r->t0;
	r->stats.cpu_seconds = hb_children_cpu_s() - r->cpu0;
	rc = manifest_write(r->p->staging, &(struct manifest_in){
		.build = &r->p->def, .key = r->p->key, .release = release,
		.source_path = r->p->src.path, .source_identity = r->p->src.identity,
		.compiler = r->p->compiler, .options = &r->want, .stats = &r->stats });
	if (rc == 0)
		rc = move_into(r, r->log, r->p->staging, "build.log");
out:
	free(release);
	free(config);
	free(vmlinux);
	free(bz);
	return rc;
}

int make_publish(const struct kernel_plan *p)
{
	char *old = xasprintf("%s.old-%d", p->entry, (int)getpid());
	bool had_old = hb_is_dir(p->entry);
	int rc = 0;

	if (had_old && rename(p->entry, old) < 0)
		rc = -1;
	if (rc == 0 && rename(p->staging, p->entry) < 0) {
		rc = -1;
		if (had_old)
			rename(old, p->entry);
	}
	if (rc < 0)
		hb_error("cannot publish %s as %s: %s", p->staging, p->entry, strerror(errno));
	else if (had_old)
		make_remove_owned(old);
	free(old);
	return rc;
}

static void say_built(const struct make_state *r)
{
	char took[32], cpu[32];
	char rate[64] = "";

	if (r->stats.ccache_hits >= 0 && r->stats.ccache_hits + r->stats.ccache_misses > 0)
		snprintf(rate, sizeof(rate), ", ccache %ld/%ld hits (%.0f%%)", r->stats.ccache_hits,
			 r->stats.ccache_hits + r->stats.ccache_misses,
			 100.0 * (double)r->stats.ccache_hits /
				 (double)(r->stats.ccache_hits + r->stats.ccache_misses));
	hb_info("%s: built in %s, CPU %s (%zu compiles%s) -> %s", r->p->def.name,
		hb_format_duration(r->stats.seconds_total, took, sizeof(took)),
		hb_format_duration(r->stats.cpu_seconds, cpu, sizeof(cpu)), r->stats.compiles, rate,
		r->p->entry);
}

void make_report_success(const struct make_state *r)
{
	say_built(r);
	forget_failure(r->p);
}
