/* The run's own lock on its result set. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "common/log.h"
#include "common/paths.h"
#include "run/run.h"

/* One run at a time per result set, for the whole run (the store's own lock covers only
 * sample appends). */
int lock_run_dir(struct run *r)
{
	char *path;

	if (hb_mkdir_p(r->dir, 0755) < 0) {
		hb_error("cannot create %s: %s", r->dir, strerror(errno));
		return -1;
	}
	path = hb_path_join(r->dir, ".run.lock");
	r->run_lock_fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	free(path);
	if (r->run_lock_fd < 0 || flock(r->run_lock_fd, LOCK_EX | LOCK_NB) < 0) {
		hb_error("%s is in use by another 'harness run'", r->dir);
		return -1;
	}
	return 0;
}
