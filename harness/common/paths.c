#include "paths.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "safepath.h"
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

/* Where the cache is, or NULL when nothing says (no HOME: a systemd unit without User=).
 * Never /tmp: another user could make the folder first and own what root builds in it. */
static char *cache_location(void)
{
	const char *v;

	if ((v = getenv("HARDBENCH_CACHE")) && *v)
		return xstrdup(v);
	if ((v = getenv("XDG_CACHE_HOME")) && *v)
		return xasprintf("%s/hardbench", v);
	if ((v = getenv("HOME")) && *v)
		return xasprintf("%s/.cache/hardbench", v);
	return NULL;
}

int hb_check_own_dir(const char *path, const char *what, char **why)
{
	/* Every component from "/", not just the last (common/safepath.h). */
	int fd = hb_open_dir_checked(path, what, HB_SAFE_OWN, why);

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

int hb_check_out_dir(const char *path, const char *what, char **why)
{
	struct stat st;
	int fd;

	if (lstat(path, &st) == 0)
		return hb_check_own_dir(path, what, why);
	/* Not made yet: the folders that exist on the way must already be safe. */
	if ((fd = hb_open_dir_checked(path, what, HB_SAFE_STOP_MISSING, why)) < 0)
		return -1;
	close(fd);
	return 0;
}

int hb_cache_check(char **why)
{
	char *dir = cache_location(), *inner = NULL;
	int rc;

	if (!dir) {
		*why = xasprintf("no cache folder: HOME is not set; set HARDBENCH_CACHE to a folder of "
				 "uid %ld that only it can write to", (long)geteuid());
		return -1;
	}
	rc = hb_open_dir_checked(dir, "cache", HB_SAFE_CREATE | HB_SAFE_OWN, &inner);
	if (rc < 0) {
		*why = xasprintf("%s (HARDBENCH_CACHE moves it)", inner);
		free(inner);
	} else {
		close(rc);
		rc = 0;
	}
	free(dir);
	return rc;
}

char *hb_cache_dir(void)
{
	char *dir = cache_location();

	/* The commands that use the cache ran hb_cache_check first (main.c). */
	if (!dir)
		hb_fatal("no cache folder: HOME is not set; set HARDBENCH_CACHE");
	/* Best effort: whoever writes into it says so when it cannot be created (the kernel
	 * cache fails the build with the reason, the accel probe's cache warns). */
	hb_mkdir_p(dir, 0755);
	return dir;
}

char *hb_cache_file(const char *name)
{
	char *dir = hb_cache_dir(), *path = hb_path_join(dir, name);

	free(dir);
	return path;
}

char *hb_results_root(void)
{
	const char *v = getenv("HARDBENCH_RESULTS");
	char *cwd, *root;

	if (v && *v)
		return xstrdup(v);
	/* results/ of the folder the command runs in, never the install or the source tree */
	cwd = get_current_dir_name();
	root = cwd ? hb_path_join(cwd, "results") : xstrdup("results");
	free(cwd);
	return root;
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
