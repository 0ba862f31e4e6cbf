#include "kernel/sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/paths.h"
#include "common/unpriv.h"
#include "common/xalloc.h"

int sandbox_init(struct build_sandbox *b, const char *cache, const char *work, char **why)
{
	uid_t uid;
	gid_t gid;
	int fd;

	*b = (struct build_sandbox){ .on = geteuid() == 0, .work = xstrdup(work),
				     .ccache = hb_path_join(cache, SANDBOX_CCACHE_DIR) };
	if (!b->on)
		return 0;
	if (hb_unpriv_ids(&uid, &gid, why) < 0)
		return -1;
	/* The cache was walked and is ours (hb_cache_check): made here, then handed over. */
	if (mkdir(b->ccache, 0755) < 0 && errno != EEXIST) {
		*why = xasprintf("cannot create %s: %s", b->ccache, strerror(errno));
		return -1;
	}
	fd = open(b->ccache, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fchown(fd, uid, gid) < 0) {
		*why = xasprintf("cannot hand %s to uid %ld: %s", b->ccache, (long)uid, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

void sandbox_free(struct build_sandbox *b)
{
	free(b->work);
	free(b->ccache);
	*b = (struct build_sandbox){ 0 };
}

char *sandbox_path(const struct build_sandbox *b, const char *host)
{
	size_t n = b->work ? strlen(b->work) : 0;

	if (b->on && n && !strncmp(host, b->work, n) && (host[n] == '/' || !host[n]))
		return xasprintf(SANDBOX_WORK "%s", host + n);
	return xstrdup(host);
}

static int open_work(const struct build_sandbox *b)
{
	return open(b->work, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

int sandbox_give(const struct build_sandbox *b, const char *rel)
{
	int fd, rc;

	if (!b->on)
		return 0;
	if ((fd = open_work(b)) < 0)
		return -1;
	rc = hb_unpriv_give_at(fd, rel);
	close(fd);
	return rc;
}

int sandbox_give_file(const struct build_sandbox *b, const char *rel)
{
	uid_t uid;
	gid_t gid;
	char *why = NULL;
	int dir, fd, rc = -1;

	if (!b->on)
		return 0;
	if (hb_unpriv_ids(&uid, &gid, &why) < 0) {
		free(why);
		return -1;
	}
	if ((dir = open_work(b)) < 0)
		return -1;
	fd = openat(dir, rel, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd >= 0) {
		rc = fchown(fd, uid, gid);
		close(fd);
	}
	close(dir);
	return rc;
}

int sandbox_take_back(const struct build_sandbox *b)
{
	char *parent, *slash;
	int fd, rc;

	if (!b->on)
		return 0;
	parent = xstrdup(b->work);
	slash = strrchr(parent, '/');
	if (!slash || slash == parent) {
		free(parent);
		return errno = EINVAL, -1;
	}
	*slash = '\0';
	fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	rc = fd < 0 ? -1 : hb_unpriv_take_back_at(fd, slash + 1);
	if (fd >= 0)
		close(fd);
	free(parent);
	return rc;
}

/* Child side, as root: a mount namespace of its own (private, so nothing propagates
 * back), a tmpfs on /run there, and the two folders bound into it. */
int sandbox_enter(const void *ctx)
{
	const struct build_sandbox *b = ctx;

	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m") < 0 ||
	    mkdir(SANDBOX_WORK, 0755) < 0 || mkdir(SANDBOX_CCACHE, 0755) < 0 ||
	    mount(b->work, SANDBOX_WORK, NULL, MS_BIND, NULL) < 0 ||
	    mount(b->ccache, SANDBOX_CCACHE, NULL, MS_BIND, NULL) < 0 ||
	    chdir(SANDBOX_WORK "/src") < 0)
		return errno;
	return 0;
}
