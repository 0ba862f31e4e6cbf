/* Folders the harness writes in as root, resolved once with every component checked, then
 * used through the descriptor the walk returns (openat, mkdirat, renameat).
 *
 * The walk starts at "/" and opens one component at a time (O_PATH | O_NOFOLLOW), so
 * nothing is resolved twice and no symlink is followed unseen. It refuses:
 *   - a folder owned by anyone but root, the effective uid or the user sudo ran the
 *     harness for (SUDO_UID): its owner could rename what is below it at any time;
 *   - a folder group or others can write to, unless it has the sticky bit (/tmp: others
 *     may add names there but not rename or remove ours);
 *   - a symlink owned by such another user (one of a trusted owner is followed, and its
 *     target walked the same way).
 * The refusal is one line naming the component, its owner and mode. */
#ifndef HB_COMMON_SAFEPATH_H
#define HB_COMMON_SAFEPATH_H

#include <stdbool.h>
#include <sys/types.h>

enum {
	/* Make missing folders (mode 0755, owned by the effective uid). */
	HB_SAFE_CREATE = 1 << 0,
	/* The folder reached must also be the effective uid's, and only its to write to
	 * (what hb_check_own_dir always asked of --out and the cache). */
	HB_SAFE_OWN = 1 << 1,
	/* A missing component ends the walk early: the folders that exist are checked and
	 * the deepest one is returned (a dry run's check of a folder it would create). */
	HB_SAFE_STOP_MISSING = 1 << 2,
};

/* May uid own a folder on a path the harness writes through? Root, the effective uid and,
 * when the harness runs as root under sudo, SUDO_UID. */
bool hb_trusted_owner(uid_t uid);
/* The walk above: an O_RDONLY | O_DIRECTORY | O_CLOEXEC descriptor of the folder path
 * names (relative paths start at the current folder, itself walked from "/"), or -1 with
 * *why (malloc'd; "WHAT PATH: ..."). what names the option ("--out", "cache"). */
int hb_open_dir_checked(const char *path, const char *what, int flags, char **why);
/* For an output file: its folder walked as above (flags as above) and its last
 * component in *name (malloc'd; refused when empty, "." or ".."). */
int hb_open_parent_checked(const char *path, const char *what, int flags, char **name, char **why);

#endif
