/* Least privilege for code from outside: a kernel build (a patch's Makefiles, --configs
 * modules), the series check's patch runs and gnuplot run as a uid no account owns when
 * the harness is root, with no supplementary groups and no_new_privs (no setuid program
 * gives root back). Only the folders they write are handed to that uid, and taken back
 * (chown to root, through descriptors, symlinks never followed) before root reads them.
 *
 * The uid is HARDBENCH_UNPRIV_UID, else HB_UNPRIV_ID_DEFAULT: above the 16-bit range
 * Debian's adduser allocates from and below 2^31, in none of systemd's ranges (dynamic
 * users, homed, containers). Its gid is the same number. It is refused when an account
 * owns it. Under sudo it is not the invoking user either: a patch's Makefile must not
 * act as them (their files, their other processes), and a uid of its own shares nothing
 * with anyone. */
#ifndef HB_COMMON_UNPRIV_H
#define HB_COMMON_UNPRIV_H

#include <stdbool.h>
#include <sys/types.h>

#define HB_UNPRIV_ID_DEFAULT 2147000000u

/* The ids such a program runs as: the uid above when the harness is root, else the
 * harness's own (nothing to drop). 0, or -1 with *why (a bad HARDBENCH_UNPRIV_UID, or one
 * an account owns). */
int hb_unpriv_ids(uid_t *uid, gid_t *gid, char **why);
/* Child side, last before exec: drops to those ids. 0 or an errno. */
int hb_drop_privileges(void);
/* Hands the folder name in dirfd (and every folder below it, not the files) to the
 * unprivileged uid, so that it can add and replace files there; a no-op when the
 * harness is not root. 0, or -1 with errno. */
int hb_unpriv_give_at(int dirfd, const char *name);
/* Takes name in dirfd back: everything below it the unprivileged uid owns becomes the
 * effective uid's (fchownat AT_SYMLINK_NOFOLLOW, walked through descriptors, never into
 * another file system), and set-id bits are cleared. 0, or -1 with errno. */
int hb_unpriv_take_back_at(int dirfd, const char *name);

#endif
