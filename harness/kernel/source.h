/* Kernel source trees: identity for the cache key, the shared read-only tree, and the
 * per-build hard-link copies that patches are applied to. */
#ifndef HB_KERNEL_SOURCE_H
#define HB_KERNEL_SOURCE_H

#include <stdbool.h>

#define KSOURCE_DEFAULT "/usr/src/linux-source-6.1.tar.xz"

struct ksource {
	char *path;      /* absolute path of the tarball or tree */
	bool is_tarball;
	char *identity;  /* tarball:<sha256> | git:<HEAD>:<sha256 of status+diff> | tree:<sha256> */
	char *label;     /* folder name for the extracted tree: <stem>-<12 hex> */
};

/* Identifies path (NULL: KSOURCE_DEFAULT). A tarball's hash is memoised in <cache>/src/ids
 * by path, size and mtime, so a cache hit does not reread 140 MB. -1 after printing why. */
int ksource_identify(const char *path, const char *cache, struct ksource *out);
/* The tree builds copy from: a tarball is extracted once into <cache>/src/<label> (under a
 * lock; read-only afterwards); a tree is used where it is. NULL after printing why. */
char *ksource_shared_tree(const struct ksource *s, const char *cache);
/* True when ksource_shared_tree() has nothing to do: a tree, or a tarball extracted
 * completely (the stamp written last, by the effective uid, names the tarball). */
bool ksource_tree_ready(const struct ksource *s, const char *cache);
/* Where ksource_shared_tree() puts or finds the tree, without creating it. */
char *ksource_shared_path(const struct ksource *s, const char *cache);
/* Copies tree into dest (which must not exist) as hard links when both are on one file
 * system, so the copy costs seconds and ccache sees identical files; directories of the
 * copy are made writable (they are not shared, files are). -1 after printing why. */
int ksource_copy(const char *tree, const char *dest);
/* The patch(1) command that applies one patch file (NULL: the patch on its standard
 * input) in a tree's top folder (hb_free_strv). */
char **ksource_patch_argv(const char *patch);
/* Applies each patch with GNU patch -p1 inside tree, output appended to log. GNU patch
 * writes a new file and renames it over the old one, so a hard-linked original is never
 * modified. -1 after printing which patch failed. */
int ksource_apply_patches(const char *tree, char *const *patches, const char *log);
/* The same, patch run as the unprivileged uid (common/unpriv.h) in tree, which must be
 * its to write (sandbox_give), each patch on its standard input. */
int ksource_apply_patches_unpriv(const char *tree, char *const *patches, const char *log);
/* chmod a-w on every file and directory under tree (symlinks untouched). */
int ksource_make_read_only(const char *tree);
void ksource_free(struct ksource *s);

#endif
