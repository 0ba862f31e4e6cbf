/* The QEMU the harness boots with, as `qemu-system-x86_64 --version` tells it. */
#ifndef HB_BOOT_QEMU_VERSION_H
#define HB_BOOT_QEMU_VERSION_H

#include <json-c/json.h>

/* Its first line ("QEMU emulator version 7.2.19 (Debian ...)"), or "none" when QEMU is
 * not installed; caller frees. */
char *qemu_version_line(void);
/* "PATH dev D ino I size S mtime T" of the binary exec runs for QEMU, "none" when there is
 * none: what changes when QEMU is replaced (an upgrade), read by stat(), where --version
 * costs an exec of QEMU (15-80 ms here, most of it loading its libraries). Caller frees. */
char *qemu_binary_identity(void);
/* major * 100 + minor (7.2 -> 702), or -1 when QEMU is missing or says no version. */
int qemu_version_number(void);

/* meta.json's "qemu" record (results/provenance.h): the version text after "version "
 * ("none" without QEMU), the binary, the -cpu model of accel ("kvm", "tcg") and the TCG
 * plugins every boot loads (NULL-terminated, or NULL: none). */
json_object *qemu_provenance_json(const char *accel, char *const *plugins);

#endif
