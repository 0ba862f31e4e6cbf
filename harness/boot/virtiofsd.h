/* virtiofsd (QEMU 7.2's C daemon) serving the guest its root: a read-only view of the
 * host (boot/host_view.h), never the host root itself.
 *
 * virtiofsd 7.2 has no read-only option, and the guest runs jobs as root (a job could
 * remount its root read-write). So virtiofsd is started in a private mount namespace where
 * its source is the view, read-only, nosuid and nodev down to every bind (mount_setattr
 * AT_RECURSIVE): the host itself refuses every write, as QEMU's 9p readonly=on does. */
#ifndef HB_BOOT_VIRTIOFSD_H
#define HB_BOOT_VIRTIOFSD_H

#include <stdbool.h>

#include "boot/host_view.h"
#include "common/child.h"

#define VIRTIOFSD_PATH "/usr/lib/qemu/virtiofsd"

struct virtiofsd {
	struct hb_child proc;
	char *socket;      /* vhost-user socket QEMU connects to */
	char *view;        /* mountpoint of the read-only view (inside its namespace only) */
	const struct host_view *hv; /* the view's plan (the session's) */
	char **argv;
	bool running;
};

/* Prepares paths and argv under rundir (nothing runs); view stays the caller's. */
void virtiofsd_prepare(struct virtiofsd *v, const char *rundir, const struct host_view *view);
/* Starts it and waits for its socket. 0, or -1 with *why (malloc'd, one line). */
int virtiofsd_start(struct virtiofsd *v, const char *log_path, char **why);
void virtiofsd_stop(struct virtiofsd *v);
void virtiofsd_free(struct virtiofsd *v);

#endif
