/* Entries from before the hashes: their images are checked for being whole, then hashed
 * once into the manifest (integrity.h says why this rather than a rebuild). */
#include "kernel/integrity.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileutil.h"
#include "common/paths.h"
#include "common/xalloc.h"

/* n bytes at off, or -1 when the file is shorter. */
static int read_at(int fd, void *buf, size_t n, off_t off)
{
	return pread(fd, buf, n, off) == (ssize_t)n ? 0 : -1;
}

/* The boot protocol header (arch/x86/boot/tools/build.c): the file is the setup sectors
 * (setup_sects + 1 of 512 bytes) and syssize paragraphs of 16 bytes, CRC included. */
static int bzimage_whole(int fd, off_t size, const char *path, char **why)
{
	unsigned char hdr[0x210];
	uint32_t syssize;
	long long want;

	if (read_at(fd, hdr, sizeof(hdr), 0) < 0 || memcmp(hdr + 0x202, "HdrS", 4)) {
		*why = xasprintf("%s is not a bzImage (no HdrS header)", path);
		return -1;
	}
	memcpy(&syssize, hdr + 0x1f4, 4); /* little-endian, as is the host (x86) */
	want = ((long long)(hdr[0x1f1] ? hdr[0x1f1] : 4) + 1) * 512 + (long long)syssize * 16;
	if ((long long)size < want) {
		*why = xasprintf("%s is %lld bytes, its header says %lld (truncated)", path,
				 (long long)size, want);
		return -1;
	}
	return 0;
}

static int elf_whole(int fd, off_t size, const char *path, char **why)
{
	Elf64_Ehdr eh;
	unsigned long long end = 0;

	if (read_at(fd, &eh, sizeof(eh), 0) < 0 || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr)) {
		*why = xasprintf("%s is not a 64-bit ELF file", path);
		return -1;
	}
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;
		if (read_at(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (Elf64_Off)i * sizeof(ph))) < 0)
			break;
		if (ph.p_type == PT_LOAD && ph.p_offset + ph.p_filesz > end)
			end = ph.p_offset + ph.p_filesz;
	}
	if (eh.e_shoff + (unsigned long long)eh.e_shnum * eh.e_shentsize > end)
		end = eh.e_shoff + (unsigned long long)eh.e_shnum * eh.e_shentsize;
	if (eh.e_phoff + (unsigned long long)eh.e_phnum * sizeof(Elf64_Phdr) > end)
		end = eh.e_phoff + (unsigned long long)eh.e_phnum * sizeof(Elf64_Phdr);
	if (end > (unsigned long long)size) {
		*why = xasprintf("%s is %lld bytes, its ELF headers reach %llu (truncated)", path,
				 (long long)size, end);
		return -1;
	}
	return 0;
}

static int image_whole(const char *dir, const char *name, bool elf, char **why)
{
	char *path = hb_path_join(dir, name);
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), rc = 0;
	struct stat st;

	if (fd < 0) {
		if (errno != ENOENT || !elf) /* vmlinux may be absent; bzImage may not */
			rc = -1, *why = xasprintf("%s: %s", path, strerror(errno));
	} else {
		rc = fstat(fd, &st) < 0 ? -1
		     : elf ? elf_whole(fd, st.st_size, path, why)
			   : bzimage_whole(fd, st.st_size, path, why);
		if (rc < 0 && !*why)
			*why = xasprintf("%s: %s", path, strerror(errno));
		close(fd);
	}
	free(path);
	return rc;
}

int integrity_upgrade(const char *dir, char **why)
{
	char *mpath = hb_path_join(dir, "manifest.json");
	json_object *root = NULL, *arts;
	const char *text;
	int rc = -1;

	*why = NULL;
	if (image_whole(dir, "bzImage", false, why) < 0 || image_whole(dir, "vmlinux", true, why) < 0)
		goto out;
	if (!(root = hb_json_from_file_nofollow(mpath))) {
		*why = xasprintf("%s is missing or not JSON", mpath);
		goto out;
	}
	if (!(arts = integrity_record(dir, why)))
		goto out;
	json_object_object_add(root, "artifacts", arts);
	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
						    JSON_C_TO_STRING_NOSLASHESCAPE);
	rc = hb_write_file_atomic(mpath, text, strlen(text));
	if (rc < 0)
		*why = xasprintf("cannot write %s: %s", mpath, strerror(errno));
out:
	json_object_put(root);
	free(mpath);
	return rc;
}
