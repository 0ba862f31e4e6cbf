/* Out-of-tree modules of a build (extmod.h): naming, sources, key and copy. */
#include "configs/extmod.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "configs/files.h"

const char *extmod_name(const char *dir)
{
	const char *slash = strrchr(dir, '/');
	return slash ? slash + 1 : dir;
}

char *extmod_work_dir(const char *work, const char *dir)
{
	return xasprintf("%s/extmod/%s", work, extmod_name(dir));
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

bool extmod_is_output(const char *name)
{
	static const char *const suffixes[] = { ".o", ".ko", ".mod", ".mod.c", NULL };

	if (name[0] == '.' || !strcmp(name, "modules.order") || !strcmp(name, "Module.symvers"))
		return true;
	for (size_t i = 0; suffixes[i]; i++)
		if (ends_with(name, suffixes[i]))
			return true;
	return false;
}

static bool has_kbuild(const char *dir)
{
	char *kbuild = hb_path_join(dir, "Kbuild");
	char *makefile = hb_path_join(dir, "Makefile");
	bool yes = hb_is_file(kbuild) || hb_is_file(makefile);

	free(kbuild);
	free(makefile);
	return yes;
}

/* "a, b" of the folders under <configs>/modules/ that are modules, for error messages. */
static char *known_modules(const char *configs)
{
	char *root = hb_path_join(configs, "modules");
	DIR *d = opendir(root);
	struct dirent *e;
	struct hb_strv s = { 0 };
	char *joined;

	hb_strv_push(&s, NULL);
	s.n = 0;
	while (d && (e = readdir(d))) {
		char *path = hb_path_join(root, e->d_name);
		if (config_valid_name(e->d_name) && has_kbuild(path))
			hb_strv_push(&s, xstrdup(e->d_name));
		free(path);
	}
	if (d)
		closedir(d);
	hb_strv_sort(s.v, s.n);
	joined = hb_join_names(s.v);
	hb_free_strv(s.v);
	free(root);
	return joined;
}

int extmod_resolve(const char *file, const char *words, char ***out)
{
	char *dir = config_dir();
	char *copy = xstrdup(words ? words : ""), *save = NULL;
	struct hb_strv s = { 0 };
	int rc = 0;

	hb_strv_push(&s, NULL); /* an empty, NULL-terminated list */
	s.n = 0;
	for (char *w = strtok_r(copy, " \t,", &save); w && rc == 0; w = strtok_r(NULL, " \t,", &save)) {
		char *path = xasprintf("%s/modules/%s", dir, w);

		if (!config_valid_name(w) || !hb_is_dir(path) || !has_kbuild(path)) {
			char *known = known_modules(dir);
			hb_error("%s: module '%s' not found (accepted: %s; a module is a folder "
				 "kernel-configs/modules/<name>/ with a Kbuild or Makefile)",
				 file, w, *known ? known : "none exist");
			free(known);
			free(path);
			rc = -2;
		} else {
			hb_strv_push(&s, path);
		}
	}
	free(copy);
	free(dir);
	if (rc)
		hb_free_strv(s.v);
	else
		*out = s.v;
	return rc;
}

/* Source files under root/rel (rel "" for root itself) into s, as paths relative to root. */
static void walk(const char *root, const char *rel, struct hb_strv *s)
{
	char *path = *rel ? hb_path_join(root, rel) : xstrdup(root);
	DIR *d = opendir(path);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *sub;
		if (extmod_is_output(e->d_name))
			continue;
		sub = *rel ? hb_path_join(rel, e->d_name) : xstrdup(e->d_name);
		if (e->d_type == DT_DIR)
			walk(root, sub, s);
		if (e->d_type == DT_REG)
			hb_strv_push(s, sub);
		else
			free(sub);
	}
	if (d)
		closedir(d);
	free(path);
}

char **extmod_sources(const char *dir)
{
	struct hb_strv s = { 0 };

	hb_strv_push(&s, NULL);
	s.n = 0;
	walk(dir, "", &s);
	hb_strv_sort(s.v, s.n);
	return s.v;
}

int extmod_key(struct hb_sha256 *h, char *const *modules)
{
	int rc = 0;

	if (modules && modules[0]) {
		char *head = xasprintf("extmod recipe %d\n", EXTMOD_RECIPE_VERSION);
		hb_sha256_add_str(h, head);
		free(head);
	}

	for (size_t i = 0; rc == 0 && modules && modules[i]; i++) {
		char **files = extmod_sources(modules[i]);

		for (size_t j = 0; rc == 0 && files[j]; j++) {
			char *path = hb_path_join(modules[i], files[j]);
			char hex[HB_SHA256_HEX];

			if (hb_sha256_file(path, hex) < 0) {
				hb_error("cannot read %s: %s", path, strerror(errno));
				rc = -1;
			} else {
				char *line = xasprintf("module %s/%s %s\n", extmod_name(modules[i]),
						       files[j], hex);
				hb_sha256_add_str(h, line);
				free(line);
			}
			free(path);
		}
		hb_free_strv(files);
	}
	return rc;
}

/* Copies one file's content (not its mode: sources need none). */
static int copy_file(const char *from, const char *to, char **why)
{
	size_t len = 0;
	char *text = hb_read_file(from, &len);
	char *dir = xstrdup(to);
	int rc = -1;

	*strrchr(dir, '/') = '\0';
	if (!text)
		*why = xasprintf("cannot read %s: %s", from, strerror(errno));
	else if (hb_mkdir_p(dir, 0755) < 0 || hb_write_file_atomic(to, text, len) < 0)
		*why = xasprintf("cannot write %s: %s", to, strerror(errno));
	else
		rc = 0;
	free(text);
	free(dir);
	return rc;
}

int extmod_copy(const char *src, const char *dst, char **why)
{
	char **files = extmod_sources(src);
	int rc = 0;

	if (hb_mkdir_p(dst, 0755) < 0) {
		*why = xasprintf("cannot create %s: %s", dst, strerror(errno));
		rc = -1;
	}
	for (size_t i = 0; rc == 0 && files[i]; i++) {
		char *from = hb_path_join(src, files[i]);
		char *to = hb_path_join(dst, files[i]);

		rc = copy_file(from, to, why);
		free(from);
		free(to);
	}
	hb_free_strv(files);
	return rc;
}
