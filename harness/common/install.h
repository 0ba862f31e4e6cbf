/* An installed harness finds its files from where its binary is (/proc/self/exe), so a
 * prefix moved as a whole still works: <prefix>/bin/harness reads kernel-configs/,
 * workloads/ and plots/ from <prefix>/share/hardbench and boots the guest init and the
 * workload helpers of <prefix>/libexec/hardbench (the build's relative paths,
 * HB_REL_DATA and HB_REL_LIBEXEC). A binary run from its build tree uses that tree and
 * its source, as compiled in (common/paths.h). */
#ifndef HB_COMMON_INSTALL_H
#define HB_COMMON_INSTALL_H

/* When this binary is an installed one and HARDBENCH_SOURCE_DIR / HARDBENCH_BUILD_DIR are
 * not set, sets them to its data and libexec folders, which every later path (and every
 * harness this one starts) then reads. 0: done, or nothing to do (a build tree); -1 with
 * *why when the installed folders are unsafe to build and boot from (another user could
 * write them). */
int hb_install_locate(char **why);

#endif
