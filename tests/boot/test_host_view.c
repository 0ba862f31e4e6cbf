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

TEST_MAIN()
