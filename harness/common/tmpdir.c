#include "common/tmpdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/safepath.h"
#include "common/xalloc.h"

#define OWNER_FILE "OWNER"
/* The only mode the harness gives its folders (mkdtemp's): anything else is not ours. */
#define OWNED_MODE 0700
/* An OWNER file holds two numbers. */
#define OWNER_MAX 128

char *hb_tmp_root(void)
{
	const char *run = getenv("XDG_RUNTIME_DIR");
	char *why = NULL;
	int fd;

	/* Only our own runtime folder, reached through folders and symlinks no other user can
	 * change: under sudo it is the calling user's, who could rename what root makes in
	 * it, and a symlink of another user could be pointed elsewhere later. */
	if (run && *run == '/' &&
	    (fd = hb_open_dir_checked(run, "XDG_RUNTIME_DIR", HB_SAFE_OWN, &why)) >= 0) {
		close(fd);
		return hb_path_join(run, "hardbench");
	}
	free(why);
	return xstrdup("/run/hardbench");
}

/* An open root that only we can write to, reached through folders no one else can change,
 * or -1 with *why. */
static int open_tmp_root(const char *root, bool create, char **why)
{
	struct stat st;
	char *name = NULL;
	int parent = hb_open_parent_checked(root, "the temporary root", 0, &name, why), fd;

	if (parent < 0)
		return -1;
	if (create && mkdirat(parent, name, OWNED_MODE) < 0 && errno != EEXIST) {
		*why = xasprintf("cannot create %s: %s", root, strerror(errno));
		close(parent);
		free(name);
		return -1;
	}
	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	close(parent);
	free(name);
	if (fd < 0) {
		*why = xasprintf("%s: %s", root, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & 022)) {
		*why = xasprintf("%s is not a folder of uid %ld that only it can write to (owner %ld, "
				 "mode %03o): refusing it", root, (long)geteuid(), (long)st.st_uid,
				 (unsigned)(st.st_mode & 0777));
		close(fd);
		return -1;
	}
	return fd;
}

int hb_open_tmp_root(char **why)
{
	char *root = hb_tmp_root();
	int fd = open_tmp_root(root, true, why);

	free(root);
	return fd;
}

/* Field 22 of /proc/<pid>/stat (after the parenthesised command, which may hold spaces);
 * 0 when unknown. */
static unsigned long long start_time(long pid)
{
	char path[64], *text, *p;
	unsigned long long t = 0;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	text = hb_read_file(path, NULL);
	p = text ? strrchr(text, ')') : NULL;
	/* After ")": state is field 3, so the start time is the 20th word from here. */
	for (int field = 2; p && *p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p)
		t = strtoull(p + 1, NULL, 10);
	free(text);
	return t;
}

char *hb_mkdtemp_owned(const char *prefix)
{
	char *root = hb_tmp_root(), *why = NULL, *dir, *owner, *text;
	int fd = open_tmp_root(root, true, &why), e;

	if (fd < 0) {
		hb_error("%s", why);
		free(why);
		free(root);
		errno = EACCES;
		return NULL;
	}
	close(fd);
	dir = xasprintf("%s/%sXXXXXX", root, prefix);
	free(root);
	if (!mkdtemp(dir)) {
		e = errno;
		free(dir);
		errno = e;
		return NULL;
	}
	owner = hb_path_join(dir, OWNER_FILE);
	text = xasprintf("%ld %llu\n", (long)getpid(), start_time((long)getpid()));
	if (hb_write_file_atomic(owner, text, strlen(text)) < 0)
		hb_warn("cannot write %s: %s", owner, strerror(errno));
	free(text);
	free(owner);
	return dir;
}

/* A folder the harness made (ours, mode 0700, not a symlink) whose OWNER file names a
 * process that no longer exists. Read through dirfd: nothing on the way is followed. */
static bool stale_owned_dir(int rootfd, const char *name)
{
	struct stat st;
	char text[OWNER_MAX] = "";
	long pid = 0;
	unsigned long long t0 = 0, now;
	int dirfd, fd;
	ssize_t n = -1;

	if (fstatat(rootfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & 07777) != OWNED_MODE)
		return false;
	dirfd = openat(rootfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	fd = dirfd < 0 ? -1 : openat(dirfd, OWNER_FILE, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0)
		n = read(fd, text, sizeof(text) - 1);
	if (fd >= 0)
		close(fd);
	if (dirfd >= 0)
		close(dirfd);
	if (n <= 0 || sscanf(text, "%ld %llu", &pid, &t0) < 1 || pid <= 0)
		return false;
	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		return true;
	return t0 && (now = start_time(pid)) && now != t0; /* the pid was reused */
}

int hb_clean_stale_tmp(const char *prefix)
{
	char *root = hb_tmp_root(), *why = NULL;
	int rootfd = open_tmp_root(root, false, &why), copy;
	DIR *d;
	struct dirent *e;
	int removed = 0;

	free(why); /* no root yet, or not ours: nothing of ours to clean */
	free(root);
	if (rootfd < 0)
		return 0;
	copy = dup(rootfd);
	d = copy >= 0 ? fdopendir(copy) : NULL;
	while (d && (e = readdir(d))) {
		if (!strncmp(e->d_name, prefix, strlen(prefix)) && stale_owned_dir(rootfd, e->d_name) &&
		    hb_remove_tree_at(rootfd, e->d_name) == 0)
			removed++;
	}
	if (d)
		closedir(d);
	else if (copy >= 0)
		close(copy);
	close(rootfd);
	return removed;
}

void hb_clean_stale_vm_tmp(void)
{
	int n = hb_clean_stale_tmp(HB_TMP_VM) + hb_clean_stale_tmp(HB_TMP_PROBE) +
		hb_clean_stale_tmp(HB_TMP_CONFIGS);
	char *root;

	if (n <= 0)
		return;
	root = hb_tmp_root();
	hb_info("removed %d temporary folder(s) of harness processes that are gone (%s/%s*, %s/%s*, "
		"%s/%s*)", n, root, HB_TMP_VM, root, HB_TMP_PROBE, root, HB_TMP_CONFIGS);
	free(root);
}
