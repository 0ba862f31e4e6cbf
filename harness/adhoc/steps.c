/* Series measured step by step (adhoc_int.h): --patch NAME=SERIES --per-patch makes a
 * build and variant per prefix of the series, NAME.1 = base + patch 1, ..., NAME.N = base
 * + the whole series; --kernels PATH@A..B makes a line per commit (gitrange.h). Both go
 * in the same interleaved rounds as everything else, and each leaves meta.json
 * own_change.per_patch[<series>] for the report:
 *   {"kind": "patch" | "commit", "tree" (commit),
 *    "base": {"variant"} | {"line", "commit"},           step 0
 *    "steps": [{"step", "of", "subject", "variant"} | {..., "line", "commit"}]}
 * A step's own cost is then its cells against the step before it's, round by round.
 * The cache key is the content, so a prefix built before (by anyone) costs nothing, and
 * the last step is the cache entry of the whole series. */
#include "adhoc/adhoc_int.h"

#include <stdlib.h>
#include <string.h>

#include "adhoc/gitrange.h"
#include "common/json.h"
#include "common/xalloc.h"

/* The variant step 0 of a --patch series is when it has no command line of its own. */
#define BASE_VARIANT "baseline"

static json_object *step_json(size_t k, size_t of, const char *subject)
{
	json_object *e = json_object_new_object();

	json_object_object_add(e, "step", json_object_new_int64((int64_t)k));
	json_object_object_add(e, "of", json_object_new_int64((int64_t)of));
	json_object_object_add(e, "subject", json_object_new_string(subject));
	return e;
}

static void add_str(json_object *o, const char *key, const char *value)
{
	json_object_object_add(o, key, json_object_new_string(value));
}

/* Step 0: baseline, or NAME.0 (base with the series' --patch-cmdline) so that each step
 * differs from the one before it by one patch and nothing else. */
static char *add_step0(struct overlay *o, struct names *n, struct made *m, const char *name,
		       const char *extra, char **why)
{
	char *base, *description;

	if (!*extra) {
		if (!hb_strv_contains(m->variants.v, BASE_VARIANT))
			hb_strv_push(&m->variants, xstrdup(BASE_VARIANT));
		return xstrdup(BASE_VARIANT);
	}
	base = xasprintf("%s.0", name);
	description = xasprintf("--per-patch: step 0 of %s (base, its --patch-cmdline)", name);
	if (adhoc_claim(n, "--patch", base, why) < 0 ||
	    overlay_add_base_variant(o, base, extra, description, why) < 0) {
		free(description);
		free(base);
		return NULL;
	}
	hb_strv_push(&m->variants, xstrdup(base));
	free(description);
	return base;
}

int steps_add_patch_series(struct overlay *o, struct names *n, struct made *m, const char *name,
			   const struct series *s, char *const *lines, const char *extra, char **why)
{
	char *base = add_step0(o, n, m, name, extra, why);
	json_object *steps = json_object_new_array(), *entry, *b;
	int rc = base ? 0 : -1;

	char *before = base ? xstrdup(base) : NULL;

	for (size_t k = 1; rc == 0 && k <= s->n; k++) {
		/* A series of one patch is the series: no ".1" to read past. */
		char *step = s->n == 1 ? xstrdup(name) : xasprintf("%s.%zu", name, k);
		struct series prefix = { .patches = s->patches, .n = k };
		if (s->n > 1)
			rc = adhoc_claim(n, "--patch", step, why);
		if (rc == 0)
			rc = overlay_add_patch_build(o, step, &prefix, lines, extra, why);
		if (rc == 0) {
			json_object *e = step_json(k, s->n, s->patches[k - 1].subject);
			add_str(e, "variant", step);
			json_object_array_add(steps, e);
			hb_strv_push(&m->builds, xstrdup(step));
			hb_strv_push(&m->variants, xstrdup(step));
			char *which = k > 1 ? xasprintf("patches 1-%zu", k) : xstrdup("patch 1");
			hb_strv_push(&m->said, xasprintf("--per-patch %s: step %zu/%zu '%s': %s = base + %s "
							 "of %zu, against %s", name, k, s->n,
							 s->patches[k - 1].subject, step, which, s->n, before));
			free(which);
			free(before);
			before = xstrdup(step);
		}
		free(step);
	}
	free(before);
	if (rc < 0) {
		json_object_put(steps);
		free(base);
		return -1;
	}
	entry = json_object_new_object();
	b = json_object_new_object();
	add_str(b, "variant", base);
	add_str(entry, "kind", "patch");
	json_object_object_add(entry, "base", b);
	json_object_object_add(entry, "steps", steps);
	adhoc_note(m, "per_patch", name, entry);
	free(base);
	return 0;
}

int steps_add_range(const struct adhoc_cli *c, const char *item, const char *cache,
		    struct overlay *o, struct made *m, struct hb_strv *lines_out, char **why)
{
	struct gitrange r;
	json_object *steps, *entry, *b;
	int rc;

	if (gitrange_resolve(item, &r, why) < 0)
		return -1;
	hb_strv_push(&m->said, xasprintf("--kernels %s: %zu commit%s on top of %.12s, each a step "
					 "(a kernel line); step 0: commit %.12s as kernel line %s", item,
					 r.n, r.n == 1 ? "" : "s", r.base.commit, r.base.commit, r.base.line));
	rc = adhoc_add_commit_line(c, &r.base, cache, o, m, why);
	if (rc == 0)
		hb_strv_push(lines_out, xstrdup(r.base.line));
	steps = json_object_new_array();
	for (size_t k = 0; rc == 0 && k < r.n; k++) {
		json_object *e;
		hb_strv_push(&m->said, xasprintf("--kernels %s: step %zu/%zu, commit %.12s '%s', as "
						 "kernel line %s", item, k + 1, r.n, r.steps[k].commit,
						 r.subjects[k], r.steps[k].line));
		rc = adhoc_add_commit_line(c, &r.steps[k], cache, o, m, why);
		if (rc < 0)
			break;
		hb_strv_push(lines_out, xstrdup(r.steps[k].line));
		e = step_json(k + 1, r.n, r.subjects[k]);
		add_str(e, "line", r.steps[k].line);
		add_str(e, "commit", r.steps[k].commit);
		json_object_array_add(steps, e);
	}
	if (rc == 0) {
		entry = json_object_new_object();
		b = json_object_new_object();
		add_str(b, "line", r.base.line);
		add_str(b, "commit", r.base.commit);
		add_str(entry, "kind", "commit");
		add_str(entry, "tree", r.base.top);
		json_object_object_add(entry, "base", b);
		json_object_object_add(entry, "steps", steps);
		adhoc_note(m, "per_patch", item, entry);
	} else {
		json_object_put(steps);
	}
	gitrange_free(&r);
	return rc;
}

static const char *str_of(json_object *o, const char *key)
{
	json_object *v = hb_json_get(o, key);
	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

/* Is step e (or the base, b) the kernel of build on line? */
static bool same(json_object *e, const char *kind, const char *build, const char *line)
{
	const char *want = str_of(e, !strcmp(kind, "patch") ? "variant" : "line");
	return want && !strcmp(want, !strcmp(kind, "patch") ? build : line);
}

char *adhoc_step_of_build(const struct adhoc *a, const char *build, const char *line)
{
	json_object *series = hb_json_get(a->record, "per_patch");

	if (!series)
		return NULL;
	json_object_object_foreach(series, name, entry) {
		const char *kind = str_of(entry, "kind");
		json_object *steps = hb_json_get(entry, "steps"), *base = hb_json_get(entry, "base");
		if (!kind || !steps)
			continue;
		if (!strcmp(kind, "commit") && base && same(base, kind, build, line))
			return xasprintf("commit %.12s, step 0 of %s (where the range starts)",
					 str_of(base, "commit"), name);
		for (size_t i = 0; i < json_object_array_length(steps); i++) {
			json_object *e = json_object_array_get_idx(steps, i);
			int k = json_object_get_int(hb_json_get(e, "step"));
			int of = json_object_get_int(hb_json_get(e, "of"));
			if (!same(e, kind, build, line))
				continue;
			if (!strcmp(kind, "patch"))
				return xasprintf("patch %d/%d '%s' of --patch %s", k, of, str_of(e, "subject"), name);
			return xasprintf("commit %.12s '%s', step %d/%d of %s", str_of(e, "commit"),
					 str_of(e, "subject"), k, of, name);
		}
	}
	return NULL;
}
