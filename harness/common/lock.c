#include "common/lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"

int kernel_cache_lock(const char *cache, const char *name, const char *what)
{
	char *dir = hb_path_join(cache, "locks");
	char *path = xasprintf("%s/%s.lock", dir, name);
	int fd = -1;

	if (hb_mkdir_p(dir, 0755) < 0 || (fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0) {
		hb_error("cannot open lock file %s: %s", path, strerror(errno));
		goto out;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) == 0)
		goto out;
	if (errno != EWOULDBLOCK) {
		hb_error("cannot lock %s: %s", path, strerror(errno));
		close(fd);
		fd = -1;
		goto out;
	}
	hb_info("waiting for %s (lock %s)", what, path);
	while (flock(fd, LOCK_EX) < 0) {
		if (errno == EINTR)
			continue;
		hb_error("cannot lock %s: %s", path, strerror(errno));
		close(fd);
		fd = -1;
		break;
	}
out:
	free(path);
	free(dir);
	return fd;
}

void kernel_cache_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
}
