/* Recording and checking the artifacts of a cache entry (integrity.h). */
#include "kernel/integrity.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/fileutil.h"
#include "common/hash.h"
#include "common/paths.h"
#include "common/progress.h"
#include "common/xalloc.h"

/* The top-level files an entry serves; modules/ is walked. A missing vmlinux or
 * modules/ is allowed (a build may keep neither), so only present ones are recorded. */
static const char *const top_files[] = { "bzImage", "vmlinux", "config", NULL };

static long long mtime_ns(const struct stat *st)
{
	return (long long)st->st_mtim.tv_sec * 1000000000LL + st->st_mtim.tv_nsec;
}

static int add_file(json_object *arr, const char *dir, const char *rel, char **why)
{
	char *path = hb_path_join(dir, rel);
	char hex[HB_SHA256_HEX];
	struct stat st;
	json_object *o;

	if (stat(path, &st) < 0 || hb_sha256_file(path, hex) < 0) {
		*why = xasprintf("cannot read %s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	o = json_object_new_object();
	json_object_object_add(o, "file", json_object_new_string(rel));
	json_object_object_add(o, "size", json_object_new_int64((int64_t)st.st_size));
	json_object_object_add(o, "mtime_ns", json_object_new_int64(mtime_ns(&st)));
	json_object_object_add(o, "sha256", json_object_new_string(hex));
	json_object_array_add(arr, o);
	free(path);
	return 0;
}

/* Regular files under dir/rel, recursively, in readdir order (the check looks each up
 * by name, so the order does not matter). Symbolic links are not followed. */
static int add_tree(json_object *arr, const char *dir, const char *rel, char **why)
{
	char *path = hb_path_join(dir, rel);
	DIR *d = opendir(path);
	struct dirent *e;
	int rc = 0;

	free(path);
	if (!d)
		return 0;
	while (rc == 0 && (e = readdir(d))) {
		char *sub;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		sub = xasprintf("%s/%s", rel, e->d_name);
		if (e->d_type == DT_DIR)
			rc = add_tree(arr, dir, sub, why);
		else if (e->d_type == DT_REG)
			rc = add_file(arr, dir, sub, why);
		free(sub);
	}
	closedir(d);
	return rc;
}

json_object *integrity_record(const char *dir, char **why)
{
	json_object *arr = json_object_new_array();
	int rc = 0;

	for (size_t i = 0; top_files[i] && rc == 0; i++) {
		char *path = hb_path_join(dir, top_files[i]);
		if (hb_is_file(path))
			rc = add_file(arr, dir, top_files[i], why);
		free(path);
	}
	if (rc == 0)
		rc = add_tree(arr, dir, "modules", why);
	if (rc < 0) {
		json_object_put(arr);
		return NULL;
	}
	return arr;
}

static int64_t int_field(json_object *o, const char *name)
{
	json_object *v;
	return json_object_object_get_ex(o, name, &v) ? json_object_get_int64(v) : -1;
}

static const char *str_field(json_object *o, const char *name)
{
	json_object *v;
	return json_object_object_get_ex(o, name, &v) && json_object_is_type(v, json_type_string)
		       ? json_object_get_string(v) : NULL;
}

/* One recorded artifact against the file: 0 good, else 1 with *why. */
static int check_one(const char *dir, json_object *a, enum integrity_level level,
		     struct integrity_stats *st, char **why)
{
	const char *rel = str_field(a, "file"), *want = str_field(a, "sha256");
	char *path = hb_path_join(dir, rel ? rel : "?");
	char hex[HB_SHA256_HEX];
	struct stat s;
	int rc = 1;

	if (!rel || !want || strstr(rel, ".."))
		*why = xasprintf("%s: the manifest's artifact entry is malformed", path);
	else if (stat(path, &s) < 0)
		*why = xasprintf("%s: %s", path, strerror(errno));
	else if ((int64_t)s.st_size != int_field(a, "size"))
		*why = xasprintf("%s is %lld bytes, the manifest says %lld", path,
				 (long long)s.st_size, (long long)int_field(a, "size"));
	else if (level == INTEGRITY_QUICK && mtime_ns(&s) == int_field(a, "mtime_ns"))
		rc = 0;
	else if (st->hashed_files++, st->hashed_bytes += (double)s.st_size,
		 hb_sha256_file(path, hex) < 0)
		*why = xasprintf("cannot read %s: %s", path, strerror(errno));
	else if (strcmp(hex, want))
		*why = xasprintf("%s has SHA-256 %.12s..., the manifest says %.12s...", path, hex, want);
	else
		rc = 0;
	free(path);
	return rc;
}

enum integrity_state integrity_check(const char *dir, enum integrity_level level,
				     struct integrity_stats *stats, char **why)
{
	char *mpath = hb_path_join(dir, "manifest.json");
	json_object *root = hb_json_from_file_nofollow(mpath), *arts;
	struct integrity_stats st = { 0 };
	double t0 = hb_now();
	enum integrity_state rc = INTEGRITY_OK;

	if (!root) {
		*why = xasprintf("%s is missing or not JSON", mpath);
		rc = INTEGRITY_BAD;
	} else if (!json_object_object_get_ex(root, "artifacts", &arts) ||
		   !json_object_is_type(arts, json_type_array)) {
		rc = INTEGRITY_UNRECORDED;
	} else {
		st.files = json_object_array_length(arts);
		for (size_t i = 0; i < st.files && rc == INTEGRITY_OK; i++)
			if (check_one(dir, json_object_array_get_idx(arts, i), level, &st, why))
				rc = INTEGRITY_BAD;
	}
	st.seconds = hb_now() - t0;
	if (stats)
		*stats = st;
	json_object_put(root);
	free(mpath);
	return rc;
}
