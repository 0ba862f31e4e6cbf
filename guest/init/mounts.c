/* The guest's file tree: the host root (mounted read-only by the kernel), the guest's own
 * proc/sys/dev, tmpfs on /run and /dev/shm, overlays on /tmp, /var/tmp and $HOME (host
 * files visible, writes in tmpfs), and the build's modules at /lib/modules/<release>. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "init.h"

#define TMPFS_MAGIC_NUMBER 0x01021994 /* devtmpfs reports the tmpfs magic */
#define SCRATCH_DIR "/run/hardbench"

static int do_mount(const char *src, const char *dst, const char *type, unsigned long flags,
		    const char *data, char why[INIT_WHY_MAX])
{
	if (mount(src, dst, type, flags, data) == 0)
		return 0;
	init_set_why(why, errno, "mount %s on %s", type ? type : src, dst);
	return -1;
}

int mount_early(char why[INIT_WHY_MAX])
{
	struct statfs st;

	if (do_mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL, why) < 0)
		return -1;
	if (do_mount("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL, why) < 0)
		return -1;
	/* DEVTMPFS_MOUNT may have put it there already; mounting twice would stack. */
	if (statfs("/dev", &st) == 0 && st.f_type == TMPFS_MAGIC_NUMBER)
		return 0;
	return do_mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755", why);
}

struct tmpfs_spot {
	const char *dir;
	const char *mode;
};

/* Plain tmpfs where host content has no business in the guest. /run comes first: the
 * overlays below keep their upper and work directories in it. */
static const struct tmpfs_spot tmpfs_spots[] = {
	{ "/run", "mode=0755" },
	{ "/dev/shm", "mode=1777" },
};

/* Overlays (host files visible, writes in tmpfs): the harness and its cache may live under
 * the host's /tmp (a CI clone in mktemp -d, HARDBENCH_CACHE=/tmp/...), and jobs name their
 * helpers, modules and disk images by host path, so hiding /tmp would hide them. */
static const char *const overlay_spots[] = { "/tmp", "/var/tmp" };

static int mount_tmpfs_spots(char why[INIT_WHY_MAX])
{
	mkdir("/dev/shm", 01777);
	mkdir("/dev/pts", 0755);
	for (size_t i = 0; i < sizeof(tmpfs_spots) / sizeof(tmpfs_spots[0]); i++) {
		const struct tmpfs_spot *t = &tmpfs_spots[i];
		if (do_mount("tmpfs", t->dir, "tmpfs", MS_NOSUID | MS_NODEV, t->mode, why) < 0)
			return -1;
	}
	/* Optional: only programs that open ptys need it. */
	mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "mode=0620,ptmxmode=0666");
	return 0;
}

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Hosts without kernel modules (containers) have no /lib/modules to mount on, and the
 * root is read-only: an overlay on the directory /lib resolves to (tmpfs upper) makes one. */
static int make_modules_mountpoint(char why[INIT_WHY_MAX])
{
	char lib[4096];

	if (is_dir("/lib/modules"))
		return 0;
	if (!realpath("/lib", lib)) {
		init_set_why(why, errno, "realpath /lib");
		return -1;
	}
	if (mkdir(SCRATCH_DIR, 0755) < 0 && errno != EEXIST) {
		init_set_why(why, errno, "mkdir " SCRATCH_DIR);
		return -1;
	}
	if (mkdir(SCRATCH_DIR "/lib-upper", 0755) < 0 || mkdir(SCRATCH_DIR "/lib-work", 0755) < 0) {
		init_set_why(why, errno, "mkdir " SCRATCH_DIR "/lib-*");
		return -1;
	}
	char opts[4200];
	snprintf(opts, sizeof(opts), "lowerdir=%s,upperdir=" SCRATCH_DIR "/lib-upper,workdir="
		 SCRATCH_DIR "/lib-work", lib);
	if (do_mount("overlay", lib, "overlay", 0, opts, why) < 0)
		return -1;
	if (mkdir("/lib/modules", 0755) < 0) {
		init_set_why(why, errno, "mkdir /lib/modules");
		return -1;
	}
	return 0;
}

/* The host path may be an INSTALL_MOD_PATH root or the <release> directory itself. */
static int mount_modules(const char *host_tree, char why[INIT_WHY_MAX])
{
	char src[4096], dst[400];
	struct utsname u;

	uname(&u);
	snprintf(src, sizeof(src), "%s/lib/modules/%s", host_tree, u.release);
	if (!is_dir(src))
		snprintf(src, sizeof(src), "%s", host_tree);
	if (!is_dir(src)) {
		init_set_why(why, errno, "modules tree %s", host_tree);
		return -1;
	}
	if (make_modules_mountpoint(why) < 0)
		return -1;
	/* The host's own /lib/modules does not belong to this kernel: cover it. */
	if (do_mount("tmpfs", "/lib/modules", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755", why) < 0)
		return -1;
	snprintf(dst, sizeof(dst), "/lib/modules/%s", u.release);
	if (mkdir(dst, 0755) < 0) {
		init_set_why(why, errno, "mkdir %s", dst);
		return -1;
	}
	return do_mount(src, dst, NULL, MS_BIND | MS_REC, NULL, why);
}

/* dir stays readable and becomes writable without touching the host: an overlay with its
 * upper layer in tmpfs (under /run). Falls back to an empty tmpfs with mode when overlayfs
 * refuses the host filesystem, and says so on the result port. */
static void overlay_on(const char *dir, const char *mode, int result_fd)
{
	static const char scratch[] = SCRATCH_DIR;
	char upper[4200], work[4200], opts[8500], why[INIT_WHY_MAX] = "";
	const char *name = dir[1] ? dir + 1 : "root";
	struct stat st;
	/* The overlay's root takes the upper directory's mode: give it the host directory's. */
	mode_t host_mode = stat(dir, &st) == 0 ? st.st_mode & 07777 : 0755;

	snprintf(upper, sizeof(upper), "%s/%s-upper", scratch, name);
	snprintf(work, sizeof(work), "%s/%s-work", scratch, name);
	for (char *p = upper + sizeof(scratch); *p; p++)
		*p = *p == '/' ? '_' : *p;
	for (char *p = work + sizeof(scratch); *p; p++)
		*p = *p == '/' ? '_' : *p;
	if ((mkdir(SCRATCH_DIR, 0755) == 0 || errno == EEXIST) && mkdir(upper, 0755) == 0 &&
	    chmod(upper, host_mode) == 0 && mkdir(work, 0755) == 0) {
		snprintf(opts, sizeof(opts), "lowerdir=%s,upperdir=%s,workdir=%s", dir, upper, work);
		if (do_mount("overlay", dir, "overlay", 0, opts, why) == 0)
			return;
	} else {
		init_set_why(why, errno, "mkdir %s", upper);
	}
	port_line(result_fd, "note overlay on %s failed (%s); using an empty tmpfs", dir, why);
	mount("tmpfs", dir, "tmpfs", MS_NOSUID | MS_NODEV, mode);
}

static void mount_home(const char *home, int result_fd)
{
	if (!strcmp(home, "/"))
		return;
	if (!is_dir(home) && mkdir(home, 0700) < 0) {
		port_line(result_fd, "note $HOME %s does not exist in the guest", home);
		return;
	}
	overlay_on(home, "mode=0700", result_fd);
}

int mount_guest_tree(const struct init_spec *s, int result_fd, char why[INIT_WHY_MAX])
{
	if (mount_tmpfs_spots(why) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(overlay_spots) / sizeof(overlay_spots[0]); i++)
		if (is_dir(overlay_spots[i]))
			overlay_on(overlay_spots[i], "mode=1777", result_fd);
	/* Before the $HOME overlay: the modules tree may live under $HOME (the build cache). */
	if (s->modules && mount_modules(s->modules, why) < 0)
		return -1;
	if (s->home)
		mount_home(s->home, result_fd);
	return 0;
}
