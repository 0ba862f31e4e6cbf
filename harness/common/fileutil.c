#include "fileutil.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xalloc.h"

char *hb_read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
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

int hb_write_file_atomic(const char *path, const void *data, size_t len)
{
	char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	char *dcopy = xstrdup(path);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int rc = -1, e = 0;

	if (fd < 0)
		goto out;
	if (hb_write_all(fd, data, len) < 0 || fsync(fd) < 0) {
		e = errno;
		close(fd);
		unlink(tmp);
		errno = e;
		goto out;
	}
	close(fd);
	if (rename(tmp, path) < 0) {
		e = errno;
		unlink(tmp);
		errno = e;
		goto out;
	}
	fd = open(dirname(dcopy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	rc = 0;
out:
	free(tmp);
	free(dcopy);
	return rc;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int hb_remove_tree(const char *path)
{
	struct stat st;

	if (!path || !*path || !strcmp(path, "/")) {
		errno = EINVAL;
		return -1;
	}
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	/* FTW_MOUNT: a mount left inside (virtiofsd's view of "/" lives in its own mount
	 * namespace, but be sure) is never descended into. */
	return nftw(path, remove_entry, 32, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
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
