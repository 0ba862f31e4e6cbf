/* kernel-configs/ builds and variants: INI files read with inih. */
#include "configs/kconfigs.h"
#include "configs/extmod.h"
#include "configs/files.h"
#include "configs/kline.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"


static char *or_empty(char *s)
{
	return s ? s : xstrdup("");
}

static bool is_patch_file(const char *name)
{
	size_t n = strlen(name);
	return name[0] != '.' && n > 6 && !strcmp(name + n - 6, ".patch");
}

/* Sorted NULL-terminated list of dir's entries accepted by keep(), as dir/entry when
 * full_paths; an empty list when dir is missing. */
static char **list_dir(const char *dir, bool (*keep)(const char *), bool full_paths)
{
	DIR *d = opendir(dir);
	char **v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;

	while (d && (e = readdir(d))) {
		if (!keep(e->d_name))
			continue;
		v = xgrow(v, &cap, n + 2, sizeof(*v));
		v[n++] = full_paths ? hb_path_join(dir, e->d_name) : xstrdup(e->d_name);
	}
	if (d)
		closedir(d);
	v = xgrow(v, &cap, n + 1, sizeof(*v));
	v[n] = NULL;
	hb_strv_sort(v, n);
	return v;
}


static bool words_one(const char *s)
{
	return s && *s && !strpbrk(s, " \t");
}

/* base.config, then the line's fragments: what every build of the line starts from. */
static char **line_base(const struct line_def *l)
{
	char *dir = config_dir();
	char **v = xcalloc(hb_strv_len(l->fragments) + 2, sizeof(*v));
	size_t n = 0;

	v[n++] = hb_path_join(dir, "base.config");
	for (size_t i = 0; l->fragments[i]; i++)
		v[n++] = xstrdup(l->fragments[i]);
	free(dir);
	return v;
}

/* patches= folder -> the line's series in patches/<folder>/<line>/ (see kconfigs.h). */
static void set_patches(struct build_def *out, const char *folder, const char *line)
{
	char *dir = config_dir();

	if (folder && *folder) {
		out->patch_dir = xasprintf("%s/patches/%s/%s", dir, folder, line);
		out->patches = list_dir(out->patch_dir, is_patch_file, true);
	} else {
		out->patches = xcalloc(1, sizeof(char *));
	}
	free(dir);
}

int config_load_build_line(const char *name, const char *line, struct build_def *out)
{
	char *desc = NULL, *seed = NULL, *frags = NULL, *patches = NULL, *modules = NULL;
	struct ini_key keys[] = { { "description", &desc }, { "seed", &seed },
				  { "fragments", &frags }, { "patches", &patches },
				  { "modules", &modules }, { NULL, NULL } };
	struct ini_target t = { .section = "build", .keys = keys };
	struct line_def l = { 0 };
	char *path, **first = NULL;
	int rc;

	*out = (struct build_def){ 0 };
	if (!config_valid_name(name))
		return -1;
	line = line ? line : HB_DEFAULT_LINE;
	path = config_def_path("builds", name, ".build");
	rc = config_load_ini(path, &t);
	if (rc == 0 && patches && *patches && !(words_one(patches) && config_valid_name(patches))) {
		hb_error("%s: patches = '%s' is not one folder name under kernel-configs/patches/",
			 path, patches);
		rc = -2;
	}
	if (rc == 0 && config_load_line(line, &l) != 0) {
		hb_error("%s: kernel line '%s' has no readable kernel-configs/lines/%s.line", path, line, line);
		rc = -2;
	}
	if (rc == 0)
		rc = config_resolve_fragments(path, frags, first = line_base(&l), &out->fragments);
	if (rc == 0 && (rc = extmod_resolve(path, modules, &out->modules)) < 0) {
		hb_free_strv(out->fragments);
		out->fragments = NULL;
	}
	if (rc == 0) {
		out->name = xstrdup(name);
		out->line = xstrdup(line);
		out->description = or_empty(desc);
		out->seed = or_empty(seed);
		desc = seed = NULL;
		set_patches(out, patches, line);
	}
	hb_free_strv(first);
	line_def_free(&l);
	free(desc);
	free(seed);
	free(frags);
	free(patches);
	free(modules);
	free(path);
	return rc;
}

int config_load_build(const char *name, struct build_def *out)
{
	return config_load_build_line(name, NULL, out);
}

int config_load_variant(const char *name, struct variant_def *out)
{
	char *build = NULL, *cmdline = NULL, *desc = NULL, *seed = NULL, *dflt = NULL;
	struct ini_key keys[] = { { "build", &build }, { "cmdline", &cmdline },
				  { "description", &desc }, { "seed", &seed },
				  { "default_set", &dflt }, { NULL, NULL } };
	struct ini_target t = { .section = "variant", .keys = keys };
	char *path;
	int rc;

	if (!config_valid_name(name))
		return -1;
	path = config_def_path("variants", name, ".variant");
	rc = config_load_ini(path, &t);
	if (rc == 0 && !(words_one(build) && config_valid_name(build))) {
		hb_error("%s: build = '%s' is not a build name", path, build ? build : "");
		rc = -2;
	}
	if (rc == 0 && dflt && strcmp(dflt, "yes") && strcmp(dflt, "no")) {
		hb_error("%s: default_set = '%s' (accepted: yes or no)", path, dflt);
		rc = -2;
	}
	*out = (struct variant_def){ 0 };
	if (rc == 0) {
		*out = (struct variant_def){ .name = xstrdup(name), .build = build,
					     .cmdline = or_empty(cmdline), .description = or_empty(desc),
					     .seed = or_empty(seed),
					     .in_default_set = !dflt || !strcmp(dflt, "yes") };
		build = cmdline = desc = seed = NULL;
	}
	free(dflt);
	free(build);
	free(cmdline);
	free(desc);
	free(seed);
	free(path);
	return rc;
}

static bool ends_build(const char *n)
{
	size_t l = strlen(n);
	return n[0] != '.' && l > 6 && !strcmp(n + l - 6, ".build");
}

static bool ends_variant(const char *n)
{
	size_t l = strlen(n);
	return n[0] != '.' && l > 8 && !strcmp(n + l - 8, ".variant");
}

/* Names of folder/<name><suffix>, suffix stripped. */
static char **list_names(const char *folder, bool (*keep)(const char *), size_t suffix_len)
{
	char *dir = config_dir();
	char *sub = hb_path_join(dir, folder);
	char **v = list_dir(sub, keep, false);

	for (size_t i = 0; v[i]; i++)
		v[i][strlen(v[i]) - suffix_len] = '\0';
	/* Sorted again without the suffix: "kasan" before "kasan-vmalloc". */
	hb_strv_sort(v, hb_strv_len(v));
	free(sub);
	free(dir);
	return v;
}

char **config_list_builds(void) { return list_names("builds", ends_build, 6); }
char **config_list_variants(void) { return list_names("variants", ends_variant, 8); }

void build_def_free(struct build_def *b)
{
	free(b->name);
	free(b->line);
	free(b->description);
	free(b->seed);
	hb_free_strv(b->fragments);
	hb_free_strv(b->patches);
	free(b->patch_dir);
	hb_free_strv(b->modules);
	*b = (struct build_def){ 0 };
}

void variant_def_free(struct variant_def *v)
{
	free(v->name);
	free(v->build);
	free(v->cmdline);
	free(v->description);
	free(v->seed);
	*v = (struct variant_def){ 0 };
}
