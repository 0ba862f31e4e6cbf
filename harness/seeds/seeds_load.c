/* Checking one figure of a published.json (format: seeds.h; the files: seeds_files.c).
 * The files are typed by people from mails, so every key is checked and the first
 * problem is reported with the file, the figure and the key. */
#include "seeds/seeds.h"
#include "seeds/seeds_figure.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "common/argparse.h"
#include "common/xalloc.h"

#define FIGURE_KEYS "seed, line, quote, workload, section, metric, variant, baseline_variant, " \
	"kind, value, stderr_pct, noise, expect_none, derived, variant_value, baseline_value, unit, delta, " \
	"per_count, per_item, delta_per, kernel_line, note, icount_note, conditions"
#define REQUIRED_KEYS "seed, line, quote, workload, metric, variant, baseline_variant, kind, " \
	"value, conditions"
#define CONDITION_KEYS "cores, machine, kernel, text"

bool seed_problem(struct seed_where *w, const char *fmt, ...)
{
	va_list ap;
	char *what;

	if (w->error)
		return false;
	va_start(ap, fmt);
	what = xvasprintf(fmt, ap);
	va_end(ap);
	if (w->index)
		w->error = xasprintf("%s: figure %zu: %s%s", w->file, w->index, w->within, what);
	else
		w->error = xasprintf("%s: %s", w->file, what);
	free(what);
	return false;
}

static bool known_key(const char *key, const char *list)
{
	size_t n = strlen(key);
	for (const char *p = strstr(list, key); p; p = strstr(p + 1, key))
		if ((p == list || p[-1] == ' ') && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

bool seed_only_known_keys(struct seed_where *w, json_object *o, const char *accepted)
{
	json_object_object_foreach(o, key, value) {
		(void)value;
		if (!known_key(key, accepted))
			return seed_problem(w, "unknown key '%s' (accepted: %s)", key, accepted);
	}
	return true;
}

/* The value of key, or NULL: a problem when required. JSON null counts as absent. */
static json_object *member(struct seed_where *w, json_object *o, const char *key, bool required,
			   const char *needed)
{
	json_object *v = NULL;

	if (json_object_object_get_ex(o, key, &v) && v)
		return v;
	if (required)
		seed_problem(w, "missing key '%s' (required: %s)", key, needed);
	return NULL;
}

static bool type_problem(struct seed_where *w, const char *key, const char *want, json_object *v)
{
	return seed_problem(w, "'%s' must be %s, not %s", key, want, json_object_to_json_string(v));
}

static bool get_string(struct seed_where *w, json_object *o, const char *key, bool required,
		       const char *needed, char **out)
{
	json_object *v = member(w, o, key, required, needed);

	*out = NULL;
	if (!v)
		return !required;
	if (!json_object_is_type(v, json_type_string) || !*json_object_get_string(v))
		return type_problem(w, key, "a non-empty string", v);
	*out = xstrdup(json_object_get_string(v));
	return true;
}

/* A string, or an array of strings: a NULL-terminated vector. */
static bool get_strings(struct seed_where *w, json_object *o, const char *key, char ***out)
{
	json_object *v = member(w, o, key, true, REQUIRED_KEYS);
	size_t n;

	*out = NULL;
	if (!v)
		return false;
	if (json_object_is_type(v, json_type_string) && *json_object_get_string(v)) {
		*out = xcalloc(2, sizeof(char *));
		(*out)[0] = xstrdup(json_object_get_string(v));
		return true;
	}
	n = json_object_is_type(v, json_type_array) ? json_object_array_length(v) : 0;
	for (size_t i = 0; i < n; i++) {
		json_object *s = json_object_array_get_idx(v, i);
		if (!json_object_is_type(s, json_type_string) || !*json_object_get_string(s))
			n = 0;
	}
	if (!n)
		return type_problem(w, key, "a non-empty string or an array of them", v);
	*out = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		(*out)[i] = xstrdup(json_object_get_string(json_object_array_get_idx(v, i)));
	return true;
}

static bool get_number(struct seed_where *w, json_object *o, const char *key, bool required,
		       double *out)
{
	json_object *v = member(w, o, key, required, REQUIRED_KEYS);

	*out = NAN;
	if (!v)
		return !required;
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return type_problem(w, key, "a number", v);
	*out = json_object_get_double(v);
	return true;
}

static bool get_bool(struct seed_where *w, json_object *o, const char *key, bool *out)
{
	json_object *v = member(w, o, key, false, NULL);

	*out = false;
	if (!v)
		return true;
	if (!json_object_is_type(v, json_type_boolean))
		return type_problem(w, key, "true or false", v);
	*out = json_object_get_boolean(v);
	return true;
}

/* A whole number >= 1; with nullable, null means "not stated" (-1). */
static bool get_count(struct seed_where *w, json_object *o, const char *key, bool nullable,
		      const char *needed, long *out)
{
	json_object *v = NULL;

	*out = -1;
	if (!json_object_object_get_ex(o, key, &v))
		return seed_problem(w, "missing key '%s' (required: %s)", key, needed);
	if (!v && nullable)
		return true;
	if (!v || !json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 1)
		return type_problem(w, key, nullable ? "a whole number >= 1, or null when not stated"
						     : "a whole number >= 1", v);
	*out = (long)json_object_get_int64(v);
	return true;
}

static bool load_conditions(struct seed_where *w, json_object *fig, struct seed_conditions *c)
{
	json_object *o = member(w, fig, "conditions", true, REQUIRED_KEYS);
	long cores;
	bool ok;

	if (!o)
		return false;
	if (!json_object_is_type(o, json_type_object))
		return type_problem(w, "conditions", "an object {cores, machine, kernel, text}", o);
	w->within = "conditions: ";
	ok = seed_only_known_keys(w, o, CONDITION_KEYS) &&
	     get_count(w, o, "cores", true, "cores, machine, kernel", &cores) &&
	     get_string(w, o, "machine", true, "cores, machine, kernel", &c->machine) &&
	     get_string(w, o, "kernel", true, "cores, machine, kernel", &c->kernel) &&
	     get_string(w, o, "text", false, NULL, &c->text);
	w->within = "";
	c->cores = ok ? (int)cores : -1;
	if (ok && !c->text)
		c->text = xstrdup("");
	return ok;
}

static bool load_kind(struct seed_where *w, json_object *fig, struct seed_figure *f)
{
	static const char *const kinds[] = { "slowdown_pct", "ratio", NULL };
	char *kind;
	int k = -1;

	if (!get_string(w, fig, "kind", true, REQUIRED_KEYS, &kind))
		return false;
	for (int i = 0; kinds[i]; i++)
		if (!strcmp(kind, kinds[i]))
			k = i;
	free(kind);
	if (k < 0)
		return seed_problem(w, "'kind' must be slowdown_pct or ratio");
	f->kind = (enum seed_kind)k;
	if (!get_number(w, fig, "value", true, &f->value) ||
	    !get_number(w, fig, "stderr_pct", false, &f->stderr_pct))
		return false;
	if (f->kind == SEED_RATIO && !(f->value > 0))
		return seed_problem(w, "a ratio's 'value' must be > 0");
	if (!isnan(f->stderr_pct) && (f->kind != SEED_SLOWDOWN_PCT || f->stderr_pct < 0))
		return seed_problem(w, "'stderr_pct' needs kind slowdown_pct and a value >= 0");
	return true;
}

static bool load_names(struct seed_where *w, json_object *fig, struct seed_figure *f)
{
	long line;

	if (!get_string(w, fig, "seed", true, REQUIRED_KEYS, &f->seed) ||
	    !get_count(w, fig, "line", false, REQUIRED_KEYS, &line))
		return false;
	f->line = line;
	return get_strings(w, fig, "quote", &f->quotes) &&
	       get_string(w, fig, "workload", true, REQUIRED_KEYS, &f->workload) &&
	       get_string(w, fig, "section", false, NULL, &f->section) &&
	       get_strings(w, fig, "metric", &f->metrics) &&
	       get_string(w, fig, "variant", true, REQUIRED_KEYS, &f->variant) &&
	       get_string(w, fig, "baseline_variant", true, REQUIRED_KEYS, &f->baseline);
}

static bool load_extras(struct seed_where *w, json_object *fig, struct seed_figure *f)
{
	bool ok = get_bool(w, fig, "noise", &f->noise) && get_bool(w, fig, "derived", &f->derived) &&
		  get_number(w, fig, "variant_value", false, &f->variant_value) &&
		  get_number(w, fig, "baseline_value", false, &f->baseline_value) &&
		  get_string(w, fig, "unit", false, NULL, &f->unit) &&
		  get_string(w, fig, "note", false, NULL, &f->note) &&
		  get_string(w, fig, "icount_note", false, NULL, &f->icount_note) &&
		  get_string(w, fig, "expect_none", false, NULL, &f->expect_none);

	if (ok && f->expect_none && f->noise)
		return seed_problem(w, "'expect_none' and 'noise' exclude each other: a claim of no effect "
			       "is one, the author calling a figure noise the other");
	if (ok && !f->unit)
		f->unit = xstrdup("");
	if (ok && !f->note)
		f->note = xstrdup("");
	return ok;
}

/* "6.12": digits and dots, as kernel-configs/lines/ names them (the report does not read
 * kernel-configs/: a line the run lacks is "not measured", not an error). */
static bool line_name(const char *s)
{
	return s[0] >= '0' && s[0] <= '9' && strspn(s, "0123456789.") == strlen(s);
}

/* The seed's own difference columns and the kernel line; each needs what it is made of. */
static bool load_arms(struct seed_where *w, json_object *fig, struct seed_figure *f)
{
	bool raw = isfinite(f->variant_value) && isfinite(f->baseline_value);
	long count = -1;

	f->delta_per = NAN;
	f->per_count = -1;
	if (!get_number(w, fig, "delta", false, &f->delta) ||
	    !get_string(w, fig, "per_item", false, NULL, &f->per_item) ||
	    !get_number(w, fig, "delta_per", false, &f->delta_per) ||
	    !get_string(w, fig, "kernel_line", false, NULL, &f->kernel_line))
		return false;
	if (member(w, fig, "per_count", false, NULL) && !get_count(w, fig, "per_count", false, NULL, &count))
		return false;
	f->per_count = count;
	if (!isnan(f->delta) && !raw)
		return seed_problem(w, "'delta' needs 'variant_value' and 'baseline_value'");
	if ((count > 0) != (f->per_item != NULL) || (count > 0) != !isnan(f->delta_per))
		return seed_problem(w, "'per_count', 'per_item' and 'delta_per' go together");
	if (count > 0 && isnan(f->delta))
		return seed_problem(w, "'delta_per' needs 'delta'");
	if (f->kernel_line && !line_name(f->kernel_line))
		return seed_problem(w, "'kernel_line' must be a kernel line such as \"6.12\", not \"%s\"",
			       f->kernel_line);
	return true;
}

void seed_figure_free(struct seed_figure *f)
{
	free(f->file);
	free(f->seed);
	hb_free_strv(f->quotes);
	free(f->workload);
	free(f->section);
	hb_free_strv(f->metrics);
	free(f->variant);
	free(f->baseline);
	free(f->unit);
	free(f->per_item);
	free(f->kernel_line);
	free(f->note);
	free(f->icount_note);
	free(f->expect_none);
	free(f->cond.machine);
	free(f->cond.kernel);
	free(f->cond.text);
}

bool seed_load_figure(struct seed_where *w, json_object *fig, const char *folder, struct seed_figure *f)
{
	*f = (struct seed_figure){ .file = xstrdup(w->file), .index = w->index,
				   .cond = { .cores = -1 } };
	if (!json_object_is_type(fig, json_type_object))
		return type_problem(w, "a figure", "an object", fig);
	if (!seed_only_known_keys(w, fig, FIGURE_KEYS) || !load_names(w, fig, f) || !load_kind(w, fig, f) ||
	    !load_extras(w, fig, f) || !load_arms(w, fig, f) || !load_conditions(w, fig, &f->cond))
		return false;
	if (folder && strcmp(folder, f->workload))
		return seed_problem(w, "workload '%s' is not this folder's (%s)", f->workload, folder);
	return true;
}
