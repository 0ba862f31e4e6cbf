/* The job file the guest init reads (guest/init/PROTOCOL.md): written by the host
 * before QEMU starts, read by the init before it mounts anything. */
#ifndef HB_BOOT_JOBFILE_H
#define HB_BOOT_JOBFILE_H

#include <stddef.h>

#include "boot/vm.h"

/* The job file's text. home/modules may be NULL. */
char *jobfile_render(const char *home, const char *modules, const struct guest_job *jobs,
		     size_t njobs);
/* %XX for bytes the file format reserves (space, '%', control bytes, non-ASCII). */
char *jobfile_encode(const char *s);

#endif
