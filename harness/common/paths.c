#include "paths.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "log.h"
#include "xalloc.h"

#ifndef HB_SOURCE_DIR
#error "HB_SOURCE_DIR must be defined by the build"
#endif
#ifndef HB_BUILD_DIR
#error "HB_BUILD_DIR must be defined by the build"
#endif

static const char *env_or(const char *name, const char *fallback)
{
	const char *v = getenv(name);
	return v && *v ? v : fallback;
}

const char *hb_source_dir(void) { return env_or("HARDBENCH_SOURCE_DIR", HB_SOURCE_DIR); }
const char *hb_build_dir(void) { return env_or("HARDBENCH_BUILD_DIR", HB_BUILD_DIR); }

char *hb_cache_dir(void)
{
	const char *v = getenv("HARDBENCH_CACHE");
	char *dir;

	if (v && *v)
		dir = xstrdup(v);
	else if ((v = getenv("XDG_CACHE_HOME")) && *v)
		dir = xasprintf("%s/hardbench", v);
	else
		dir = xasprintf("%s/.cache/hardbench", env_or("HOME", "/tmp"));
	/* Best effort: whoever writes into it says so when it cannot be created (the kernel
	 * cache fails the build with the reason, the accel probe's cache warns). */
	hb_mkdir_p(dir, 0755);
	return dir;
}

char *hb_results_root(void)
{
	const char *v = getenv("HARDBENCH_RESULTS");
	return v && *v ? xstrdup(v) : hb_path_join(hb_source_dir(), "results");
}

char *hb_resolve_run_dir(const char *arg)
{
	char *root, *dir;

	if (hb_is_dir(arg) || strchr(arg, '/'))
		return xstrdup(arg);
	root = hb_results_root();
	dir = hb_path_join(root, arg);
	free(root);
	return dir;
}

char *hb_path_join(const char *a, const char *b)
{
	size_t la = strlen(a);
	if (b[0] == '/')
		return xstrdup(b);
	return xasprintf("%s%s%s", a, la && a[la - 1] == '/' ? "" : "/", b);
}

int hb_mkdir_p(const char *path, mode_t mode)
{
	char *p = xstrdup(path);

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, mode) < 0 && errno != EEXIST) {
			free(p);
			return -1;
		}
		*s = '/';
	}
	if (mkdir(p, mode) < 0 && errno != EEXIST) {
		free(p);
		return -1;
	}
	free(p);
	return hb_is_dir(path) ? 0 : (errno = ENOTDIR, -1);
}

bool hb_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool hb_is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static const char *const tarball_suffixes[] = { ".tar", ".tar.xz", ".tar.gz", ".tgz", ".tar.bz2",
						".tar.zst", NULL };

size_t hb_tarball_suffix_len(const char *path)
{
	size_t len = strlen(path);

	for (size_t i = 0; tarball_suffixes[i]; i++) {
		size_t sl = strlen(tarball_suffixes[i]);
		if (len > sl && !strcmp(path + len - sl, tarball_suffixes[i]))
			return sl;
	}
	return 0;
}
