/* Integrity of a kernel cache entry: the manifest's "artifacts" list records the size,
 * mtime and SHA-256 of every file the entry serves (bzImage, vmlinux, config, every file
 * under modules/), and a use of the entry checks them, so a damaged entry is named
 * instead of booted. */
#ifndef HB_KERNEL_INTEGRITY_H
#define HB_KERNEL_INTEGRITY_H

#include <json-c/json.h>
#include <stddef.h>

enum integrity_level {
	INTEGRITY_QUICK, /* size and mtime; a file whose mtime differs is hashed */
	INTEGRITY_FULL,  /* every file hashed */
};

enum integrity_state {
	INTEGRITY_OK = 0,
	INTEGRITY_BAD = 1,       /* *why: one line naming the file and the mismatch */
	INTEGRITY_UNRECORDED = 2 /* the manifest predates the hashes (no "artifacts") */
};

struct integrity_stats {
	size_t files;
	size_t hashed_files;
	double hashed_bytes;
	double seconds;
};

/* The "artifacts" array of an entry folder (or its staging folder). NULL with *why when
 * a file cannot be read. */
json_object *integrity_record(const char *dir, char **why);
/* Checks dir against the artifacts of its manifest.json. stats may be NULL. */
enum integrity_state integrity_check(const char *dir, enum integrity_level level,
				     struct integrity_stats *stats, char **why);
/* For an entry whose manifest has no hashes: checks that bzImage and vmlinux are whole
 * (the bzImage header's payload size, the ELF's headers and segments within the file),
 * then adds the artifacts to its manifest. 0, or -1 with *why. Call with the slot lock. */
int integrity_upgrade(const char *dir, char **why);

#endif
