/* From the ad-hoc options to a kernel-configs folder: names checked, series read and
 * checked against each line's source, files written (see adhoc.h). */
#include "adhoc/adhoc.h"
#include "adhoc/adhoc_int.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adhoc/gitrange.h"
#include "adhoc/gitref.h"
#include "adhoc/overlay.h"
#include "configs/series.h"
#include "adhoc/specs.h"
#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/hash.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/tmpdir.h"
#include "common/xalloc.h"
#include "configs/search_path.h"
#include "configs/kconfigs.h"
#include "configs/kline.h"

/* --patch-cmdline NAME=ARGS for patch name, "" when none. */
static char *extra_cmdline(const struct adhoc_cli *c, const char *name)
{
	char *joined = xstrdup("");

	for (size_t i = 0; c->patch_cmdlines && c->patch_cmdlines[i]; i++) {
		struct named_args a;
		char *why = NULL, *next;
		if (named_args_parse("--patch-cmdline", c->patch_cmdlines[i], false, &a, &why) < 0) {
			free(why); /* checked when parsed */
			continue;
		}
		if (!strcmp(a.name, name)) {
			next = xasprintf("%s%s%s", joined, *joined ? " " : "", a.args);
			free(joined);
			joined = next;
		}
		named_args_free(&a);
	}
	return joined;
}

/* "configs": the user folders on the search path (not the project's, not ours). */
static void note_user_folders(struct made *m, const char *ours)
{
	char **path = config_search_path();
	json_object *dirs = json_object_new_array();
	size_t n = hb_strv_len(path);

	for (size_t i = 0; i + 1 < n; i++)
		if (!ours || strcmp(path[i], ours))
			json_object_array_add(dirs, json_object_new_string(path[i]));
	if (json_object_array_length(dirs))
		json_object_object_add(m->record, "configs", dirs);
	else
		json_object_put(dirs);
	hb_free_strv(path);
}

static json_object *series_json(const struct series *s)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < s->n; i++) {
		json_object *p = json_object_new_object();
		char hex[HB_SHA256_HEX];
		hb_sha256_str(s->patches[i].text, hex);
		json_object_object_add(p, "file", json_object_new_string(s->patches[i].origin));
		json_object_object_add(p, "subject", json_object_new_string(s->patches[i].subject));
		json_object_object_add(p, "sha256", json_object_new_string(hex));
		json_object_array_add(a, p);
	}
	return a;
}

static int add_patch(const struct adhoc_cli *c, const char *value, char *const *lines,
		     char *const *sources, bool dry_run, adhoc_apply_check check, struct names *n,
		     struct overlay *o, struct made *m, char **why)
{
	struct patch_spec spec;
	struct series s;
	char *name, *extra;
	int rc;

	if (patch_spec_parse(value, &spec, why) < 0)
		return -1;
	if (series_load(spec.files, &s, why) < 0) {
		patch_spec_free(&spec);
		return -1;
	}
	name = spec.name ? xstrdup(spec.name) : series_name_from_subject(s.patches[0].subject);
	if (!spec.name)
		hb_info("--patch %s: build and variant '%s' (from the first subject; --patch "
			"NAME=FILE chooses another)", value, name);
	extra = extra_cmdline(c, name);
	rc = adhoc_claim(n, "--patch", name, why);
	if (rc == 0)
		rc = check ? check(&s, name, lines, sources, dry_run, why) : 0;
	if (rc == 0 && c->per_patch)
		rc = steps_add_patch_series(o, n, m, name, &s, lines, extra, why);
	else if (rc == 0)
		rc = overlay_add_patch_build(o, name, &s, lines, extra, why);
	if (rc == 0 && !c->per_patch) {
		hb_strv_push(&m->builds, xstrdup(name));
		hb_strv_push(&m->variants, xstrdup(name));
	}
	if (rc == 0) {
		hb_strv_push(&m->series, xstrdup(name));
		adhoc_note(m, "patches", name, series_json(&s));
	}
	free(extra);
	series_free(&s);
	patch_spec_free(&spec);
	free(name);
	return rc;
}

static int add_variant(const char *value, struct names *n, struct overlay *o, struct made *m,
		       char **why)
{
	struct named_args a;
	char *description;
	int rc;

	if (named_args_parse("--variant", value, true, &a, why) < 0)
		return -1;
	if (!hb_strv_contains(n->builds, a.build) && !hb_strv_contains(m->builds.v, a.build)) {
		char *known = hb_join_names(n->builds);
		*why = xasprintf("--variant %s: no build '%s' (accepted: %s, or a --patch NAME)", value,
				 a.build, known);
		free(known);
		named_args_free(&a);
		return -1;
	}
	description = xasprintf("--variant: build %s with '%s'", a.build, a.args);
	rc = adhoc_claim(n, "--variant", a.name, why);
	if (rc == 0)
		rc = overlay_add_variant(o, a.name, a.build, a.args, description, why);
	if (rc == 0) {
		json_object *e = json_object_new_object();
		json_object_object_add(e, "build", json_object_new_string(a.build));
		json_object_object_add(e, "cmdline", json_object_new_string(a.args));
		adhoc_note(m, "variants", a.name, e);
		hb_strv_push(&m->variants, xstrdup(a.name));
	}
	free(description);
	named_args_free(&a);
	return rc;
}

/* Every --patch-cmdline names a --patch. */
static int check_patch_cmdlines(const struct adhoc_cli *c, const struct made *m, char **why)
{
	for (size_t i = 0; c->patch_cmdlines && c->patch_cmdlines[i]; i++) {
		struct named_args a;
		int rc = named_args_parse("--patch-cmdline", c->patch_cmdlines[i], false, &a, why);
		if (rc == 0 && !hb_strv_contains(m->series.v, a.name)) {
			*why = xasprintf("--patch-cmdline %s: no --patch named '%s' (accepted: the NAME "
					 "of a --patch, or the name it printed)", c->patch_cmdlines[i], a.name);
			rc = -1;
		}
		named_args_free(&a);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static bool has_gitrefs(char *const *lines)
{
	for (size_t i = 0; lines && lines[i]; i++)
		if (gitref_is_spec(lines[i]))
			return true;
	return false;
}

static bool wants_folder(const struct adhoc_cli *c, char *const *lines)
{
	return hb_strv_len(c->patches) || hb_strv_len(c->variants) || has_gitrefs(lines);
}

/* One PATH@REF: its line's name, or NULL with *why. */
static char *add_commit(const struct adhoc_cli *c, const char *item, const char *cache,
			struct overlay *o, struct made *m, char **why)
{
	struct gitref g;
	char *name = NULL;

	if (gitref_resolve(item, &g, why) < 0)
		return NULL;
	hb_info("--kernels %s: commit %.12s as kernel line %s", item, g.commit, g.line);
	if (adhoc_add_commit_line(c, &g, cache, o, m, why) == 0)
		name = xstrdup(g.line);
	gitref_free(&g);
	return name;
}

/* Each PATH@REF of lines: exported, written as a line, its item replaced by the line's
 * name. expanded NULL: in place, and a range is refused; else the new list goes there,
 * each range as its lines. */
static int add_gitrefs(const struct adhoc_cli *c, char **lines, struct hb_strv *expanded,
		       struct overlay *o, struct made *m, char **why)
{
	char *cache = hb_cache_dir();
	int rc = 0;

	if (c->line_fragment && !has_gitrefs(lines)) {
		*why = xasprintf("--line-fragment %s: goes with --kernels PATH@REF (the project's lines "
				 "have their fragments)", c->line_fragment);
		rc = -1;
	}
	for (size_t i = 0; rc == 0 && lines && lines[i]; i++) {
		char *name;
		if (gitrange_is_spec(lines[i]) && !expanded) {
			*why = xasprintf("%s: a range of commits goes with harness run --kernels "
					 "(accepted here: PATH@REF)", lines[i]);
			rc = -1;
		} else if (gitrange_is_spec(lines[i])) {
			rc = steps_add_range(c, lines[i], cache, o, m, expanded, why);
		} else if (!gitref_is_spec(lines[i])) {
			if (expanded)
				hb_strv_push(expanded, xstrdup(lines[i]));
		} else if (!(name = add_commit(c, lines[i], cache, o, m, why))) {
			rc = -1;
		} else if (expanded) {
			hb_strv_push(expanded, name);
		} else {
			free(lines[i]);
			lines[i] = name;
		}
	}
	free(cache);
	return rc;
}

/* adhoc_prepare, with ranges when expanded is not NULL (adhoc_prepare_run). */
static int prepare(const struct adhoc_cli *c, char **lines, struct hb_strv *expanded,
		   char *const *sources, bool dry_run, adhoc_apply_check check, struct adhoc *out,
		   char **why)
{
	char *default_lines[] = { (char *)HB_DEFAULT_LINE, NULL };
	struct overlay o = { 0 };
	struct names n = { 0 };
	struct made m = { .record = json_object_new_object() };
	char **final;
	int rc = 0;

	*out = (struct adhoc){ 0 };
	hb_strv_push(&m.variants, NULL);
	hb_strv_push(&m.builds, NULL);
	hb_strv_push(&m.series, NULL);
	hb_strv_push(&m.said, NULL);
	m.variants.n = m.builds.n = m.series.n = m.said.n = 0;
	if (config_search_prepend(c->configs, why) < 0)
		rc = -1;
	if (rc == 0 && (wants_folder(c, lines) || c->line_fragment)) {
		n.builds = config_list_builds();
		n.variants = config_list_variants();
		rc = overlay_open(&o, why);
		if (rc == 0) /* first on the path: what it will hold is read from it */
			rc = config_search_prepend((char *[]){ o.dir, NULL }, why);
	}
	if (rc == 0)
		rc = add_gitrefs(c, lines, expanded, &o, &m, why);
	final = expanded && lines ? expanded->v : lines ? lines : default_lines;
	for (size_t i = 0; rc == 0 && c->patches && c->patches[i]; i++)
		rc = add_patch(c, c->patches[i], final, sources, dry_run, check, &n, &o, &m, why);
	for (size_t i = 0; rc == 0 && c->variants && c->variants[i]; i++)
		rc = add_variant(c->variants[i], &n, &o, &m, why);
	if (rc == 0)
		rc = check_patch_cmdlines(c, &m, why);
	if (rc == 0 && c->per_patch && !hb_strv_len(c->patches)) {
		*why = xstrdup("--per-patch: goes with --patch NAME=SERIES (accepted: both; a range of "
			       "commits, --kernels PATH@A..B, is measured step by step without it)");
		rc = -1;
	}
	hb_free_strv(n.builds);
	hb_free_strv(n.variants);
	hb_free_strv(n.taken.v);
	hb_free_strv(m.series.v);
	for (size_t i = 0; rc == 0 && i < m.said.n; i++) /* after every check: one line on error */
		hb_info("%s", m.said.v[i]);
	hb_free_strv(m.said.v);
	if (rc == 0)
		note_user_folders(&m, o.dir);
	*out = (struct adhoc){ .dir = o.dir, .variants = m.variants.v, .builds = m.builds.v,
			       .record = m.record };
	if (rc < 0)
		adhoc_free(out);
	return rc;
}

int adhoc_prepare(const struct adhoc_cli *c, char **lines, char *const *sources,
		  bool dry_run, adhoc_apply_check check, struct adhoc *out, char **why)
{
	return prepare(c, lines, NULL, sources, dry_run, check, out, why);
}

int adhoc_prepare_run(const struct adhoc_cli *c, char ***lines, char *const *sources,
		      bool dry_run, adhoc_apply_check check, struct adhoc *out, char **why)
{
	struct hb_strv expanded = { 0 };
	int rc;

	hb_strv_push(&expanded, NULL);
	expanded.n = 0;
	rc = prepare(c, *lines, &expanded, sources, dry_run, check, out, why);
	if (rc == 0 && *lines) {
		hb_free_strv(*lines);
		*lines = expanded.v;
	} else {
		hb_free_strv(expanded.v);
	}
	return rc;
}

void adhoc_free(struct adhoc *a)
{
	if (a->dir)
		hb_remove_tree(a->dir);
	free(a->dir);
	hb_free_strv(a->variants);
	hb_free_strv(a->builds);
	json_object_put(a->record);
	*a = (struct adhoc){ 0 };
}
