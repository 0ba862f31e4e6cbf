#include "kernel/source.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/hash.h"
#include "common/lock.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/progress.h"
#include "common/spawn.h"
#include "common/xalloc.h"

/* The memo of a tarball's hash: "<size> <mtime sec>.<nsec> <sha256>". */
static char *memo_path(const char *cache, const char *path)
{
	char h[HB_SHA256_HEX];

	hb_sha256_str(path, h);
	return xasprintf("%s/src/ids/%.24s.id", cache, h);
}

static int tarball_identity(const char *path, const char *cache, const struct stat *st, char *hex)
{
	char *memo = memo_path(cache, path);
	char *text = hb_read_file_nofollow(memo, NULL);
	char *want = xasprintf("%lld %lld.%09ld ", (long long)st->st_size, (long long)st->st_mtim.tv_sec,
			       st->st_mtim.tv_nsec);
	int rc = 0;

	if (text && !strncmp(text, want, strlen(want)) && strlen(text + strlen(want)) >= 64) {
		memcpy(hex, text + strlen(want), 64);
		hex[64] = '\0';
	} else if (hb_sha256_file(path, hex) < 0) {
		hb_error("cannot read source tarball %s: %s", path, strerror(errno));
		rc = -1;
	} else {
		char *line = xasprintf("%s%s\n", want, hex);
		char *dir = xstrdup(memo);
		/* A memo that cannot be written only costs a rehash next time. */
		if (hb_mkdir_p(dirname(dir), 0755) < 0 || hb_write_file_atomic(memo, line, strlen(line)) < 0)
			hb_warn("cannot write %s: %s", memo, strerror(errno));
		free(dir);
		free(line);
	}
	free(want);
	free(text);
	free(memo);
	return rc;
}

/* Output of a git command in tree, NULL when it fails. */
static char *git_output(const char *tree, const char *a1, const char *a2, const char *a3)
{
	char *argv[] = { "git", "--no-optional-locks", "-C", (char *)tree, (char *)a1, (char *)a2,
			 (char *)a3, NULL };
	int rc = -1;
	char *out = hb_run_capture(argv, &rc);

	if (rc != 0) {
		free(out);
		return NULL;
	}
	return out;
}

/* git:<HEAD>:<hash of status and diff>: a dirty tree keys differently from a clean one. */
static char *git_identity(const char *tree)
{
	char *top = git_output(tree, "rev-parse", "--show-toplevel", NULL);
	char *head, *status, *diff, *id = NULL;
	char hex[HB_SHA256_HEX];

	/* Only the tree's own repository: a plain tree inside some other checkout must not
	 * key by that checkout's HEAD. */
	if (top)
		top[strcspn(top, "\n")] = '\0';
	if (!top || strcmp(top, tree)) {
		free(top);
		return NULL;
	}
	free(top);
	head = git_output(tree, "rev-parse", "--verify", "HEAD");
	if (!head)
		return NULL;
	head[strcspn(head, "\n")] = '\0';
	status = git_output(tree, "status", "--porcelain", NULL);
	diff = git_output(tree, "diff", "HEAD", NULL);
	if (status && diff) {
		struct hb_sha256 *h = hb_sha256_new();
		hb_sha256_add_str(h, status);
		hb_sha256_add_str(h, "\n--diff--\n");
		hb_sha256_add_str(h, diff);
		hb_sha256_finish(h, hex);
		id = xasprintf("git:%s:%s", head, hex);
	}
	free(status);
	free(diff);
	free(head);
	return id;
}

/* Not a git tree: a hash over every path, size and mtime (nanoseconds), in sorted order. */
struct tree_walk {
	char **lines;
	size_t n, cap, root_len;
};

static void collect_entry(const char *path, const struct stat *st, struct tree_walk *w)
{
	w->lines = xgrow(w->lines, &w->cap, w->n + 1, sizeof(*w->lines));
	w->lines[w->n++] = xasprintf("%s %lld %lld.%09ld\n", path + w->root_len, (long long)st->st_size,
				     (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec);
}

/* nftw callbacks get no user pointer: a small recursion instead. */
static int walk_tree(const char *dir, struct tree_walk *w)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return -1;
	while (rc == 0 && (e = readdir(d))) {
		char *path;
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		path = hb_path_join(dir, e->d_name);
		if (lstat(path, &st) == 0) {
			collect_entry(path, &st, w);
			if (S_ISDIR(st.st_mode))
				rc = walk_tree(path, w);
		}
		free(path);
	}
	closedir(d);
	return rc;
}

static char *plain_tree_identity(const char *tree)
{
	struct tree_walk w = { .root_len = strlen(tree) };
	struct hb_sha256 *h;
	char hex[HB_SHA256_HEX];

	if (walk_tree(tree, &w) < 0) {
		for (size_t i = 0; i < w.n; i++)
			free(w.lines[i]);
		free(w.lines);
		return NULL;
	}
	hb_strv_sort(w.lines, w.n);
	h = hb_sha256_new();
	for (size_t i = 0; i < w.n; i++) {
		hb_sha256_add_str(h, w.lines[i]);
		free(w.lines[i]);
	}
	free(w.lines);
	hb_sha256_finish(h, hex);
	return xasprintf("tree:%s", hex);
}

/* <stem>-<first 12 hex of the identity's hash>: readable and unique per source. */
static char *make_label(const char *path, size_t suffix_len, const char *identity)
{
	char *copy = xstrdup(path);
	char *base = basename(copy);
	char hex[HB_SHA256_HEX];
	char *label;

	base[strlen(base) - suffix_len] = '\0';
	hb_sha256_str(identity, hex);
	label = xasprintf("%s-%.12s", *base ? base : "source", hex);
	free(copy);
	return label;
}

int ksource_identify(const char *path, const char *cache, struct ksource *out)
{
	struct stat st;
	char *abs;

	*out = (struct ksource){ 0 };
	if (!path)
		path = KSOURCE_DEFAULT;
	if (stat(path, &st) < 0 || !(abs = realpath(path, NULL))) {
		hb_error("kernel source %s: %s%s", path, strerror(errno),
			 strcmp(path, KSOURCE_DEFAULT) ? "" : " (install Debian's linux-source-6.1 or pass --source)");
		return -1;
	}
	out->path = abs;
	out->is_tarball = S_ISREG(st.st_mode);
	if (out->is_tarball) {
		char hex[HB_SHA256_HEX];
		if (tarball_identity(abs, cache, &st, hex) < 0) {
			ksource_free(out);
			return -1;
		}
		out->identity = xasprintf("tarball:%s", hex);
	} else {
		out->identity = git_identity(abs);
		if (!out->identity)
			out->identity = plain_tree_identity(abs);
		if (!out->identity) {
			hb_error("cannot read kernel source tree %s: %s", abs, strerror(errno));
			ksource_free(out);
			return -1;
		}
	}
	out->label = make_label(abs, out->is_tarball ? hb_tarball_suffix_len(abs) : 0, out->identity);
	return 0;
}

static int chmod_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)ftw;
	if (flag == FTW_SL || S_ISLNK(st->st_mode))
		return 0;
	return chmod(path, st->st_mode & ~(mode_t)0222) < 0 ? -1 : 0;
}

int ksource_make_read_only(const char *tree)
{
	/* Depth-first: a directory loses its write bit after its entries. */
	return nftw(tree, chmod_entry, 32, FTW_PHYS | FTW_DEPTH);
}

static int writable_dir(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)ftw;
	if (flag != FTW_D && flag != FTW_DP)
		return 0;
	return chmod(path, st->st_mode | 0200) < 0 ? -1 : 0;
}

/* Makes a tree removable again: hb_remove_tree cannot unlink in a read-only directory
 * unless we are root. */
static void make_dirs_writable(const char *tree)
{
	nftw(tree, writable_dir, 32, FTW_PHYS);
}

/* The single top-level directory a kernel tarball unpacks to, else dir itself. */
static char *unpacked_root(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *only = NULL;
	int count = 0;

	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		count++;
		free(only);
		only = hb_path_join(dir, e->d_name);
	}
	if (d)
		closedir(d);
	if (count == 1 && hb_is_dir(only))
		return only;
	free(only);
	return xstrdup(dir);
}

char *ksource_shared_path(const struct ksource *s, const char *cache)
{
	return s->is_tarball ? xasprintf("%s/src/%s", cache, s->label) : xstrdup(s->path);
}

static bool looks_like_kernel(const char *tree)
{
	char *mk = hb_path_join(tree, "Makefile");
	char *kc = hb_path_join(tree, "Kconfig");
	bool ok = hb_is_file(mk) && hb_is_file(kc);

	free(mk);
	free(kc);
	return ok;
}

/* Written last, after the tree is complete and read-only: <cache>/src/<label>.extracted
 * holding the tarball's identity. A tree without it (a crash between the rename and
 * the chmod, an older harness, someone else's folder) is never built from. */
static char *stamp_path(const struct ksource *s, const char *cache)
{
	return xasprintf("%s/src/%s.extracted", cache, s->label);
}

/* A tree an older harness extracted (no stamp yet) is adopted when it is ours and its top
 * folder is read-only: ksource_make_read_only goes depth-first, so the top folder loses
 * its write bits last, after a complete extraction and move. Another user's tree, or one
 * whose chmod was cut short, is not. */
static bool legacy_complete(const char *final)
{
	struct stat st;

	return lstat(final, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
	       !(st.st_mode & 0222);
}

static int write_stamp(const struct ksource *s, const char *cache);

bool ksource_tree_ready(const struct ksource *s, const char *cache)
{
	char *final = ksource_shared_path(s, cache), *stamp = stamp_path(s, cache);
	char text[256] = "";
	struct stat st;
	int fd = open(stamp, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	bool ok = false;

	if (!s->is_tarball) {
		ok = true;
	} else if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
		   !(st.st_mode & 022) && read(fd, text, sizeof(text) - 1) > 0) {
		text[strcspn(text, "\n")] = '\0';
		ok = !strcmp(text, s->identity) && hb_is_dir(final);
	}
	if (fd >= 0)
		close(fd);
	free(stamp);
	free(final);
	return ok;
}

static int write_stamp(const struct ksource *s, const char *cache)
{
	char *stamp = stamp_path(s, cache), *text = xasprintf("%s\n", s->identity);
	int rc = hb_write_file_atomic(stamp, text, strlen(text));

	if (rc < 0)
		hb_error("cannot write %s: %s", stamp, strerror(errno));
	free(text);
	free(stamp);
	return rc;
}

/* A tree at final without its stamp is moved into <cache>/trash/ (which builds empty)
 * rather than removed here: removing 80k files takes a while, and is not ours to wait on. */
static int set_aside_unstamped(const char *final, const char *cache)
{
	char *trash_dir = hb_path_join(cache, "trash");
	char *aside = xasprintf("%s/src-unstamped-XXXXXX", trash_dir), *dest = NULL;
	struct stat st;
	int rc = 0;

	if (lstat(final, &st) < 0) {
		rc = errno == ENOENT ? 0 : -1;
	} else {
		hb_warn("%s has no stamp of a complete extraction: setting it aside and extracting anew",
			final);
		if (S_ISDIR(st.st_mode))
			chmod(final, 0755); /* renaming a directory needs its write bit */
		if (hb_mkdir_p(trash_dir, 0755) < 0 || !mkdtemp(aside) ||
		    rename(final, dest = hb_path_join(aside, "tree")) < 0) {
			hb_error("cannot move %s into %s: %s", final, trash_dir, strerror(errno));
			rc = -1;
		} else {
			make_dirs_writable(dest); /* removable without root's override */
		}
	}
	free(dest);
	free(aside);
	free(trash_dir);
	return rc;
}

static int extract_tarball(const struct ksource *s, const char *cache, const char *final)
{
	char *tmp = xasprintf("%s/src/.tmp-%s-%d", cache, s->label, (int)getpid());
	char *argv[] = { "tar", "-xf", s->path, "-C", tmp, "--no-same-owner", NULL };
	char *root = NULL;
	char took[32];
	double t0 = hb_now();
	int rc = -1;

	if (set_aside_unstamped(final, cache) < 0)
		goto out;
	hb_info("extracting %s into %s (once; read-only afterwards)", s->path, final);
	hb_remove_tree(tmp);
	if (hb_mkdir_p(tmp, 0755) < 0) {
		hb_error("cannot create %s: %s", tmp, strerror(errno));
		goto out;
	}
	if (hb_run(argv, &(struct spawn_opts){ .stdin_null = true, .parent_death_signal = SIGTERM }) != 0) {
		hb_error("tar could not extract %s", s->path);
		goto out;
	}
	root = unpacked_root(tmp);
	if (!looks_like_kernel(root)) {
		hb_error("%s does not unpack to a kernel tree (no top-level Makefile and Kconfig)", s->path);
		goto out;
	}
	/* Moved first: renaming a read-only directory needs its write bit. */
	if (rename(root, final) < 0 || ksource_make_read_only(final) < 0) {
		hb_error("cannot move the extracted tree to %s: %s", final, strerror(errno));
		goto out;
	}
	if (write_stamp(s, cache) < 0)
		goto out;
	hb_info("extracted in %s", hb_format_duration(hb_now() - t0, took, sizeof(took)));
	rc = 0;
out:
	if (hb_is_dir(tmp)) {
		make_dirs_writable(tmp);
		hb_remove_tree(tmp);
	}
	free(root);
	free(tmp);
	return rc;
}

char *ksource_shared_tree(const struct ksource *s, const char *cache)
{
	char *final = ksource_shared_path(s, cache);
	char *lock_name, *what;
	int fd;

	if (ksource_tree_ready(s, cache))
		return final;
	if (s->is_tarball && legacy_complete(final) && write_stamp(s, cache) == 0) {
		hb_info("%s: extracted by an older harness, complete: stamped", final);
		return final;
	}
	lock_name = xasprintf("src-%s", s->label);
	what = xasprintf("another process extracting %s", s->path);
	fd = kernel_cache_lock(cache, lock_name, what);
	if (fd < 0 || (!ksource_tree_ready(s, cache) && extract_tarball(s, cache, final) < 0)) {
		free(final);
		final = NULL;
	}
	kernel_cache_unlock(fd);
	free(what);
	free(lock_name);
	return final;
}

static bool same_file_system(const char *a, const char *b_parent)
{
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b_parent, &sb) == 0 && sa.st_dev == sb.st_dev;
}

int ksource_copy(const char *tree, const char *dest)
{
	char *parent = xstrdup(dest);
	bool links = same_file_system(tree, dirname(parent));
	char *argv[] = { "cp", links ? "-al" : "-a", (char *)tree, (char *)dest, NULL };
	int rc;

	if (!links)
		hb_warn("%s is on another file system than the cache: copying it in full", tree);
	rc = hb_run(argv, &(struct spawn_opts){ .stdin_null = true, .parent_death_signal = SIGTERM });
	free(parent);
	if (rc != 0) {
		hb_error("cannot copy %s to %s (cp exited %d)", tree, dest, rc);
		return -1;
	}
	make_dirs_writable(dest);
	return 0;
}

char **ksource_patch_argv(const char *patch)
{
	const char *argv[] = { "patch", "-p1", "--forward", "--batch", "--no-backup-if-mismatch",
			       patch ? "-i" : NULL, patch, NULL };
	char **v = xcalloc(sizeof(argv) / sizeof(*argv), sizeof(*v));

	for (size_t i = 0; argv[i]; i++)
		v[i] = xstrdup(argv[i]);
	return v;
}

static int apply_patches(const char *tree, char *const *patches, const char *log, bool unpriv)
{
	for (size_t i = 0; patches && patches[i]; i++) {
		char **argv = ksource_patch_argv(unpriv ? NULL : patches[i]);
		/* Unprivileged, patch reads its input from the descriptor opened here: the
		 * file may sit in a folder only root may enter. */
		int in = unpriv ? open(patches[i], O_RDONLY | O_CLOEXEC) : -1;
		struct spawn_opts o = { .cwd = tree, .stdout_path = log, .stderr_path = "=stdout",
					.append = true, .stdin_null = !unpriv, .stdin_fd = in > 0 ? in : 0,
					.unprivileged = unpriv };
		int rc = unpriv && in < 0 ? -1 : hb_run(argv, &o);

		if (in >= 0)
			close(in);
		hb_free_strv(argv);

		if (rc != 0) {
			hb_error("patch %s does not apply (patch exited %d); see %s", patches[i], rc, log);
			return -1;
		}
	}
	return 0;
}

int ksource_apply_patches(const char *tree, char *const *patches, const char *log)
{
	return apply_patches(tree, patches, log, false);
}

int ksource_apply_patches_unpriv(const char *tree, char *const *patches, const char *log)
{
	return apply_patches(tree, patches, log, geteuid() == 0);
}

void ksource_free(struct ksource *s)
{
	free(s->path);
	free(s->identity);
	free(s->label);
	*s = (struct ksource){ 0 };
}
