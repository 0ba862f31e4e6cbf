/* A kernel built elsewhere (boot --kernel IMAGE, run --kernel NAME=IMAGE) as a
 * kernel_image, checked before any boot against what the guest path needs. */
#ifndef HB_BOOT_EXTERNAL_KERNEL_H
#define HB_BOOT_EXTERNAL_KERNEL_H

#include "kernel/kernel.h"

struct external_kernel_req {
	const char *option;   /* how the user named it, for errors: "--kernel mine=/x/bzImage" */
	const char *name;     /* the image's build name: "external", or run's NAME */
	const char *image;    /* a bzImage, or a vmlinux booted through PVH */
	const char *modules;  /* INSTALL_MOD_PATH or lib/modules/<release>; NULL: none */
	const char *machine;  /* NULL: the default machine */
	const char *rootfs;   /* NULL: either */
};

/* 0 with *out filled (key: the image's SHA-256); 1 the same, but no config was found to
 * check (*why says where it looked); -1 with *why, one line: no such file, or the
 * config lacks what the guest needs. */
int external_kernel_load(const struct external_kernel_req *req, struct kernel_image *out, char **why);

#endif
