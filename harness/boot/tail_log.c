#include "boot/tail_log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define COPY_CHUNK 65536

int tail_log_create_at(struct tail_log *t, int dirfd, const char *name)
{
	*t = TAIL_LOG_NONE;
	if (unlinkat(dirfd, name, 0) < 0 && errno != ENOENT)
		return -1;
	t->fd = openat(dirfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	return t->fd < 0 ? -1 : 0;
}

int tail_log_create(struct tail_log *t, const char *path)
{
	return tail_log_create_at(t, AT_FDCWD, path);
}

void tail_log_close(struct tail_log *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

/* Copies [from, end) to dst (< from) in chunks, so no log is ever held in memory. */
static int move_down(int fd, off_t from, off_t end, off_t dst)
{
	char buf[COPY_CHUNK];

	while (from < end) {
		size_t want = end - from < COPY_CHUNK ? (size_t)(end - from) : COPY_CHUNK;
		ssize_t n = pread(fd, buf, want, from);
		if (n <= 0 || pwrite(fd, buf, (size_t)n, dst) != n)
			return -1;
		from += n;
		dst += n;
	}
	return 0;
}

void tail_log_trim(struct tail_log *t)
{
	struct stat st;
	char mark[128];

	if (t->fd < 0 || fstat(t->fd, &st) < 0 || st.st_size <= TAIL_LOG_MAX)
		return;
	off_t keep_from = st.st_size - TAIL_LOG_KEEP;
	t->cut += (unsigned long long)(keep_from - t->mark_len); /* the old mark is not the log's */
	int m = snprintf(mark, sizeof(mark), TAIL_LOG_MARK, t->cut, TAIL_LOG_KEEP >> 20);
	if (move_down(t->fd, keep_from, st.st_size, m) < 0 || pwrite(t->fd, mark, (size_t)m, 0) != m ||
	    ftruncate(t->fd, m + TAIL_LOG_KEEP) < 0)
		tail_log_close(t);
	t->mark_len = m;
}

void tail_log_write(struct tail_log *t, const void *buf, size_t n)
{
	struct stat st;

	if (t->fd < 0)
		return;
	if (fstat(t->fd, &st) < 0 || pwrite(t->fd, buf, n, st.st_size) != (ssize_t)n) {
		tail_log_close(t);
		return;
	}
	tail_log_trim(t);
}
