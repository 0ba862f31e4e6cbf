/* Out-of-tree kernel modules a build ships with its own: `modules = NAME...` in a
 * kernel-configs/builds/<name>.build names folders kernel-configs/modules/<NAME>/ (a Kbuild
 * and its sources). `harness build` compiles each one right after the kernel, in the same
 * work tree with the same make variables (so its vermagic matches), and installs the .ko
 * with the kernel's modules (lib/modules/<release>/extra/). The cache key covers every
 * source file, the entry's integrity manifest covers the .ko. */
#ifndef HB_CONFIGS_EXTMOD_H
#define HB_CONFIGS_EXTMOD_H

#include <stdbool.h>

#include "common/hash.h"

/* Bump when how modules are built or installed changes (what their entries hold): the
 * keys of builds with modules change, the others' do not. */
#define EXTMOD_RECIPE_VERSION 2
/* Where modules_install puts them, under lib/modules/<release>/ (INSTALL_MOD_DIR). */
#define EXTMOD_INSTALL_DIR "extra"

/* The modules= words of file (a .build) -> absolute kernel-configs/modules/<name> folders,
 * NULL-terminated (empty when words is NULL or blank). -2 after naming a bad or missing
 * one and what is accepted. */
int extmod_resolve(const char *file, const char *words, char ***out);
/* The module's name: the folder's last component (points into dir). */
const char *extmod_name(const char *dir);
/* The source files of a module folder, relative to it, sorted, recursive; kbuild outputs
 * (*.o, *.ko, .*.cmd, ...) left by a build in place are not sources and are skipped.
 * NULL-terminated (hb_free_strv). */
char **extmod_sources(const char *dir);
/* With modules: "extmod recipe <version>\n", then "module <name>/<file> <sha256>\n" for
 * each source of each module into h; nothing without. -1 after naming a file that cannot
 * be read. */
int extmod_key(struct hb_sha256 *h, char *const *modules);
/* Copies the sources of src into dst (created), where kbuild may write its outputs.
 * -1 with *why. */
int extmod_copy(const char *src, const char *dst, char **why);
/* Where a build compiles the module of dir: <work>/extmod/<name> (newly allocated). */
char *extmod_work_dir(const char *work, const char *dir);
/* kbuild's outputs, not sources: dot files, *.o, *.ko, *.mod, *.mod.c, modules.order,
 * Module.symvers. */
bool extmod_is_output(const char *name);

#endif
