#include "common/install.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/paths.h"
#include "common/xalloc.h"

#ifndef HB_REL_DATA
#error "HB_REL_DATA must be defined by the build"
#endif
#ifndef HB_REL_LIBEXEC
#error "HB_REL_LIBEXEC must be defined by the build"
#endif

/* The folder of the running binary, resolved (no symlink left); NULL when unknown. */
static char *exe_dir(void)
{
	char *exe = realpath("/proc/self/exe", NULL), *slash;

	if (!exe)
		return NULL;
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	return exe;
}

/* dir/rel resolved, when it is a folder; else NULL. rel may be absolute (a datadir set
 * outside the prefix: then not relocatable, but still found). */
static char *resolve_under(const char *dir, const char *rel)
{
	char *joined = rel[0] == '/' ? xstrdup(rel) : hb_path_join(dir, rel);
	char *real = realpath(joined, NULL);

	free(joined);
	if (real && !hb_is_dir(real)) {
		free(real);
		return NULL;
	}
	return real;
}

/* The same folder as the build tree this binary was compiled in: then it is not installed. */
static bool is_build_tree(const char *dir)
{
	char *build = realpath(HB_BUILD_DIR, NULL);
	bool same = build && !strcmp(build, dir);

	free(build);
	return same;
}

/* Root builds kernels from the installed data and boots the installed programs: every
 * folder from path up to / must be root's or this user's and writable by no one else (a
 * sticky folder such as /tmp may be: no one can rename another's entry in it). 0, or -1
 * with *why naming the folder. */
static int check_trusted(const char *path, const char *what, char **why)
{
	char *p = xstrdup(path);

	for (;;) {
		struct stat st;
		char *slash;
		if (stat(p, &st) < 0) {
			*why = xasprintf("%s %s: %s", what, p, strerror(errno));
			break;
		}
		if ((st.st_uid != 0 && st.st_uid != geteuid()) ||
		    ((st.st_mode & 022) && !(st.st_mode & S_ISVTX))) {
			*why = xasprintf("%s %s: %s is writable by another user (owner uid %ld, mode %03o; "
					 "accepted: folders of root or uid %ld that no one else can write to)",
					 what, path, p, (long)st.st_uid, (unsigned)(st.st_mode & 0777),
					 (long)geteuid());
			break;
		}
		slash = strrchr(p, '/');
		if (!slash || slash == p) {
			free(p);
			return 0;
		}
		*slash = '\0';
	}
	free(p);
	return -1;
}

int hb_install_locate(char **why)
{
	char *bin = exe_dir(), *data = NULL, *libexec = NULL, *probe = NULL;
	int rc = 0;

	*why = NULL;
	if (!bin || is_build_tree(bin) || (getenv("HARDBENCH_SOURCE_DIR") && *getenv("HARDBENCH_SOURCE_DIR") &&
					   getenv("HARDBENCH_BUILD_DIR") && *getenv("HARDBENCH_BUILD_DIR")))
		goto out; /* a build tree, or both folders said */
	data = resolve_under(bin, HB_REL_DATA);
	libexec = resolve_under(bin, HB_REL_LIBEXEC);
	if (!data || !libexec)
		goto out;
	probe = hb_path_join(data, "kernel-configs");
	if (!hb_is_dir(probe))
		goto out;
	if (check_trusted(data, "installed data folder", why) < 0 ||
	    check_trusted(libexec, "installed libexec folder", why) < 0) {
		rc = -1;
		goto out;
	}
	setenv("HARDBENCH_SOURCE_DIR", data, 0);
	setenv("HARDBENCH_BUILD_DIR", libexec, 0);
out:
	free(probe);
	free(data);
	free(libexec);
	free(bin);
	return rc;
}
