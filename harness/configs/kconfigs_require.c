/* Names given on the command line -> variants and builds, with the one-line reason (the
 * known names) when a name is neither or its file is broken. */
#include "configs/kconfigs.h"
#include "configs/files.h"

#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/paths.h"
#include "configs/kline.h"
#include "common/xalloc.h"

/* "unknown variant 'x' (accepted: a, b)": the names of kind, for *why. */
static char *unknown_name(const char *what, const char *name, char **known)
{
	char *list = hb_join_names(known), *why;

	why = xasprintf("unknown %s '%s' (accepted: %s)", what, name, list);
	free(list);
	hb_free_strv(known);
	return why;
}

/* The build a loaded variant names: 0, or -1 with *why. */
static int check_variant_build(const char *name, const struct variant_def *v, char **why)
{
	struct build_def b;
	int rc = config_load_build(v->build, &b);
	char **builds;

	if (rc == 0) {
		build_def_free(&b);
		return 0;
	}
	if (rc != -1) {
		*why = xasprintf("variant '%s': build '%s' cannot be used until its file is fixed",
				 name, v->build);
		return -1;
	}
	builds = config_list_builds();
	char *list = hb_join_names(builds);
	*why = xasprintf("variant '%s' names unknown build '%s' (builds: %s)", name, v->build, list);
	free(list);
	hb_free_strv(builds);
	return -1;
}

int config_require_variant(const char *name, struct variant_def *out, char **why)
{
	int rc = config_load_variant(name, out);

	if (rc == -1)
		*why = unknown_name("variant", name, config_list_variants());
	else if (rc < 0)
		*why = xasprintf("variant '%s' cannot be used until its file is fixed", name);
	else if (check_variant_build(name, out, why) == 0)
		return 0;
	else
		variant_def_free(out);
	*out = (struct variant_def){ 0 };
	return -1;
}

/* Neither a build nor a variant: both lists, for *why. */
static char *unknown_build_or_variant(const char *name)
{
	char **variants = config_list_variants(), **builds = config_list_builds();
	char *vl = hb_join_names(variants), *bl = hb_join_names(builds);
	char *why = xasprintf("unknown variant or build '%s' (variants: %s; builds: %s)", name, vl, bl);

	free(vl);
	free(bl);
	hb_free_strv(variants);
	hb_free_strv(builds);
	return why;
}

char *config_require_build_name(const char *name, char **why)
{
	struct variant_def v;
	struct build_def b;
	char *build;
	int rc = config_load_build(name, &b);

	if (rc == 0) {
		build_def_free(&b);
		return xstrdup(name);
	}
	if (rc == -2) {
		*why = xasprintf("build '%s' cannot be used until its file is fixed", name);
		return NULL;
	}
	rc = config_load_variant(name, &v);
	if (rc == -2)
		*why = xasprintf("variant '%s' cannot be used until its file is fixed", name);
	else if (rc == -1)
		*why = unknown_build_or_variant(name);
	if (rc < 0)
		return NULL;
	variant_def_free(&v);
	/* The reason when the variant's file or its build is broken. */
	if (config_require_variant(name, &v, why) < 0)
		return NULL;
	build = xstrdup(v.build);
	variant_def_free(&v);
	return build;
}

/* The lines with a folder next to the build's patch_dir: "6.12" or "none". */
static char *lines_with_series(const char *patch_dir)
{
	char *parent = xstrndup(patch_dir, (size_t)(strrchr(patch_dir, '/') - patch_dir));
	char **lines = config_list_lines(), **have = xcalloc(hb_strv_len(lines) + 1, sizeof(char *));
	size_t n = 0;
	char *s;

	for (size_t i = 0; lines[i]; i++) {
		char *dir = hb_path_join(parent, lines[i]);
		if (hb_is_dir(dir))
			have[n++] = xstrdup(lines[i]);
		free(dir);
	}
	s = n ? hb_join_names(have) : xstrdup("none");
	hb_free_strv(have);
	hb_free_strv(lines);
	free(parent);
	return s;
}

int config_check_series(const struct build_def *b, char **why)
{
	char *have;

	if (!b->patch_dir || b->patches[0])
		return 0;
	have = lines_with_series(b->patch_dir);
	*why = xasprintf("build '%s' has no patch series for kernel line %s: %s %s (lines with a "
			 "series: %s)", b->name, b->line, b->patch_dir,
			 hb_is_dir(b->patch_dir) ? "has no *.patch files" : "does not exist", have);
	free(have);
	return -1;
}

int config_require_series(const char *build, const char *line, char **why)
{
	struct build_def b;
	int rc = 0;

	if (config_load_build_line(build, line, &b) == 0) {
		rc = config_check_series(&b, why);
		build_def_free(&b);
	}
	return rc;
}
