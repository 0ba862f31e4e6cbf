#include "boot/host_view.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/argparse.h"
#include "common/xalloc.h"

/* Links of a merged-/usr host (a folder of their own on older hosts). */
static const char *const usr_links[] = { "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", NULL };
/* Where the guest mounts its own file systems, and what is hidden behind an empty folder. */
static const char *const empty_dirs[] = { "/proc", "/sys", "/dev", "/run", "/tmp", "/var/tmp",
					  "/root", "/home", NULL };
/* The /etc entries the guest's programs read, and nothing else (an allowlist: a denylist
 * let a guest read /etc/munge/munge.key, pg_hba.conf and /etc/ssl/private). Found by
 * booting the workloads: the loader's cache and configuration; the user and group names
 * (id, whoami, ls -l, kbuild's scripts) and the name service switch that tells glibc where
 * they are; the time zone; the alternatives links (/usr/bin/awk and cc point into
 * /etc/alternatives); the host's name and the static hosts, protocols and services
 * tables some tools look up; os-release. docs/security.md lists them. */
static const char *const etc_allowed[] = { "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "passwd",
					   "group", "nsswitch.conf", "localtime", "timezone",
					   "alternatives", "hostname", "hosts", "host.conf", "protocols",
					   "services", "os-release", "mtab", NULL };

static void add_step(struct host_view *v, enum view_op op, const char *src, const char *path)
{
	v->steps = xgrow(v->steps, &v->cap, v->n + 1, sizeof(*v->steps));
	v->steps[v->n++] = (struct view_step){ .op = op, .src = src ? xstrdup(src) : NULL,
					       .dst = xasprintf("%s%s", v->root, path) };
}

/* True when path is p or below it. */
static bool under(const char *path, const char *p)
{
	size_t n = strlen(p);
	return !strncmp(path, p, n) && (path[n] == '/' || path[n] == '\0' || (n == 1 && *p == '/'));
}

static bool visible_already(const struct host_view *v, const char *path)
{
	for (size_t i = 0; v->bound.v && v->bound.v[i]; i++)
		if (under(path, v->bound.v[i]))
			return true;
	return false;
}

/* Every folder from / down to path's parent, in the tmpfs (EEXIST is fine). */
static void add_parents(struct host_view *v, const char *path)
{
	char *copy = xstrdup(path);

	for (char *s = copy + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		add_step(v, VIEW_MKDIR, NULL, copy);
		*s = '/';
	}
	free(copy);
}

/* path as the host has it: a symlink is recreated, a folder or a file bound. */
static void add_host_entry(struct host_view *v, const char *path)
{
	struct stat st;
	char target[PATH_MAX];
	ssize_t n;

	if (lstat(path, &st) < 0 || visible_already(v, path))
		return;
	add_parents(v, path);
	if (S_ISLNK(st.st_mode)) {
		if ((n = readlink(path, target, sizeof(target) - 1)) > 0) {
			target[n] = '\0';
			add_step(v, VIEW_SYMLINK, target, path);
		}
		return;
	}
	if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
		return; /* sockets, fifos, devices: nothing a guest reads */
	add_step(v, S_ISDIR(st.st_mode) ? VIEW_MKDIR : VIEW_TOUCH, NULL, path);
	add_step(v, VIEW_BIND, path, path);
	hb_strv_push(&v->bound, xstrdup(path));
}

/* May the guest see this /etc entry? Every user on the host can read it (o+r; a folder
 * o+rx), or it is a symlink (recreated, its target then resolved inside the view). */
static bool world_readable(const struct stat *st)
{
	if (S_ISLNK(st->st_mode))
		return true;
	if (S_ISDIR(st->st_mode))
		return (st->st_mode & (S_IROTH | S_IXOTH)) == (S_IROTH | S_IXOTH);
	return S_ISREG(st->st_mode) && (st->st_mode & S_IROTH);
}

/* One entry of the host's etc folder (host: its path, view: its path in the guest): a
 * symlink recreated, a world-readable file bound, a folder made and filled one level
 * deep the same way (ld.so.conf.d, alternatives). */
static size_t add_etc_entry(struct host_view *v, const char *host, const char *view, int depth)
{
	struct stat st;
	char target[PATH_MAX];
	ssize_t n;

	size_t added = 0;

	if (lstat(host, &st) < 0 || !world_readable(&st))
		return 0;
	if (S_ISLNK(st.st_mode)) {
		if ((n = readlink(host, target, sizeof(target) - 1)) <= 0)
			return 0;
		target[n] = '\0';
		add_step(v, VIEW_SYMLINK, target, view);
		if (!depth)
			hb_strv_push(&v->etc, xasprintf("%s -> %s", view, target));
		return 1;
	}
	if (S_ISREG(st.st_mode)) {
		add_step(v, VIEW_TOUCH, NULL, view);
		add_step(v, VIEW_BIND, host, view);
		if (!depth)
			hb_strv_push(&v->etc, xstrdup(view));
		return 1;
	}
	if (depth > 0)
		return 0; /* a folder in a folder: nothing the workloads read */
	DIR *d = opendir(host);
	struct dirent *e;

	add_step(v, VIEW_MKDIR, NULL, view);
	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char *h = xasprintf("%s/%s", host, e->d_name), *g = xasprintf("%s/%s", view, e->d_name);
		added += add_etc_entry(v, h, g, depth + 1);
		free(h);
		free(g);
	}
	if (d)
		closedir(d);
	hb_strv_push(&v->etc, xasprintf("%s/ (%zu entries)", view, added));
	return added;
}

void host_view_add_etc(struct host_view *v, const char *host_etc)
{
	add_step(v, VIEW_MKDIR, NULL, "/etc");
	for (size_t i = 0; etc_allowed[i]; i++) {
		char *host = xasprintf("%s/%s", host_etc, etc_allowed[i]);
		char *view = xasprintf("/etc/%s", etc_allowed[i]);
		add_etc_entry(v, host, view, 0);
		free(host);
		free(view);
	}
}

static int by_length(const void *a, const void *b)
{
	size_t la = strlen(*(char *const *)a), lb = strlen(*(char *const *)b);
	return la < lb ? -1 : la > lb;
}

/* Shortest first: a share below another one is then seen through it. Symlinks in a
 * share's path are resolved (the bind needs the real folder). */
static void add_shares(struct host_view *v, char *const *shares)
{
	struct hb_strv real = { 0 };

	for (size_t i = 0; shares && shares[i]; i++) {
		char *r = realpath(shares[i], NULL);
		if (r && strcmp(r, "/"))
			hb_strv_push(&real, r);
		else
			free(r);
	}
	if (!real.n)
		return;
	qsort(real.v, real.n, sizeof(*real.v), by_length);
	for (size_t i = 0; i < real.n; i++)
		add_host_entry(v, real.v[i]);
	hb_free_strv(real.v);
}

void host_view_plan(struct host_view *v, const char *root, char *const *shares, const char *modules)
{
	struct stat st;

	const char *home = getenv("HOME");

	*v = (struct host_view){ .root = xstrdup(root) };
	add_host_entry(v, "/usr");
	for (size_t i = 0; usr_links[i]; i++)
		add_host_entry(v, usr_links[i]);
	host_view_add_etc(v, "/etc");
	add_step(v, VIEW_MKDIR, NULL, "/var");
	for (size_t i = 0; empty_dirs[i]; i++)
		add_step(v, VIEW_MKDIR, NULL, empty_dirs[i]);
	add_shares(v, shares);
	if (modules && stat(modules, &st) == 0 && S_ISDIR(st.st_mode)) {
		add_parents(v, HOST_VIEW_MODULES);
		add_step(v, VIEW_MKDIR, NULL, HOST_VIEW_MODULES);
		add_step(v, VIEW_BIND, modules, HOST_VIEW_MODULES);
	}
	/* After the shares: $HOME may hold one (the cache), and must not be made over it. */
	if (home && home[0] == '/' && strcmp(home, "/") && !visible_already(v, home)) {
		add_parents(v, home);
		add_step(v, VIEW_MKDIR, NULL, home);
	}
}

/* One step; 0 or errno. */
static int replay(const struct view_step *s)
{
	int fd;

	switch (s->op) {
	case VIEW_MKDIR:
		return mkdir(s->dst, 0755) < 0 && errno != EEXIST ? errno : 0;
	case VIEW_TOUCH:
		fd = open(s->dst, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0)
			return errno;
		close(fd);
		return 0;
	case VIEW_SYMLINK:
		return symlink(s->src, s->dst) < 0 && errno != EEXIST ? errno : 0;
	case VIEW_BIND:
		return mount(s->src, s->dst, NULL, MS_BIND | MS_REC, NULL) < 0 ? errno : 0;
	}
	return EINVAL;
}

static int failed(const char *what, const char *path, int err)
{
	dprintf(2, "harness: read-only host view: %s %s: %s\n", what, path, strerror(err));
	return err;
}

int host_view_mount(const void *view)
{
	const struct host_view *v = view;
	struct mount_attr attr = { .attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV };
	static const char *const op_names[] = { "mkdir", "create", "symlink", "bind" };
	int err;

	if (unshare(CLONE_NEWNS) < 0)
		return failed("unshare", "CLONE_NEWNS", errno);
	/* Private, not slave: a host mount made during the boot must not reach the view
	 * (a slave would receive it, with the host's read-write flags). */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return failed("make private", "/", errno);
	if (mount("tmpfs", v->root, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755") < 0)
		return failed("tmpfs on", v->root, errno);
	for (size_t i = 0; i < v->n; i++)
		if ((err = replay(&v->steps[i])))
			return failed(op_names[v->steps[i].op], v->steps[i].dst, err);
	if (mount_setattr(AT_FDCWD, v->root, AT_RECURSIVE, &attr, sizeof(attr)) < 0)
		return failed("read-only, nosuid, nodev", v->root, errno);
	return 0;
}

void host_view_print(const struct host_view *v, FILE *f)
{
	fprintf(f, "# the guest's root: an empty read-only tmpfs holding /usr, the /etc below, the "
		   "modules at " HOST_VIEW_MODULES " and, read-only:");
	for (size_t i = 0; v->bound.v && v->bound.v[i]; i++)
		if (strcmp(v->bound.v[i], "/usr"))
			fprintf(f, " %s", v->bound.v[i]);
	fputc('\n', f);
	fprintf(f, "# the guest's /etc (an allowlist, world-readable entries only):");
	for (size_t i = 0; v->etc.v && v->etc.v[i]; i++)
		fprintf(f, " %s", v->etc.v[i]);
	fputc('\n', f);
}

void host_view_free(struct host_view *v)
{
	for (size_t i = 0; i < v->n; i++) {
		free(v->steps[i].src);
		free(v->steps[i].dst);
	}
	free(v->steps);
	hb_free_strv(v->bound.v);
	hb_free_strv(v->etc.v);
	free(v->root);
	*v = (struct host_view){ 0 };
}
