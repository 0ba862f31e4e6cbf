/* kbuild's host-side files, made once and cached under <cache>/workloads/kbuild/:
 *   <label>.ext4            an ext4 image of the extracted source tree (label hbksrc)
 *   <label>-<config>.obj/   the O= directory after `make <config>` and `make prepare` on
 *                           the host
 * <label> is the source's identity (kernel/source.h), so another tarball or tree gets its
 * own files. The guest mounts the image over the tree's own path and a tmpfs copy of the
 * prepared directory over its own path: every path make sees is the one the host
 * prepared with, so make rebuilds only the timed targets, and no source is read over 9p
 * or virtiofs. */
#ifndef HB_WORKLOADS_KBUILD_FILES_H
#define HB_WORKLOADS_KBUILD_FILES_H

#include <stdbool.h>

/* The ext4 label hb-kbuild looks for among the guest's disks. */
#define KBUILD_DISK_LABEL "hbksrc"
/* Written last into a prepared directory: without it the directory is redone. */
#define KBUILD_PREPARED_MARK ".hb-prepared"

struct kbuild_files {
	char *source;     /* the tarball or tree the files come from (absolute) */
	char *tree;       /* where the extracted tree is (or will be) on the host */
	char *image;
	char *prepared;
	bool have_image;
	bool have_prepared;
};

/* Where the files of source (NULL: Debian's linux-source-6.1 tarball) for config are or
 * will be, without making anything. 0, or -1 after printing why. */
int kbuild_files_locate(const char *source, const char *config, struct kbuild_files *f);
/* Makes the missing ones (extracting a tarball first if needed), under a lock so that
 * parallel harness runs make them once. 0, or -1 after printing why. */
int kbuild_files_make(const char *config, struct kbuild_files *f);
void kbuild_files_free(struct kbuild_files *f);

#endif
