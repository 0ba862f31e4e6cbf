/* A boot's logs (console.log, qemu.log, result.log, output.raw) hold what a guest or a
 * kernel under test writes, so each is bounded: past TAIL_LOG_MAX bytes it keeps its last
 * TAIL_LOG_KEEP, after a first line that says how much was cut. QEMU writes console.log
 * and qemu.log itself (opened O_APPEND, so it keeps writing at the new end); the host
 * writes the port transcripts through tail_log_write. Either way the host trims. */
#ifndef HB_BOOT_TAIL_LOG_H
#define HB_BOOT_TAIL_LOG_H

#include <stddef.h>
#include <sys/types.h>

#define TAIL_LOG_MAX (16 << 20)
#define TAIL_LOG_KEEP (8 << 20)
#define TAIL_LOG_MARK "[hardbench: %llu bytes cut here; this log keeps its last %d MiB]\n"

struct tail_log {
	int fd;                   /* O_RDWR, never O_APPEND (pwrite must go where it says) */
	unsigned long long cut;   /* bytes dropped so far */
	int mark_len;             /* the mark line at its start, 0 before the first cut */
};

#define TAIL_LOG_NONE ((struct tail_log){ .fd = -1 })

/* A fresh log at path: any old file there is unlinked, then the new one is made with
 * O_EXCL|O_NOFOLLOW, so a planted symlink or hard link is never written through.
 * 0, or -1 with errno. */
int tail_log_create(struct tail_log *t, const char *path);
/* The same for name in the open folder dirfd (a --log-dir walked by common/safepath.h). */
int tail_log_create_at(struct tail_log *t, int dirfd, const char *name);
/* Appends (a write error closes the log: a full disk must not stop a boot). */
void tail_log_write(struct tail_log *t, const void *buf, size_t n);
/* Cuts the log down to its tail if it has grown past TAIL_LOG_MAX. */
void tail_log_trim(struct tail_log *t);
void tail_log_close(struct tail_log *t);

#endif
