#include "fileutil.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/openat2.h>

#include <json-c/json.h>

#include "termsafe.h"
#include "xalloc.h"

static char *read_with(const char *path, int flags, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | flags);
	size_t cap = 0, used = 0;
	char *buf = NULL;
	ssize_t n;

	if (fd < 0)
		return NULL;
	buf = xgrow(buf, &cap, 8192, 1);
	while ((n = read(fd, buf + used, cap - used - 1)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		used += (size_t)n;
		if (cap - used < 2)
			buf = xgrow(buf, &cap, cap * 2, 1);
	}
	close(fd);
	buf[used] = '\0';
	if (len)
		*len = used;
	return buf;
}

char *hb_read_fd(int fd, size_t *len)
{
	char path[64];

	/* Through the descriptor's own link: the same file, read from its start. */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return read_with(path, 0, len);
}

int hb_open_beneath(int dirfd, const char *rel, int flags)
{
	struct open_how how = { .flags = (unsigned long long)(flags | O_CLOEXEC),
				.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS };

	return (int)syscall(SYS_openat2, dirfd, rel, &how, sizeof(how));
}

char *hb_read_file(const char *path, size_t *len)
{
	return read_with(path, 0, len);
}

char *hb_read_file_nofollow(const char *path, size_t *len)
{
	return read_with(path, O_NOFOLLOW, len);
}

json_object *hb_json_from_file_nofollow(const char *path)
{
	char *text = hb_read_file_nofollow(path, NULL);
	json_object *o = text ? json_tokener_parse(text) : NULL;

	free(text);
	return o;
}

FILE *hb_fopen_nofollow(const char *path, const char *mode)
{
	return hb_fopen_at(AT_FDCWD, path, mode);
}

int hb_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int hb_write_for_terminal(int fd, const char *buf, size_t len)
{
	char chunk[4096];

	if (!isatty(fd))
		return hb_write_all(fd, buf, len);
	while (len) {
		size_t n = len < sizeof(chunk) ? len : sizeof(chunk);
		/* A C1 control is two bytes (0xC2 0x80..0x9F): never split one across chunks. */
		if (n < len && n > 1 && (unsigned char)buf[n - 1] == 0xc2)
			n--;
		memcpy(chunk, buf, n);
		hb_strip_controls(chunk, n, true);
		/* The last byte of the whole write: its next byte comes with the next write (a
		 * guest's output arrives in pieces it chooses), and may make it a C1 control. */
		if (n == len && (unsigned char)chunk[n - 1] == 0xc2)
			chunk[n - 1] = '?';
		if (hb_write_all(fd, chunk, n) < 0)
			return -1;
		buf += n;
		len -= n;
	}
	return 0;
}

/* A new file in dirfd: never one planted at the name (a symlink to follow, a file another
 * user keeps open). A leftover of a killed process with our pid is removed (unlink removes
 * a symlink itself, not its target) and the create tried once more. */
static int create_exclusive_at(int dirfd, const char *name)
{
	const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	int fd = openat(dirfd, name, flags, 0644);

	if (fd < 0 && errno == EEXIST && unlinkat(dirfd, name, 0) == 0)
		fd = openat(dirfd, name, flags, 0644);
	return fd;
}

int hb_write_file_at(int dirfd, const char *name, const void *data, size_t len)
{
	char *tmp = xasprintf("%s.tmp.%d", name, (int)getpid());
	int fd = create_exclusive_at(dirfd, tmp);
	int rc = -1, e = 0;

	if (fd < 0)
		goto out;
	if (hb_write_all(fd, data, len) < 0 || fsync(fd) < 0) {
		e = errno;
		close(fd);
		unlinkat(dirfd, tmp, 0);
		errno = e;
		goto out;
	}
	close(fd);
	if (renameat(dirfd, tmp, dirfd, name) < 0) {
		e = errno;
		unlinkat(dirfd, tmp, 0);
		errno = e;
		goto out;
	}
	fsync(dirfd);
	rc = 0;
out:
	free(tmp);
	return rc;
}

int hb_write_file_atomic(const char *path, const void *data, size_t len)
{
	char *dcopy = xstrdup(path), *bcopy = xstrdup(path);
	int dirfd = open(dirname(dcopy), O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = -1, e;

	if (dirfd >= 0) {
		rc = hb_write_file_at(dirfd, basename(bcopy), data, len);
		e = errno;
		close(dirfd);
		errno = e;
	}
	free(dcopy);
	free(bcopy);
	return rc;
}

FILE *hb_fopen_at(int dirfd, const char *name, const char *mode)
{
	int flags = mode[0] == 'r' ? O_RDONLY : mode[0] == 'a' ? O_WRONLY | O_CREAT | O_APPEND :
		    O_WRONLY | O_CREAT | (strchr(mode, 'x') ? O_EXCL : O_TRUNC);
	int fd = openat(dirfd, name, flags | O_NOFOLLOW | O_CLOEXEC, 0644), e;
	FILE *f;

	if (fd < 0)
		return NULL;
	if (!(f = fdopen(fd, mode[0] == 'r' ? "r" : mode[0] == 'a' ? "a" : "w"))) {
		e = errno;
		close(fd);
		errno = e;
	}
	return f;
}

/* Deep enough for any tree the harness makes (a kernel tree is about 12 levels); each
 * level holds one file descriptor. */
#define REMOVE_MAX_DEPTH 128

static int remove_at(int dirfd, const char *name, dev_t dev, int depth);

/* Every entry of the open directory fd, through fd: a directory swapped for a symlink
 * behind our back can no longer redirect a delete. */
static int empty_dir_fd(int fd, dev_t dev, int depth)
{
	int copy = dup(fd);
	DIR *d = copy >= 0 ? fdopendir(copy) : NULL;
	struct dirent *e;
	int rc = 0;

	if (!d) {
		if (copy >= 0)
			close(copy);
		return -1;
	}
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && remove_at(fd, e->d_name, dev, depth + 1) < 0)
			rc = -1;
	}
	closedir(d);
	return rc;
}

/* Removes name in dirfd and everything below it without following a symlink, and without
 * entering another file system (a mount left inside is refused with EXDEV). */
static int remove_at(int dirfd, const char *name, dev_t dev, int depth)
{
	struct stat st, opened;
	int fd, rc;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(dirfd, name, 0) < 0 && errno != ENOENT ? -1 : 0;
	if (st.st_dev != dev || depth > REMOVE_MAX_DEPTH) {
		errno = st.st_dev != dev ? EXDEV : ELOOP;
		return -1;
	}
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* Swapped between the stat and the open: leave whatever is there now alone. */
	if (fstat(fd, &opened) < 0 || opened.st_ino != st.st_ino || opened.st_dev != st.st_dev) {
		close(fd);
		errno = EAGAIN;
		return -1;
	}
	rc = empty_dir_fd(fd, dev, depth);
	close(fd);
	if (unlinkat(dirfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
		rc = -1;
	return rc;
}

int hb_remove_tree_at(int dirfd, const char *name)
{
	struct stat parent;

	if (!name || !*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..")) {
		errno = EINVAL;
		return -1;
	}
	if (fstat(dirfd, &parent) < 0)
		return -1;
	return remove_at(dirfd, name, parent.st_dev, 0);
}

int hb_remove_tree(const char *path)
{
	char *copy, *slash;
	int dirfd, rc, e;

	if (!path || !*path) {
		errno = EINVAL;
		return -1;
	}
	copy = xstrdup(path);
	for (size_t n = strlen(copy); n > 1 && copy[n - 1] == '/'; n--)
		copy[n - 1] = '\0';
	slash = strrchr(copy, '/');
	if (slash == copy + strlen(copy) - 1) { /* "/" */
		free(copy);
		errno = EINVAL;
		return -1;
	}
	if (slash)
		*slash = '\0';
	dirfd = open(!slash ? "." : slash == copy ? "/" : copy, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		e = errno;
		free(copy);
		errno = e;
		return e == ENOENT ? 0 : -1;
	}
	rc = hb_remove_tree_at(dirfd, slash ? slash + 1 : copy);
	e = errno;
	close(dirfd);
	free(copy);
	errno = e;
	return rc;
}

const char *hb_tail_lines(const char *text, int n)
{
	const char *p;
	size_t len = strlen(text);

	if (!len)
		return text;
	p = text + len - 1;
	if (*p == '\n' && p > text)
		p--;
	for (; p > text; p--) {
		if (*p == '\n' && --n == 0)
			return p + 1;
	}
	return text;
}

int hb_end_torn_line(int fd)
{
	struct stat st;
	char last;

	if (fstat(fd, &st) < 0 || st.st_size == 0)
		return 0;
	if (pread(fd, &last, 1, st.st_size - 1) != 1)
		return -1;
	return last == '\n' || write(fd, "\n", 1) == 1 ? 0 : -1;
}
