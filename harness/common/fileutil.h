/* Whole-file reads and crash-safe writes. */
#ifndef HB_COMMON_FILEUTIL_H
#define HB_COMMON_FILEUTIL_H

#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

/* fopen for "r", "a", "w" or "wx" (O_EXCL: a new file only; close-on-exec) that refuses a
 * symlink as the last component (ELOOP): for files in result sets, cache entries and log
 * folders, where a symlink planted by another user must never be followed. */
FILE *hb_fopen_nofollow(const char *path, const char *mode);
/* The same for name in the open folder dirfd (a folder common/safepath.h checked). */
FILE *hb_fopen_at(int dirfd, const char *name, const char *mode);
/* Reads a whole file, NUL-terminated. NULL with errno set on failure. */
char *hb_read_file(const char *path, size_t *len);
/* The same, refusing a symlink as the last component (ELOOP): for files in result sets,
 * cache entries and log folders. */
char *hb_read_file_nofollow(const char *path, size_t *len);
/* The whole file fd is open on, from its start (its /proc/self/fd link). */
char *hb_read_fd(int fd, size_t *len);
/* openat(dirfd, rel, flags) where no component of rel may be a symlink or leave dirfd
 * (openat2 RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS): for trees another uid wrote. */
int hb_open_beneath(int dirfd, const char *rel, int flags);
/* json_object_from_file, through hb_read_file_nofollow. NULL when unreadable or not JSON. */
json_object *hb_json_from_file_nofollow(const char *path);
/* Writes all of buf to fd, retrying short writes and EINTR: 0, or -1 with errno. */
int hb_write_all(int fd, const void *buf, size_t len);
/* hb_write_all, with control characters but '\n' and '\t' shown as '?' when fd is a
 * terminal (common/termsafe.h: C0, ESC, DEL and C1; a file or pipe gets the bytes as
 * they are). A 0xC2 ending buf is shown as '?' too: the byte after it is not known. */
int hb_write_for_terminal(int fd, const char *buf, size_t len);
/* Writes to <path>.tmp.<pid> (O_EXCL, O_NOFOLLOW), fsyncs, renames over path, fsyncs the
 * directory. 0 or -1/errno. */
int hb_write_file_atomic(const char *path, const void *data, size_t len);
/* The same for name in the open folder dirfd: created and renamed through dirfd. */
int hb_write_file_at(int dirfd, const char *name, const void *data, size_t len);
/* For an append-only file of lines: when its last line was cut short by a crash (no
 * newline), ends it, so that only the torn line is lost, not the next good one too. */
int hb_end_torn_line(int fd);
/* rm -rf; 0 or -1/errno. Refuses "/" and "". The walk goes through directory file
 * descriptors (openat O_NOFOLLOW, unlinkat), so a subfolder swapped for a symlink while it
 * runs redirects nothing; it never follows a symlink nor enters another file system. */
int hb_remove_tree(const char *path);
/* The same for the entry name (no '/') of the open directory dirfd. */
int hb_remove_tree_at(int dirfd, const char *name);
/* Last n lines of a text (pointer into it). */
const char *hb_tail_lines(const char *text, int n);

#endif
