/* A kernel build without root (common/unpriv.h): make, a series' patch runs and the
 * out-of-tree modules' make run as a uid no account owns, in a private mount namespace
 * that shows them the build's work folder at SANDBOX_WORK and the build ccache at
 * SANDBOX_CCACHE (the cache itself is usually under root's home, which no other uid may
 * enter). What they write is theirs only there: the source copy's folders, the objects,
 * the modules they install and the ccache; the build log is opened by root. Before root
 * reads anything back (the image, the config, the modules, a failure's log), the work
 * folder is taken back (common/unpriv.h: chown to root through descriptors, no symlink
 * followed) and the image, vmlinux and config are moved by descriptor, never through a
 * symlink the build left. When the harness is not root nothing changes: the build runs
 * as the user who runs it, in the cache's own paths. */
#ifndef HB_KERNEL_SANDBOX_H
#define HB_KERNEL_SANDBOX_H

#include <stdbool.h>

#define SANDBOX_WORK "/run/hardbench-build"
#define SANDBOX_CCACHE "/run/hardbench-ccache"
/* The build ccache in the kernel cache, the unprivileged uid's (root's own ccache is
 * not its to write). */
#define SANDBOX_CCACHE_DIR "ccache-unpriv"

struct build_sandbox {
	bool on;       /* the harness is root: builds drop to the unprivileged uid */
	char *work;    /* <cache>/work/<slot> */
	char *ccache;  /* <cache>/ccache-unpriv */
};

/* Fills b for a build in work (a folder of cache). With the harness as root, makes the
 * build ccache (owned by the unprivileged uid). 0, or -1 with *why. */
int sandbox_init(struct build_sandbox *b, const char *cache, const char *work, char **why);
void sandbox_free(struct build_sandbox *b);
/* host (a path under b->work) as the build sees it; a copy of host when off. */
char *sandbox_path(const struct build_sandbox *b, const char *host);
/* Hands rel (relative to b->work: "src", "extmod/x", "modules") to the unprivileged uid:
 * it and the folders below it. 0, or -1 with errno. A no-op when off. */
int sandbox_give(const struct build_sandbox *b, const char *rel);
/* Makes rel (a file, relative to b->work) and hands it to the unprivileged uid: the
 * ccache statistics log. */
int sandbox_give_file(const struct build_sandbox *b, const char *rel);
/* Takes the whole work folder back: root's again before root reads anything in it. */
int sandbox_take_back(const struct build_sandbox *b);
/* The spawn setup hook (ctx: the sandbox): the mount namespace, then the work folder's
 * src/ as the working directory. Runs before the drop to the unprivileged uid. */
int sandbox_enter(const void *ctx);

#endif
