#include "kernel/series_check.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/paths.h"
#include "common/spawn.h"
#include "common/xalloc.h"
#include "kernel/source.h"
#include "common/tmpdir.h"
#include "common/unpriv.h"
#include "configs/kline.h"

/* A -p1 path stays inside the tree: relative, no "..", not empty. */
static bool safe_path(const char *p)
{
	if (!*p || *p == '/')
		return false;
	for (const char *c = p; *c; c = strchr(c, '/') ? strchr(c, '/') + 1 : c + strlen(c))
		if (!strncmp(c, "../", 3) || !strcmp(c, ".."))
			return false;
	return true;
}

/* "--- a/x/y.c\t2026-..." -> "x/y.c"; NULL for /dev/null. */
static char *strip_one(const char *line)
{
	const char *p = line + 4, *slash;
	size_t n = strcspn(p, "\t\n");

	if (!strncmp(p, "/dev/null", 9))
		return NULL;
	slash = memchr(p, '/', n);
	if (!slash)
		return xstrdup("");
	return xstrndup(slash + 1, n - (size_t)(slash + 1 - p));
}

char **series_patch_files(const char *text, char **why)
{
	struct hb_strv v = { 0 };

	hb_strv_push(&v, NULL);
	v.n = 0;
	for (const char *p = text; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		char *path;
		if (strncmp(p, "--- ", 4) && strncmp(p, "+++ ", 4))
			continue;
		if (!(path = strip_one(p)))
			continue;
		if (!safe_path(path)) {
			*why = xasprintf("names the file '%s', which is outside the kernel tree", path);
			free(path);
			hb_free_strv(v.v);
			return NULL;
		}
		if (hb_strv_contains(v.v, path))
			free(path);
		else
			hb_strv_push(&v, path);
	}
	return v.v;
}

/* The folder of rel inside the scratch copy, made where missing, walked one component at
 * a time without following a symlink: an earlier patch of the series may have made one
 * (patch 1 makes usr a link to a root folder, patch 2 touches usr/Makefile), and what
 * root copies in must land in the copy, nowhere else. A descriptor, or -1 with errno
 * (ELOOP for a symlink on the way). */
static int open_parent_in(int scratch, const char *rel, const char **base)
{
	char *copy = xstrdup(rel), *save = NULL, *next;
	int at = dup(scratch);

	*base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
	for (char *c = strtok_r(copy, "/", &save); c && at >= 0 && (next = strtok_r(NULL, "/", &save));
	     c = next) {
		int fd;
		if (mkdirat(at, c, 0755) < 0 && errno != EEXIST)
			fd = -1;
		else
			fd = openat(at, c, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(at);
		at = fd;
	}
	free(copy);
	return at;
}

/* tree/rel -> scratch/rel when it is a file there (new files the patch makes itself),
 * created new (O_EXCL, O_NOFOLLOW) in a folder reached without following a symlink.
 * 0, or -1 with errno. */
static int copy_in(const char *tree, int scratch, const char *rel)
{
	char *src = hb_path_join(tree, rel);
	size_t len;
	char *text = hb_is_file(src) ? hb_read_file(src, &len) : NULL;
	const char *base;
	int dir, fd, rc = 0;

	if (text) {
		dir = open_parent_in(scratch, rel, &base);
		fd = dir < 0 ? -1 : openat(dir, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (dir < 0 || (fd < 0 && errno != EEXIST) || (fd >= 0 && hb_write_all(fd, text, len) < 0))
			rc = -1;
		if (fd >= 0)
			close(fd);
		if (dir >= 0)
			close(dir);
	}
	free(text);
	free(src);
	return rc;
}

/* The line of patch's output that says why: the first failed hunk with the file it was
 * patching, else patch's own complaint. */
static char *failure_reason(const char *out)
{
	char *file = NULL, *reason = NULL;

	for (const char *p = out; *p && !reason; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		size_t n = strcspn(p, "\n");
		if (!strncmp(p, "patching file ", 14)) {
			free(file);
			file = xstrndup(p + 14, n - 14);
		} else if (!strncmp(p, "Hunk #", 6) && memmem(p, n, "FAILED", 6)) {
			reason = xasprintf("%.*s in %s", (int)(n - (p[n - 1] == '.')), p, file ? file : "?");
			reason[0] = 'h';
		} else if (memmem(p, n, "can't find file", 15) || memmem(p, n, "Reversed", 8) ||
			   !strncmp(p, "patch: ", 7)) {
			reason = xstrndup(p, n);
		}
	}
	if (!reason)
		reason = xstrdup(*out ? hb_tail_lines(out, 1) : "patch failed without a message");
	reason[strcspn(reason, "\n")] = '\0';
	free(file);
	return reason;
}

/* Runs patch on one mail inside scratch, as the unprivileged uid (common/unpriv.h): the
 * copy's folders are handed to it first, the mail comes on its standard input and its
 * messages go to a memfd, so nothing in the folder it writes is read back by root. -1
 * with *why. */
static int apply_one(const struct series *s, size_t i, const char *tree, int scratchfd,
		     const char *scratch, char **why)
{
	const struct series_patch *sp = &s->patches[i];
	int in = memfd_create("hardbench-patch", MFD_CLOEXEC);
	int log = memfd_create("hardbench-patch-log", MFD_CLOEXEC);
	char **argv = ksource_patch_argv(NULL), *out, *reason;
	int rc = -1;

	if (in < 0 || log < 0 || hb_write_all(in, sp->text, strlen(sp->text)) < 0 ||
	    lseek(in, 0, SEEK_SET) != 0 || hb_unpriv_give_at(scratchfd, ".") < 0) {
		*why = xasprintf("cannot prepare %s for patch %zu: %s", scratch, i + 1, strerror(errno));
	} else if (hb_run(argv, &(struct spawn_opts){ .cwd = scratch, .stdin_fd = in, .stdout_fd = log,
						      .stderr_fd = log, .unprivileged = true }) == 0) {
		rc = 0;
	} else {
		out = hb_read_fd(log, NULL);
		reason = failure_reason(out ? out : "");
		*why = xasprintf("%s: patch %zu/%zu '%s' does not apply to %s: %s", sp->origin, i + 1,
				 s->n, sp->subject, tree, reason);
		free(reason);
		free(out);
	}
	hb_free_strv(argv);
	if (in >= 0)
		close(in);
	if (log >= 0)
		close(log);
	return rc;
}

static int check_in(const struct series *s, const char *tree, int scratchfd, const char *scratch,
		    char **why);

int series_check_applies(const struct series *s, const char *tree, const char *scratch, char **why)
{
	int fd = open(scratch, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), rc;

	if (fd < 0) {
		*why = xasprintf("%s: %s", scratch, strerror(errno));
		return -1;
	}
	rc = check_in(s, tree, fd, scratch, why);
	close(fd);
	return rc;
}

static int check_in(const struct series *s, const char *tree, int scratchfd, const char *scratch,
		    char **why)
{
	for (size_t i = 0; i < s->n; i++) {
		char *reason = NULL;
		char **files = series_patch_files(s->patches[i].text, &reason);

		if (!files) {
			*why = xasprintf("%s: patch %zu/%zu %s", s->patches[i].origin, i + 1, s->n, reason);
			free(reason);
			return -1;
		}
		for (size_t f = 0; files[f]; f++)
			if (copy_in(tree, scratchfd, files[f]) < 0) {
				*why = errno == ELOOP || errno == ENOTDIR ?
				       xasprintf("%s: patch %zu/%zu names %s, below a symlink an earlier patch "
						 "of the series made (accepted: files inside the kernel tree)",
						 s->patches[i].origin, i + 1, s->n, files[f]) :
				       xasprintf("cannot copy %s from %s into %s: %s", files[f], tree,
						 scratch, strerror(errno));
				hb_free_strv(files);
				return -1;
			}
		hb_free_strv(files);
		if (apply_one(s, i, tree, scratchfd, scratch, why) < 0)
			return -1;
	}
	return 0;
}

/* The source tree of line a series must apply to; NULL (not checked) when a dry run
 * would have to extract it first. */
static char *line_tree(const char *line, char *const *sources, bool dry_run, char **why)
{
	const char *src = kline_source_for(sources, line);
	struct line_def l = { 0 };
	struct ksource ks;
	char *cache = hb_cache_dir(), *tree = NULL;

	if (!src && config_require_line(line, &l, why) == 0)
		src = l.source;
	if (src && ksource_identify(src, cache, &ks) == 0) {
		tree = ksource_shared_path(&ks, cache);
		if (!hb_is_dir(tree)) {
			free(tree);
			tree = dry_run ? NULL : ksource_shared_tree(&ks, cache);
			if (!tree && !dry_run)
				*why = xasprintf("kernel line %s: cannot extract %s", line, src);
		}
		ksource_free(&ks);
	} else if (src) {
		*why = xasprintf("kernel line %s: cannot read its source %s", line, src);
	}
	line_def_free(&l);
	free(cache);
	return tree;
}

int kernel_series_applies(const struct series *s, const char *name, char *const *lines,
			  char *const *sources, bool dry_run, char **why)
{
	for (size_t i = 0; lines[i]; i++) {
		char *reason = NULL, *tree = line_tree(lines[i], sources, dry_run, &reason);
		char *scratch;
		int rc;

		if (!tree && reason) {
			*why = xasprintf("--patch %s: %s", name, reason);
			free(reason);
			return -1;
		}
		if (!tree)
			continue; /* a dry run with the source not extracted yet */
		if (!(scratch = hb_mkdtemp_owned(HB_TMP_CONFIGS))) {
			*why = xasprintf("cannot make a folder under the temporary root: %s", strerror(errno));
			free(tree);
			return -1;
		}
		rc = series_check_applies(s, tree, scratch, &reason);
		if (rc < 0)
			*why = xasprintf("--patch %s: %s", name, reason);
		free(reason);
		hb_remove_tree(scratch);
		free(scratch);
		free(tree);
		if (rc < 0)
			return -1;
	}
	return 0;
}
