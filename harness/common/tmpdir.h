/* Per-boot temporary folders that name their owner, so a later harness can remove the
 * ones a killed process (kill -9) left behind. They live in a folder only the effective
 * uid can write to, never in /tmp: another local user can neither plant a folder for the
 * cleanup to walk nor swap anything inside one. */
#ifndef HB_COMMON_TMPDIR_H
#define HB_COMMON_TMPDIR_H

/* $XDG_RUNTIME_DIR/hardbench when XDG_RUNTIME_DIR is set and is the effective uid's (not
 * group- or world-writable), else /run/hardbench. */
char *hb_tmp_root(void);
/* The root above, made when missing and checked as hb_mkdtemp_owned does: an O_DIRECTORY
 * descriptor, or -1 with *why (malloc'd). */
int hb_open_tmp_root(char **why);
/* mkdtemp("<root>/<prefix>XXXXXX") with an OWNER file holding "<pid> <start time>" (the
 * start time from /proc/<pid>/stat tells a reused pid apart). The root is made mode 0700
 * and refused (with an error line) when it is not the effective uid's or others can
 * write to it. NULL with errno set. */
char *hb_mkdtemp_owned(const char *prefix);
/* Removes <root>/<prefix>* folders whose OWNER process is gone, and only those owned by
 * the effective uid with mode 0700 (checked without following symlinks); folders without
 * an OWNER file (being created, or from older versions) are left alone. Deletes through
 * directory file descriptors, never crossing into another file system. Returns how many
 * were removed. */
int hb_clean_stale_tmp(const char *prefix);
/* The prefixes of the folders a boot creates and removes itself: safe to clean. */
#define HB_TMP_VM "hardbench-vm-"
#define HB_TMP_PROBE "hardbench-kvm-probe-"
/* The kernel-configs folder of --patch and --variant, and the scratch copies that check
 * a series applies (adhoc/). */
#define HB_TMP_CONFIGS "hardbench-configs-"
/* All of the above, with one hb_info line when something was removed. */
void hb_clean_stale_vm_tmp(void);

#endif
