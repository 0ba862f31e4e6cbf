/* The QEMU the harness boots with, as `qemu-system-x86_64 --version` tells it. */
#ifndef HB_BOOT_QEMU_VERSION_H
#define HB_BOOT_QEMU_VERSION_H

/* Its first line ("QEMU emulator version 7.2.19 (Debian ...)"), or "none" when QEMU is
 * not installed; caller frees. */
char *qemu_version_line(void);
/* major * 100 + minor (7.2 -> 702), or -1 when QEMU is missing or says no version. */
int qemu_version_number(void);

#endif
