#include "kernel/manifest.h"

#include <errno.h>
#include <json-c/json.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernel/cachekey.h"
#include "configs/extmod.h"
#include "kernel/integrity.h"
#include "common/argparse.h"
#include "common/hash.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"

/* [{"file": name, "sha256": hex}, ...] of a list of paths. */
static json_object *file_hashes(char *const *paths)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; paths && paths[i]; i++) {
		json_object *o = json_object_new_object();
		char *copy = xstrdup(paths[i]);
		char hex[HB_SHA256_HEX];

		if (hb_sha256_file(paths[i], hex) < 0)
			snprintf(hex, sizeof(hex), "unreadable");
		json_object_object_add(o, "file", json_object_new_string(basename(copy)));
		json_object_object_add(o, "path", json_object_new_string(paths[i]));
		json_object_object_add(o, "sha256", json_object_new_string(hex));
		json_object_array_add(arr, o);
		free(copy);
	}
	return arr;
}

/* [{"name": n, "path": folder, "files": [...]}, ...] of the build's out-of-tree modules:
 * what the key covered. */
static json_object *module_hashes(char *const *modules)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; modules && modules[i]; i++) {
		json_object *o = json_object_new_object();
		char **rel = extmod_sources(modules[i]);
		char **abs = xcalloc(hb_strv_len(rel) + 1, sizeof(*abs));

		for (size_t j = 0; rel[j]; j++)
			abs[j] = hb_path_join(modules[i], rel[j]);
		json_object_object_add(o, "name", json_object_new_string(extmod_name(modules[i])));
		json_object_object_add(o, "path", json_object_new_string(modules[i]));
		json_object_object_add(o, "files", file_hashes(abs));
		json_object_array_add(arr, o);
		hb_free_strv(abs);
		hb_free_strv(rel);
	}
	return arr;
}

static json_object *options_object(const struct kopt_list *opts)
{
	json_object *o = json_object_new_object();

	for (size_t i = 0; opts && i < opts->n; i++)
		json_object_object_add(o, opts->v[i].name, json_object_new_string(opts->v[i].value));
	return o;
}

static json_object *stats_object(const struct build_stats *s)
{
	json_object *o = json_object_new_object();
	json_object *t = json_object_new_object();

	json_object_object_add(t, "total", json_object_new_double(s->seconds_total));
	json_object_object_add(t, "prepare", json_object_new_double(s->seconds_prepare));
	json_object_object_add(t, "configure", json_object_new_double(s->seconds_configure));
	json_object_object_add(t, "compile", json_object_new_double(s->seconds_compile));
	json_object_object_add(t, "modules_install", json_object_new_double(s->seconds_install));
	json_object_object_add(t, "external_modules", json_object_new_double(s->seconds_modules));
	json_object_object_add(o, "seconds", t);
	json_object_object_add(o, "cpu_seconds", json_object_new_double(s->cpu_seconds));
	json_object_object_add(o, "compiles", json_object_new_int64((int64_t)s->compiles));
	json_object_object_add(o, "jobs", json_object_new_int(s->jobs));
	if (s->ccache_used) {
		json_object *c = json_object_new_object();
		json_object_object_add(c, "hits", json_object_new_int64(s->ccache_hits));
		json_object_object_add(c, "misses", json_object_new_int64(s->ccache_misses));
		if (s->ccache_hits >= 0 && s->ccache_hits + s->ccache_misses > 0)
			json_object_object_add(c, "hit_rate", json_object_new_double(
				(double)s->ccache_hits / (double)(s->ccache_hits + s->ccache_misses)));
		json_object_object_add(o, "ccache", c);
	} else {
		json_object_object_add(o, "ccache", NULL);
	}
	return o;
}

static char *utc_now(void)
{
	char buf[32];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return xstrdup(buf);
}

int manifest_write(const char *dir, const struct manifest_in *m)
{
	json_object *root = json_object_new_object();
	json_object *src = json_object_new_object(), *arts;
	char *why = NULL;
	char *path = hb_path_join(dir, "manifest.json");
	char *created = utc_now();
	const char *text;
	int rc;

	json_object_object_add(root, "recipe_version", json_object_new_int(KBUILD_RECIPE_VERSION));
	json_object_object_add(root, "build", json_object_new_string(m->build->name));
	json_object_object_add(root, "description", json_object_new_string(m->build->description));
	json_object_object_add(root, "seed", json_object_new_string(m->build->seed));
	json_object_object_add(root, "key", json_object_new_string(m->key));
	json_object_object_add(root, "release", json_object_new_string(m->release));
	json_object_object_add(root, "created", json_object_new_string(created));
	json_object_object_add(src, "path", json_object_new_string(m->source_path));
	json_object_object_add(src, "identity", json_object_new_string(m->source_identity));
	json_object_object_add(root, "source", src);
	json_object_object_add(root, "compiler", json_object_new_string(m->compiler));
	json_object_object_add(root, "fragments", file_hashes(m->build->fragments));
	json_object_object_add(root, "patches", file_hashes(m->build->patches));
	json_object_object_add(root, "modules", module_hashes(m->build->modules));
	json_object_object_add(root, "options", options_object(m->options));
	json_object_object_add(root, "stats", stats_object(m->stats));
	/* Last, with every artifact in place: what a use of the entry checks (integrity.h). */
	if (!(arts = integrity_record(dir, &why))) {
		hb_error("%s", why);
		free(why);
		json_object_put(root);
		free(created);
		free(path);
		return -1;
	}
	json_object_object_add(root, "artifacts", arts);
	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);
	rc = hb_write_file_atomic(path, text, strlen(text));
	if (rc < 0)
		hb_error("cannot write %s: %s", path, strerror(errno));
	json_object_put(root);
	free(created);
	free(path);
	return rc;
}

static char *string_field(json_object *root, const char *name)
{
	json_object *v;
	return json_object_object_get_ex(root, name, &v) && json_object_is_type(v, json_type_string)
		       ? xstrdup(json_object_get_string(v)) : NULL;
}

int manifest_read(const char *dir, struct manifest_info *out)
{
	char *path = hb_path_join(dir, "manifest.json");
	json_object *root = hb_json_from_file_nofollow(path);
	json_object *stats, *v;

	free(path);
	*out = (struct manifest_info){ 0 };
	if (!root)
		return -1;
	out->key = string_field(root, "key");
	out->release = string_field(root, "release");
	if (json_object_object_get_ex(root, "stats", &stats)) {
		if (json_object_object_get_ex(stats, "compiles", &v))
			out->compiles = (size_t)json_object_get_int64(v);
		if (json_object_object_get_ex(stats, "seconds", &v) &&
		    json_object_object_get_ex(v, "total", &v))
			out->seconds_total = json_object_get_double(v);
	}
	json_object_put(root);
	if (!out->key || !out->release) {
		manifest_info_free(out);
		return -1;
	}
	return 0;
}

void manifest_info_free(struct manifest_info *m)
{
	free(m->key);
	free(m->release);
	*m = (struct manifest_info){ 0 };
}
