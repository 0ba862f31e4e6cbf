/* The guest's view of the host (boot/host_view.h), mounted for real in a child's private
 * mount namespace (root only): system folders and shares are there read-only, shadow and
 * the home folders are not, and a mount made afterwards on the host does not show. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "boot/host_view.h"
#include "scratch.h"
#include "test.h"

/* Child checks: one bit per failed check in the exit status. */
enum {
	BAD_MOUNT = 1, BAD_SHADOW = 2, BAD_PASSWD = 4, BAD_SH = 8, BAD_ROOT = 16, BAD_WRITE = 32,
	BAD_SHARE = 64, BAD_LATE = 128,
};

static int empty_dir(const char *path)
{
	char *cmd = xasprintf("[ -d '%s' ] && [ -z \"$(ls -A '%s')\" ]", path, path);
	int rc = system(cmd);
	free(cmd);
	return rc == 0;
}

/* After the view is up, waits for the parent's late mount under share/late, then looks. */
static int child_checks(struct host_view *v, const char *share, int ready_fd, int go_fd)
{
	char *p;
	int bad = 0, fd;
	char c;

	if (host_view_mount(v) != 0)
		return BAD_MOUNT;
	(void)!write(ready_fd, "r", 1);
	(void)!read(go_fd, &c, 1);
	p = xasprintf("%s/etc/shadow", v->root);
	if (access(p, F_OK) == 0 || errno != ENOENT)
		bad |= BAD_SHADOW;
	free(p);
	p = xasprintf("%s/etc/passwd", v->root);
	bad |= access(p, R_OK) == 0 ? 0 : BAD_PASSWD;
	free(p);
	p = xasprintf("%s/usr/bin/sh", v->root);
	bad |= access(p, X_OK) == 0 ? 0 : BAD_SH;
	free(p);
	p = xasprintf("%s/root", v->root);
	bad |= empty_dir(p) ? 0 : BAD_ROOT;
	free(p);
	p = xasprintf("%s%s/kept", v->root, share);
	bad |= access(p, R_OK) == 0 ? 0 : BAD_SHARE;
	free(p);
	p = xasprintf("%s%s/new", v->root, share);
	fd = open(p, O_WRONLY | O_CREAT, 0644);
	bad |= fd < 0 && errno == EROFS ? 0 : BAD_WRITE;
	free(p);
	p = xasprintf("%s%s/late/new", v->root, share);
	fd = open(p, O_WRONLY | O_CREAT, 0644);
	bad |= fd < 0 ? 0 : BAD_LATE;
	free(p);
	return bad;
}

TEST(view_serves_only_what_a_guest_needs)
{
	char *scratch = scratch_dir(), *share = hb_path_join(scratch, "share");
	char *root = hb_path_join(scratch, "root"), *late = hb_path_join(share, "late");
	char *shares[] = { share, NULL };
	struct host_view v;
	int ready[2], go[2], status = 0;
	pid_t pid;
	char c;

	/* A host whose / is shared, as under systemd: there a slave view would receive the
	 * late mount (this test's own namespace, so the real host is not touched). */
	if (geteuid() != 0 || unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_SHARED, NULL) < 0) {
		SKIP("needs root (a mount namespace with / shared)");
		return;
	}
	CHECK(mkdir(share, 0755) == 0 && mkdir(root, 0700) == 0 && mkdir(late, 0755) == 0);
	scratch_write(share, "kept", "x");
	host_view_plan(&v, root, shares, NULL);
	CHECK(pipe(ready) == 0 && pipe(go) == 0);
	pid = fork();
	if (pid == 0)
		_exit(child_checks(&v, share, ready[1], go[0]));
	close(ready[1]);
	close(go[0]);
	/* The late mount, on the host side once the view is up: it must not reach the view. */
	if (read(ready[0], &c, 1) == 1) {
		CHECK(mount("tmpfs", late, "tmpfs", 0, "size=1m") == 0);
	}
	(void)!write(go[1], "g", 1);
	waitpid(pid, &status, 0);
	umount(late);
	CHECK(WIFEXITED(status));
	CHECK(WEXITSTATUS(status) == 0, "failed checks (bits): %d", WEXITSTATUS(status));
	host_view_free(&v);
	hb_remove_tree(scratch);
	free(late);
	free(root);
	free(share);
	free(scratch);
}

/* The step that makes dst in the view (root + path), or NULL. */
static const struct view_step *step_at(const struct host_view *v, const char *path, enum view_op op)
{
	char *dst = xasprintf("%s%s", v->root, path);
	const struct view_step *found = NULL;

	for (size_t i = 0; i < v->n && !found; i++)
		if (v->steps[i].op == op && !strcmp(v->steps[i].dst, dst))
			found = &v->steps[i];
	free(dst);
	return found;
}

/* The guest's /etc is an allowlist, and of it only what every host user may read: a
 * root-only file under an allowed name, a secret beside it in an allowed folder and a
 * folder that is not on the list (munge's key) stay out. */
TEST(etc_is_an_allowlist_of_world_readable_entries)
{
	char *etc = scratch_dir();
	struct host_view v = { .root = xstrdup("/view") };
	char *p;

	scratch_write(etc, "passwd", "root:x:0:0::/root:/bin/sh\n");
	scratch_write(etc, "group", "root:x:0:\n");
	p = hb_path_join(etc, "group");
	CHECK(chmod(p, 0600) == 0);
	free(p);
	p = hb_path_join(etc, "munge");
	CHECK(mkdir(p, 0700) == 0);
	free(p);
	scratch_write(etc, "munge/munge.key", "secret");
	p = hb_path_join(etc, "ld.so.conf.d");
	CHECK(mkdir(p, 0755) == 0);
	free(p);
	scratch_write(etc, "ld.so.conf.d/libc.conf", "/usr/local/lib\n");
	scratch_write(etc, "ld.so.conf.d/secret.conf", "x\n");
	p = hb_path_join(etc, "ld.so.conf.d/secret.conf");
	CHECK(chmod(p, 0640) == 0);
	free(p);
	p = hb_path_join(etc, "localtime");
	CHECK(symlink("/usr/share/zoneinfo/Etc/UTC", p) == 0);
	free(p);
	host_view_add_etc(&v, etc);
	CHECK(step_at(&v, "/etc/passwd", VIEW_BIND) != NULL);
	CHECK(step_at(&v, "/etc/ld.so.conf.d/libc.conf", VIEW_BIND) != NULL);
	CHECK(step_at(&v, "/etc/localtime", VIEW_SYMLINK) != NULL);
	CHECK(step_at(&v, "/etc/group", VIEW_BIND) == NULL, "a root-only /etc/group is bound");
	CHECK(step_at(&v, "/etc/ld.so.conf.d/secret.conf", VIEW_BIND) == NULL, "a 0640 file is bound");
	for (size_t i = 0; i < v.n; i++)
		CHECK(!strstr(v.steps[i].dst, "munge"), "munge is in the view: %s", v.steps[i].dst);
	host_view_free(&v);
	hb_remove_tree(etc);
	free(etc);
}

/* This host's real /etc as a guest would see it: every file bound is one any user may
 * read (o+r), listed for the log. Fails if a root-only file appears in the view. */
TEST(real_etc_view_holds_no_root_only_file)
{
	struct host_view v;
	struct stat st;

	host_view_plan(&v, "/view", NULL, NULL);
	for (size_t i = 0; v.etc.v && v.etc.v[i]; i++)
		printf("# guest %s\n", v.etc.v[i]);
	for (size_t i = 0; i < v.n; i++) {
		if (v.steps[i].op != VIEW_BIND || strncmp(v.steps[i].dst, "/view/etc/", 10))
			continue;
		CHECK(stat(v.steps[i].src, &st) == 0 && (st.st_mode & S_IROTH),
		      "%s is in the guest's /etc but not readable by every user", v.steps[i].src);
	}
	CHECK(step_at(&v, "/etc/shadow", VIEW_BIND) == NULL);
	CHECK(step_at(&v, "/etc/passwd", VIEW_BIND) != NULL);
	host_view_free(&v);
}

TEST_MAIN()
