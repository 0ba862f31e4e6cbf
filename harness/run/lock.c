/* The run's own lock on its result set. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "common/log.h"
#include "common/safepath.h"
#include "run/run.h"

/* One run at a time per result set, for the whole run (the store's own lock covers only
 * sample appends). */
int lock_run_dir(struct run *r)
{
	char *why = NULL;
	/* Made and walked from "/" (common/safepath.h): nothing on the way is another user's. */
	int dirfd = hb_open_dir_checked(r->dir, "--out", HB_SAFE_CREATE | HB_SAFE_OWN, &why);

	if (dirfd < 0) {
		hb_error("%s", why);
		free(why);
		return -1;
	}
	r->run_lock_fd = openat(dirfd, ".run.lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	close(dirfd);
	if (r->run_lock_fd < 0 || flock(r->run_lock_fd, LOCK_EX | LOCK_NB) < 0) {
		hb_error("%s is in use by another 'harness run'", r->dir);
		return -1;
	}
	return 0;
}
