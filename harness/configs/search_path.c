#include "configs/search_path.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "configs/files.h"

char *config_dir(void)
{
	char *dir = hb_path_join(hb_source_dir(), "kernel-configs");
	char *abs = realpath(dir, NULL);

	/* Absolute, because the build runs merge_config.sh from inside the source copy. */
	if (abs) {
		free(dir);
		return abs;
	}
	return dir;
}

char **config_search_path(void)
{
	const char *env = getenv(CONFIGS_PATH_ENV);
	char *copy = xstrdup(env ? env : ""), *save = NULL, *project = config_dir();
	struct hb_strv v = { 0 };

	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char *abs = realpath(d, NULL);
		/* Absolute, because the build runs merge_config.sh from inside the source copy. */
		if (!abs)
			abs = xstrdup(d);
		if (strcmp(abs, project) && !hb_strv_contains(v.v, abs))
			hb_strv_push(&v, abs);
		else
			free(abs);
	}
	hb_strv_push(&v, project);
	free(copy);
	return v.v;
}

static bool exists(const char *path)
{
	return hb_is_file(path) || hb_is_dir(path);
}

char *config_find(const char *sub, const char *name, const char *suffix, char **from)
{
	char **dirs = config_search_path(), *found = NULL;

	for (size_t i = 0; dirs[i] && !found; i++) {
		char *path = xasprintf("%s/%s/%s%s", dirs[i], sub, name, suffix);
		if (exists(path)) {
			found = path;
			if (from)
				*from = xstrdup(dirs[i]);
		} else {
			free(path);
		}
	}
	hb_free_strv(dirs);
	return found;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool has_suffix(const char *name, const char *suffix)
{
	size_t n = strlen(name), s = strlen(suffix);
	return name[0] != '.' && n > s && !strcmp(name + n - s, suffix);
}

char **config_list_all(const char *sub, const char *suffix)
{
	char **dirs = config_search_path();
	struct hb_strv v = { 0 };

	hb_strv_push(&v, NULL);
	v.n = 0;
	for (size_t i = 0; dirs[i]; i++) {
		char *path = hb_path_join(dirs[i], sub);
		DIR *d = opendir(path);
		struct dirent *e;
		while (d && (e = readdir(d))) {
			char *name;
			if (!has_suffix(e->d_name, suffix))
				continue;
			name = xstrndup(e->d_name, strlen(e->d_name) - strlen(suffix));
			if (hb_strv_contains(v.v, name))
				free(name);
			else
				hb_strv_push(&v, name);
		}
		if (d)
			closedir(d);
		free(path);
	}
	hb_free_strv(dirs);
	qsort(v.v, v.n, sizeof(char *), compare_strings);
	return v.v;
}

int config_check_shadow(const char *path, const char *from, const char *sub, const char *name,
			const char *suffix, const char *overrides)
{
	char **dirs = config_search_path();
	char *other = NULL;
	bool after = false;
	int rc = 0;

	if (overrides && strcmp(overrides, "yes") && strcmp(overrides, "no")) {
		hb_error("%s: overrides = '%s' (accepted: yes or no)", path, overrides);
		hb_free_strv(dirs);
		return -2;
	}
	for (size_t i = 0; dirs[i] && !other; i++) {
		char *candidate = xasprintf("%s/%s/%s%s", dirs[i], sub, name, suffix);
		if (after && exists(candidate))
			other = candidate;
		else
			free(candidate);
		after |= !strcmp(dirs[i], from);
	}
	if (other && !(overrides && !strcmp(overrides, "yes"))) {
		hb_error("%s: has the name of %s (accepted: another name, or 'overrides = yes' in "
			 "this file to replace it)", path, other);
		rc = -2;
	}
	free(other);
	hb_free_strv(dirs);
	return rc;
}

char *config_origin_label(const char *from)
{
	char *project = config_dir();
	char *label = !from || !strcmp(from, project) ? xstrdup("project") : xstrdup(from);

	free(project);
	return label;
}

int config_search_prepend(char *const *dirs, char **why)
{
	const char *old = getenv(CONFIGS_PATH_ENV);
	char *path = xstrdup(old ? old : "");

	for (size_t i = hb_strv_len(dirs); i-- > 0; ) {
		char *abs = realpath(dirs[i], NULL), *next;
		if (!abs || !hb_is_dir(abs)) {
			*why = xasprintf("--configs %s: not a folder", dirs[i]);
			free(abs);
			free(path);
			return -1;
		}
		next = xasprintf("%s%s%s", abs, *path ? ":" : "", path);
		free(abs);
		free(path);
		path = next;
	}
	setenv(CONFIGS_PATH_ENV, path, 1);
	free(path);
	return 0;
}

int config_check_dir_option(void *base, const char *value, char **why)
{
	(void)base;
	if (hb_is_dir(value))
		return 0;
	*why = xasprintf("--configs %s: not a folder (accepted: a folder laid out like "
			 "kernel-configs/: builds/, variants/, fragments/, patches/, modules/, lines/)",
			 value);
	return -1;
}
