#include "common/unpriv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/xalloc.h"

/* Deep enough for a kernel tree (about 12 levels); one descriptor per level. */
#define WALK_MAX_DEPTH 128

int hb_unpriv_ids(uid_t *uid, gid_t *gid, char **why)
{
	const char *v = getenv("HARDBENCH_UNPRIV_UID");
	unsigned long id = HB_UNPRIV_ID_DEFAULT;
	char *end;

	if (geteuid() != 0) {
		*uid = geteuid();
		*gid = getegid();
		return 0;
	}
	if (v && *v) {
		errno = 0;
		id = strtoul(v, &end, 10);
		if (errno || *end || id == 0 || id >= 0x7fffffffUL) {
			*why = xasprintf("HARDBENCH_UNPRIV_UID '%s' is not a uid (accepted: 1 to 2147483646, "
					 "one no account owns)", v);
			return -1;
		}
	}
	if (getpwuid((uid_t)id)) {
		*why = xasprintf("uid %lu, which builds and plots run as, belongs to the account '%s' "
				 "(accepted in HARDBENCH_UNPRIV_UID: a uid no account owns)", id,
				 getpwuid((uid_t)id)->pw_name);
		return -1;
	}
	*uid = (uid_t)id;
	*gid = (gid_t)id;
	return 0;
}

int hb_drop_privileges(void)
{
	uid_t uid;
	gid_t gid;
	char *why = NULL;

	if (hb_unpriv_ids(&uid, &gid, &why) < 0) {
		free(why);
		return EPERM;
	}
	if (geteuid() == 0 && (setgroups(0, NULL) < 0 || setresgid(gid, gid, gid) < 0 ||
			       setresuid(uid, uid, uid) < 0))
		return errno;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return errno;
	return 0;
}

/* Applies fn to name in at and, for a folder, to everything below it (fn first: a folder
 * taken back is closed to the unprivileged uid before its entries are visited), through
 * descriptors: a symlink is never followed, another file system never entered. */
typedef int (*visit_fn)(int at, const char *name, const struct stat *st);

static int walk_at(int at, const char *name, dev_t dev, int depth, visit_fn fn)
{
	struct stat st, opened;
	struct dirent *e;
	DIR *d;
	int fd, rc = 0;

	if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -1;
	if (st.st_dev != dev || depth > WALK_MAX_DEPTH)
		return errno = st.st_dev != dev ? EXDEV : ELOOP, -1;
	if (fn(at, name, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode))
		return 0;
	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &opened) < 0 || opened.st_ino != st.st_ino || !(d = fdopendir(fd))) {
		close(fd);
		return errno = EAGAIN, -1;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    walk_at(dirfd(d), e->d_name, dev, depth + 1, fn) < 0)
			rc = -1;
	closedir(d);
	return rc;
}

static int walk_top(int at, const char *name, visit_fn fn)
{
	struct stat parent;

	if (geteuid() != 0)
		return 0;
	if (fstat(at, &parent) < 0)
		return -1;
	return walk_at(at, name, parent.st_dev, 0, fn);
}

static int give(int at, const char *name, const struct stat *st)
{
	uid_t uid;
	gid_t gid;
	char *why = NULL;

	if (!S_ISDIR(st->st_mode))
		return 0;
	if (hb_unpriv_ids(&uid, &gid, &why) < 0) {
		free(why);
		return errno = EPERM, -1;
	}
	return fchownat(at, name, uid, gid, AT_SYMLINK_NOFOLLOW);
}

int hb_unpriv_give_at(int dirfd, const char *name)
{
	return walk_top(dirfd, name, give);
}

/* An entry of the unprivileged uid becomes root's, without the set-id bits and the
 * group and other write bits it may have given itself. chown never follows; the mode is
 * changed through a descriptor of the very file (a symlink is left as it is). */
static int take_back(int at, const char *name, const struct stat *st)
{
	const mode_t strip = S_ISUID | S_ISGID | S_IWGRP | S_IWOTH;
	struct stat now;
	int fd, rc = 0;

	if (st->st_uid == geteuid() && !(st->st_mode & strip))
		return 0;
	if (fchownat(at, name, geteuid(), getegid(), AT_SYMLINK_NOFOLLOW) < 0)
		return -1;
	if (S_ISLNK(st->st_mode) || !(st->st_mode & strip) ||
	    !(S_ISREG(st->st_mode) || S_ISDIR(st->st_mode)))
		return 0;
	fd = openat(at, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &now) < 0 || now.st_ino != st->st_ino ||
	    fchmod(fd, now.st_mode & 07777 & ~strip) < 0)
		rc = -1;
	close(fd);
	return rc;
}

int hb_unpriv_take_back_at(int dirfd, const char *name)
{
	return walk_top(dirfd, name, take_back);
}
