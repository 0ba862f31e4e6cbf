/* Temporary folders under /tmp that name their owner, so a later harness can remove the
 * ones a killed process (kill -9) left behind. */
#ifndef HB_COMMON_TMPDIR_H
#define HB_COMMON_TMPDIR_H

/* mkdtemp("/tmp/<prefix>XXXXXX") with an OWNER file holding "<pid> <start time>" (the
 * start time from /proc/<pid>/stat tells a reused pid apart). NULL with errno set. */
char *hb_mkdtemp_owned(const char *prefix);
/* Removes /tmp/<prefix>* folders whose OWNER process is gone; folders without an OWNER
 * file (being created, or from older versions) are left alone. Returns how many were
 * removed. Never crosses into another file system. */
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
