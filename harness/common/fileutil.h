/* Whole-file reads and crash-safe writes. */
#ifndef HB_COMMON_FILEUTIL_H
#define HB_COMMON_FILEUTIL_H

#include <stddef.h>

/* Reads a whole file, NUL-terminated. NULL with errno set on failure. */
char *hb_read_file(const char *path, size_t *len);
/* Writes to path.tmp, fsyncs, renames over path, fsyncs the directory. 0 or -1/errno. */
/* Writes all of buf to fd, retrying short writes and EINTR: 0, or -1 with errno. */
int hb_write_all(int fd, const void *buf, size_t len);
int hb_write_file_atomic(const char *path, const void *data, size_t len);
/* For an append-only file of lines: when its last line was cut short by a crash (no
 * newline), ends it, so that only the torn line is lost, not the next good one too. */
int hb_end_torn_line(int fd);
/* rm -rf; 0 or -1/errno. Refuses "/" and "". */
int hb_remove_tree(const char *path);
/* Last n lines of a text (pointer into it). */
const char *hb_tail_lines(const char *text, int n);

#endif
