/* Where things live. Each location can be moved with an environment variable so tests
 * and CI can point the harness at scratch directories. */
#ifndef HB_COMMON_PATHS_H
#define HB_COMMON_PATHS_H

#include <stdbool.h>
#include <sys/types.h>

/* The project tree (kernel-configs/, workloads/, ci/). HARDBENCH_SOURCE_DIR overrides. */
const char *hb_source_dir(void);
/* The Meson build tree (guest init and workload helpers). HARDBENCH_BUILD_DIR overrides. */
const char *hb_build_dir(void);
/* Kernel builds, extracted sources, accel probe: HARDBENCH_CACHE, else
 * $XDG_CACHE_HOME/hardbench, else $HOME/.cache/hardbench; never /tmp. Created on first
 * use; aborts when none is set (hb_cache_check says so first). */
char *hb_cache_dir(void);
/* hb_cache_dir()/name: a file of the cache's own (accel probe, TSC rate, pace). */
char *hb_cache_file(const char *name);
/* Creates the cache folder and checks it is the effective uid's and not group- or
 * world-writable (root builds and runs make in it). 0, or -1 with *why (one line naming
 * HARDBENCH_CACHE). */
int hb_cache_check(char **why);
/* 0 when path is a folder of the effective uid that no one else can write to, reached
 * through folders and symlinks no other user can change (common/safepath.h walks every
 * component), else -1 with *why naming what (e.g. "--out"), the component and its owner. */
int hb_check_own_dir(const char *path, const char *what, char **why);
/* For an output folder: hb_check_own_dir when path exists, else the folders of path that
 * exist are walked the same way (the rest is made later, through them). */
int hb_check_out_dir(const char *path, const char *what, char **why);
/* Default parent of result sets: HARDBENCH_RESULTS, else results/ of the current folder. */
char *hb_results_root(void);
/* A run argument: an existing path, else a name under hb_results_root(). */
char *hb_resolve_run_dir(const char *arg);

char *hb_path_join(const char *a, const char *b);
int hb_mkdir_p(const char *path, mode_t mode);
bool hb_is_dir(const char *path);
bool hb_is_file(const char *path);

/* The length of path's tarball suffix, one tar can read (.tar, .tar.xz, .tar.gz, .tgz,
 * .tar.bz2, .tar.zst); 0 when it has none. */
size_t hb_tarball_suffix_len(const char *path);

#endif
