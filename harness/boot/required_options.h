/* The kernel options the guest path needs, in one place, and the check of a kernel's
 * .config against them (for --kernel images built elsewhere). */
#ifndef HB_BOOT_REQUIRED_OPTIONS_H
#define HB_BOOT_REQUIRED_OPTIONS_H

#include <stdbool.h>

struct guest_needs {
	const char *machine;   /* "q35" or "microvm" */
	const char *rootfs;    /* "virtiofs", "9p", or "auto" (either is enough) */
	bool pvh;              /* booting a vmlinux through its PVH entry */
};

/* Checks config text (a .config) against the needs. NULL when all are there, else a
 * malloc'd list like "CONFIG_VIRTIO_CONSOLE (not set; the init's result ports),
 * CONFIG_9P_FS (=m; must be built in: there is no initramfs)". */
char *required_options_missing(const char *config_text, const struct guest_needs *needs);
/* Where a --kernel image's config may be: next to it (.config, config), its build tree
 * (for .../arch/x86/boot/bzImage), /boot/config-<release>. NULL when none is readable. */
char *find_kernel_config(const char *image);
/* The release string from a bzImage's setup header ("6.1.192"), or NULL. */
char *bzimage_release(const char *image);

#endif
