/* What a guest sees of the host: a read-only view built in a private mount namespace
 * (virtiofsd's), never the host root itself.
 *
 * The view is an empty tmpfs with, bound read-only, nosuid and nodev (recursively):
 *   - /usr and the merged-/usr links (/bin, /sbin, /lib*: symlinks, or binds on a host
 *     without merged /usr);
 *   - of /etc only an allowlist of what the workloads read (the loader's cache, passwd and
 *     group, nsswitch.conf, localtime, the alternatives links...: host_view.c), and of
 *     those only what every host user may read;
 *   - the shares: the project's build folder and workloads/, the job file, what a workload
 *     declares (kbuild's source tree and prepared objects) and every --share PATH;
 *   - the kernel's modules, at HOST_VIEW_MODULES (the init binds them at /lib/modules);
 * and empty folders where the guest mounts its own (/proc, /sys, /dev, /run, /tmp,
 * /var/tmp) and over /root, /home and $HOME (the guest overlays a tmpfs on $HOME).
 *
 * The root's propagation is made private first: a host mount that appears during the
 * boot (automount, NFS, a loop device) never reaches the view, read-write or otherwise.
 *
 * The plan (every mkdir, symlink and bind, with absolute paths) is made in the parent;
 * the child only replays it between fork and exec. */
#ifndef HB_BOOT_HOST_VIEW_H
#define HB_BOOT_HOST_VIEW_H

#include <stddef.h>
#include <stdio.h>

#include "common/argparse.h"

enum view_op {
	VIEW_MKDIR,   /* dst: an empty folder in the view's tmpfs */
	VIEW_TOUCH,   /* dst: an empty file to bind a file on */
	VIEW_SYMLINK, /* dst -> src */
	VIEW_BIND,    /* src bound (recursively) on dst */
};

struct view_step {
	enum view_op op;
	char *src;
	char *dst; /* absolute, under the view's root */
};

struct host_view {
	char *root; /* the view's mount point (rundir/root) */
	struct view_step *steps;
	size_t n, cap;
	struct hb_strv bound; /* host paths visible through a bind (no mkdir under them) */
	struct hb_strv etc;   /* the guest's /etc entries ("/etc/x", "/etc/y -> target") */
};

/* Where the kernel's modules are in the view (and what the job file names): not their host
 * path, which is under $HOME with the default cache and would show there. */
#define HOST_VIEW_MODULES "/.hardbench/modules"

/* Plans the view at root: the system part, then shares (absolute host paths; a share
 * that does not exist is skipped, one under an earlier share is visible already), then
 * modules (a folder, or NULL) at HOST_VIEW_MODULES. */
void host_view_plan(struct host_view *v, const char *root, char *const *shares, const char *modules);
/* The allowlisted entries of host_etc ("/etc"; a test's folder) as the view's /etc. */
void host_view_add_etc(struct host_view *v, const char *host_etc);
/* Child side, between fork and exec: a private mount namespace with the view mounted at
 * v->root. 0, or an errno after writing the failed step to stderr. */
int host_view_mount(const void *view);
/* The shares in the order they are bound, for --dry-run. */
void host_view_print(const struct host_view *v, FILE *f);
void host_view_free(struct host_view *v);

#endif
