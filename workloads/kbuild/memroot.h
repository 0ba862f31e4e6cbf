/* hb-kbuild's in-memory build: nothing the timed make does waits on I/O.
 *
 * Why: under the icount clock with sleep=off, a vCPU that idles while a read or a FUSE
 * request is in flight jumps to its next timer, so each wait adds a host-dependent slice
 * of guest time (kbuild's wall cv was up to 26% under icount). Two kinds of wait: the
 * kernel tree's pages and inodes on the source disk (read once, they stay in the page
 * cache), and every open() of the toolchain over virtiofs (FUSE OPEN/FLUSH/RELEASE round
 * trips to virtiofsd, even with everything cached). So, once per boot and untimed:
 *  - the toolchain (the programs a kernel build runs, their libraries by the dynamic
 *    loader's own --list, gcc's private files, the host headers the prepared tools depend
 *    on) is copied into a tmpfs root, where the make runs chrooted;
 *  - the tree and the prepared objects are bound into that root at their own paths (so
 *    make sees the paths the host prepared with), with /dev, /proc and a tmpfs /tmp;
 *  - the tree's directories and inodes are walked and the files a build reads are read,
 *    so the timed make finds them in the page cache.
 * The programs are those a build of kernel/sched/ executed on Debian 12 (strace -f -e
 * execve), plus the binutils and shell tools other targets use: a missing one fails the
 * make loudly ("not found", exit 127), never silently. */
#ifndef HB_WORKLOADS_KBUILD_MEMROOT_H
#define HB_WORKLOADS_KBUILD_MEMROOT_H

/* Where the in-memory root is mounted in the guest. */
#define MEMROOT_DIR "/run/hb-kbuild-root"

/* Once per boot: fills MEMROOT_DIR, binds tree and obj (the objects make works in) into
 * it and warms the tree's page cache for the targets. Exits through helper_die on failure. */
void memroot_prepare(const char *tree, const char *obj, char **targets, int ntargets);
/* In the make's child, before exec: chroot into the root (0, or -1 with errno). */
int memroot_enter(void);

#endif
