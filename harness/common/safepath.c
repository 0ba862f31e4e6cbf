/* The component walk of common/safepath.h. Hand-written: no packaged library walks a path
 * with an ownership policy per component (openat2's RESOLVE_NO_SYMLINKS refuses every
 * symlink, /usr/bin on a merged-/usr host included, and checks no owner). */
#include "common/safepath.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xalloc.h"

/* As the kernel's path lookup: at most 40 symlinks on one path. */
#define MAX_LINKS 40

bool hb_trusted_owner(uid_t uid)
{
	const char *sudo = getenv("SUDO_UID");
	char *end;
	unsigned long v;

	if (uid == 0 || uid == geteuid())
		return true;
	if (geteuid() != 0 || !sudo || !*sudo)
		return false;
	errno = 0;
	v = strtoul(sudo, &end, 10);
	return !errno && !*end && v == (unsigned long)uid;
}

/* "uid 65534 (nobody)" */
static char *owner_name(uid_t uid)
{
	struct passwd *pw = getpwuid(uid);
	return pw ? xasprintf("uid %ld (%s)", (long)uid, pw->pw_name) : xasprintf("uid %ld", (long)uid);
}

/* The folders walked so far: a descriptor each (".." pops one) and the path they spell. */
struct walk {
	int *fd;
	size_t n, cap;
	char *shown; /* "/tmp/nb": the folder on top, for messages */
};

static void walk_push(struct walk *w, int fd, const char *name)
{
	char *next;

	w->fd = xgrow(w->fd, &w->cap, w->n + 1, sizeof(*w->fd));
	w->fd[w->n++] = fd;
	next = w->n == 1 ? xstrdup("/")
			 : xasprintf("%s%s%s", w->shown, strcmp(w->shown, "/") ? "/" : "", name);
	free(w->shown);
	w->shown = next;
}

static void walk_pop(struct walk *w)
{
	char *slash;

	if (w->n <= 1)
		return;
	close(w->fd[--w->n]);
	slash = strrchr(w->shown, '/');
	if (slash == w->shown)
		slash[1] = '\0';
	else
		*slash = '\0';
}

static void walk_free(struct walk *w)
{
	while (w->n)
		close(w->fd[--w->n]);
	free(w->fd);
	free(w->shown);
}

static char *refusal(const char *what, const char *path, const char *problem)
{
	return xasprintf("%s %s: %s; accepted: a path whose every folder is root's or uid %ld's "
			 "and that no other user can write to (sticky folders such as /tmp are fine)",
			 what, path, problem, (long)geteuid());
}

/* "/tmp/nb" + "x" */
static char *below(const struct walk *w, const char *name)
{
	return xasprintf("%s%s%s", w->shown, strcmp(w->shown, "/") ? "/" : "", name);
}

/* NULL when another user cannot change what is below the folder st describes, else why. */
static char *untrusted_dir(const struct stat *st)
{
	char *who, *why;

	if (!hb_trusted_owner(st->st_uid)) {
		who = owner_name(st->st_uid);
		why = xasprintf("is owned by %s, who could rename what is in it", who);
		free(who);
		return why;
	}
	if ((st->st_mode & 022) && !(st->st_mode & S_ISVTX))
		return xasprintf("is writable by %s (mode %04o) without the sticky bit",
				 (st->st_mode & 002) ? "every user" : "its group",
				 (unsigned)(st->st_mode & 07777));
	return NULL;
}

static char *absolute(const char *path)
{
	char *cwd;
	char *full;

	if (path[0] == '/')
		return xstrdup(path);
	if (!(cwd = getcwd(NULL, 0)))
		return NULL;
	full = xasprintf("%s/%s", cwd, path);
	free(cwd);
	return full;
}

/* Cuts the next component off *rest (in place); NULL at the end. */
static char *next_component(char **rest)
{
	char *c;

	while (**rest == '/')
		(*rest)++;
	if (!**rest)
		return NULL;
	c = *rest;
	*rest += strcspn(*rest, "/");
	if (**rest)
		*(*rest)++ = '\0';
	return c;
}

/* One component c in the folder on top of w: pushed when a folder; for a symlink its
 * target goes in front of what is left (*rest, in a string *pending owns). 0; 1 when it
 * is missing and STOP_MISSING says so; -1 with *problem (a refusal naming the component)
 * or *err. */
static int step(struct walk *w, const char *c, int flags, char **pending, char **rest, int *links,
		char **problem, int *err)
{
	int top = w->fd[w->n - 1], fd;
	struct stat st, opened;
	char target[PATH_MAX], *why, *at;
	ssize_t len;

	if (fstatat(top, c, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno == ENOENT && (flags & HB_SAFE_STOP_MISSING))
			return 1;
		if (errno != ENOENT || !(flags & HB_SAFE_CREATE))
			return *err = errno, -1;
		if (mkdirat(top, c, 0755) < 0 && errno != EEXIST)
			return *err = errno, -1;
		if (fstatat(top, c, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return *err = errno, -1;
	}
	if (S_ISLNK(st.st_mode)) {
		if (!hb_trusted_owner(st.st_uid)) {
			char *who = owner_name(st.st_uid);
			at = below(w, c);
			*problem = xasprintf("%s is a symlink owned by %s", at, who);
			free(at);
			free(who);
			return -1;
		}
		if (++*links > MAX_LINKS)
			return *err = ELOOP, -1;
		if ((len = readlinkat(top, c, target, sizeof(target) - 1)) < 0)
			return *err = errno, -1;
		target[len] = '\0';
		/* The target, then what was left after the link. */
		char *joined = xasprintf("%s/%s", target, *rest);
		free(*pending);
		*pending = joined;
		*rest = joined;
		if (target[0] == '/')
			while (w->n > 1)
				walk_pop(w);
		return 0;
	}
	if (!S_ISDIR(st.st_mode))
		return *err = ENOTDIR, -1;
	fd = openat(top, c, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return *err = errno, -1;
	at = below(w, c);
	if (fstat(fd, &opened) < 0 || opened.st_ino != st.st_ino || opened.st_dev != st.st_dev) {
		close(fd);
		*problem = xasprintf("%s changed while it was checked", at);
		free(at);
		return -1;
	}
	if ((why = untrusted_dir(&opened))) {
		close(fd);
		*problem = xasprintf("%s %s", at, why);
		free(why);
		free(at);
		return -1;
	}
	free(at);
	walk_push(w, fd, c);
	return 0;
}

int hb_open_dir_checked(const char *path, const char *what, int flags, char **why)
{
	struct walk w = { 0 };
	struct stat st;
	char *full = path && *path ? absolute(path) : NULL, *rest, *pending, *c, *problem = NULL, *bad;
	int links = 0, err = 0, rc = 0, fd = -1, root;

	*why = NULL;
	if (!full) {
		*why = xasprintf("%s '%s': %s", what, path ? path : "",
				 path && *path ? strerror(errno) : "an empty path");
		return -1;
	}
	pending = rest = full;
	if ((root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0) {
		*why = xasprintf("%s %s: /: %s", what, path, strerror(errno));
		free(full);
		return -1;
	}
	walk_push(&w, root, "");
	if (fstat(root, &st) == 0 && (bad = untrusted_dir(&st))) {
		problem = xasprintf("/ %s", bad);
		free(bad);
		rc = -1;
	}
	while (rc == 0 && (c = next_component(&rest))) {
		char *name;
		if (!strcmp(c, "."))
			continue;
		if (!strcmp(c, "..")) {
			walk_pop(&w);
			continue;
		}
		name = xstrdup(c);
		rc = step(&w, name, flags, &pending, &rest, &links, &problem, &err);
		if (rc < 0 && !problem) {
			char *at = below(&w, name);
			*why = xasprintf("%s %s: %s: %s", what, path, at, strerror(err));
			free(at);
		}
		free(name);
	}
	if (rc < 0 && problem)
		*why = refusal(what, path, problem);
	if (rc == 0 && (flags & HB_SAFE_OWN) &&
	    (fstat(w.fd[w.n - 1], &st) < 0 || st.st_uid != geteuid() || (st.st_mode & 022))) {
		*why = xasprintf("%s %s is not safe to write in as this user (owner uid %ld, mode %03o); "
				 "accepted: a folder of uid %ld that only it can write to", what, path,
				 (long)st.st_uid, (unsigned)(st.st_mode & 0777), (long)geteuid());
		rc = -1;
	}
	if (rc >= 0 && (fd = openat(w.fd[w.n - 1], ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		*why = xasprintf("%s %s: %s", what, path, strerror(errno));
	free(problem);
	free(pending);
	walk_free(&w);
	return fd;
}

int hb_open_parent_checked(const char *path, const char *what, int flags, char **name, char **why)
{
	char *copy = xstrdup(path), *slash, *base;
	int fd;

	for (size_t n = strlen(copy); n > 1 && copy[n - 1] == '/'; n--)
		copy[n - 1] = '\0';
	slash = strrchr(copy, '/');
	base = slash ? slash + 1 : copy;
	*name = NULL;
	if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
		*why = xasprintf("%s '%s': not a file name", what, path);
		free(copy);
		return -1;
	}
	if (slash)
		*slash = '\0';
	fd = hb_open_dir_checked(!slash ? "." : slash == copy ? "/" : copy, what, flags, why);
	if (fd >= 0)
		*name = xstrdup(base);
	free(copy);
	return fd;
}
