/* Reading and checking published.json files (format: seeds.h). The files are typed by
 * people from mails, so every key is checked and the first problem is reported with the
 * file, the figure and the key. */
#include "report/seeds.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"

#define PUBLISHED_FILE "published.json"
#define FIGURE_KEYS "seed, line, quote, workload, section, metric, variant, baseline_variant, " \
	"kind, value, stderr_pct, noise, derived, variant_value, baseline_value, unit, note, conditions"
#define REQUIRED_KEYS "seed, line, quote, workload, metric, variant, baseline_variant, kind, " \
	"value, conditions"
#define CONDITION_KEYS "cores, machine, kernel, text"

/* Where we are, for the one-line error. */
struct where {
	const char *file;
	size_t index; /* 0: the file's top level */
	const char *within; /* "conditions: " or "" */
	char *error;  /* the first problem, malloc'd */
};

__attribute__((format(printf, 2, 3))) static bool problem(struct where *w, const char *fmt, ...)
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

static bool only_known_keys(struct where *w, json_object *o, const char *accepted)
{
	json_object_object_foreach(o, key, value) {
		(void)value;
		if (!known_key(key, accepted))
			return problem(w, "unknown key '%s' (accepted: %s)", key, accepted);
	}
	return true;
}

/* The value of key, or NULL: a problem when required. JSON null counts as absent. */
static json_object *member(struct where *w, json_object *o, const char *key, bool required,
			   const char *needed)
{
	json_object *v = NULL;

	if (json_object_object_get_ex(o, key, &v) && v)
		return v;
	if (required)
		problem(w, "missing key '%s' (required: %s)", key, needed);
	return NULL;
}

static bool type_problem(struct where *w, const char *key, const char *want, json_object *v)
{
	return problem(w, "'%s' must be %s, not %s", key, want, json_object_to_json_string(v));
}

static bool get_string(struct where *w, json_object *o, const char *key, bool required,
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
static bool get_strings(struct where *w, json_object *o, const char *key, char ***out)
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

static bool get_number(struct where *w, json_object *o, const char *key, bool required,
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

static bool get_bool(struct where *w, json_object *o, const char *key, bool *out)
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
static bool get_count(struct where *w, json_object *o, const char *key, bool nullable,
		      const char *needed, long *out)
{
	json_object *v = NULL;

	*out = -1;
	if (!json_object_object_get_ex(o, key, &v))
		return problem(w, "missing key '%s' (required: %s)", key, needed);
	if (!v && nullable)
		return true;
	if (!v || !json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 1)
		return type_problem(w, key, nullable ? "a whole number >= 1, or null when not stated"
						     : "a whole number >= 1", v);
	*out = (long)json_object_get_int64(v);
	return true;
}

static bool load_conditions(struct where *w, json_object *fig, struct seed_conditions *c)
{
	json_object *o = member(w, fig, "conditions", true, REQUIRED_KEYS);
	long cores;
	bool ok;

	if (!o)
		return false;
	if (!json_object_is_type(o, json_type_object))
		return type_problem(w, "conditions", "an object {cores, machine, kernel, text}", o);
	w->within = "conditions: ";
	ok = only_known_keys(w, o, CONDITION_KEYS) &&
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

static bool load_kind(struct where *w, json_object *fig, struct seed_figure *f)
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
		return problem(w, "'kind' must be slowdown_pct or ratio");
	f->kind = (enum seed_kind)k;
	if (!get_number(w, fig, "value", true, &f->value) ||
	    !get_number(w, fig, "stderr_pct", false, &f->stderr_pct))
		return false;
	if (f->kind == SEED_RATIO && !(f->value > 0))
		return problem(w, "a ratio's 'value' must be > 0");
	if (!isnan(f->stderr_pct) && (f->kind != SEED_SLOWDOWN_PCT || f->stderr_pct < 0))
		return problem(w, "'stderr_pct' needs kind slowdown_pct and a value >= 0");
	return true;
}

static bool load_names(struct where *w, json_object *fig, struct seed_figure *f)
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

static bool load_extras(struct where *w, json_object *fig, struct seed_figure *f)
{
	bool ok = get_bool(w, fig, "noise", &f->noise) && get_bool(w, fig, "derived", &f->derived) &&
		  get_number(w, fig, "variant_value", false, &f->variant_value) &&
		  get_number(w, fig, "baseline_value", false, &f->baseline_value) &&
		  get_string(w, fig, "unit", false, NULL, &f->unit) &&
		  get_string(w, fig, "note", false, NULL, &f->note);

	if (ok && !f->unit)
		f->unit = xstrdup("");
	if (ok && !f->note)
		f->note = xstrdup("");
	return ok;
}

static void figure_free(struct seed_figure *f)
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
	free(f->note);
	free(f->cond.machine);
	free(f->cond.kernel);
	free(f->cond.text);
}

static bool load_figure(struct where *w, json_object *fig, const char *folder, struct seed_figure *f)
{
	*f = (struct seed_figure){ .file = xstrdup(w->file), .index = w->index,
				   .cond = { .cores = -1 } };
	if (!json_object_is_type(fig, json_type_object))
		return type_problem(w, "a figure", "an object", fig);
	if (!only_known_keys(w, fig, FIGURE_KEYS) || !load_names(w, fig, f) || !load_kind(w, fig, f) ||
	    !load_extras(w, fig, f) || !load_conditions(w, fig, &f->cond))
		return false;
	if (folder && strcmp(folder, f->workload))
		return problem(w, "workload '%s' is not this folder's (%s)", f->workload, folder);
	return true;
}

/* The file as JSON; NULL after a problem naming the line where parsing stopped. */
static json_object *read_json(struct where *w)
{
	size_t len = 0, line = 1, end;
	char *text = hb_read_file(w->file, &len);
	struct json_tokener *tok;
	json_object *obj;
	enum json_tokener_error err;

	if (!text) {
		problem(w, "cannot read: %s", strerror(errno));
		return NULL;
	}
	tok = json_tokener_new();
	obj = json_tokener_parse_ex(tok, text, (int)len);
	err = json_tokener_get_error(tok);
	end = (size_t)tok->char_offset;
	if (err == json_tokener_continue) { /* the text ended inside a value: its last line */
		err = json_tokener_error_parse_eof;
		while (end > 0 && strchr(" \t\r\n", text[end - 1]))
			end--;
	}
	if (err != json_tokener_success || end + strspn(text + end, " \t\r\n") < len) {
		for (size_t i = 0; i < end && i < len; i++)
			line += text[i] == '\n';
		problem(w, "not JSON at line %zu: %s", line, err != json_tokener_success ?
			json_tokener_error_desc(err) : "text after the end of the object");
		json_object_put(obj);
		obj = NULL;
	}
	json_tokener_free(tok);
	free(text);
	return obj;
}

/* Appends the figures of one file. folder: the workload the file belongs to, or NULL. */
static bool load_file(struct where *w, const char *folder, struct seed_data *d)
{
	json_object *top = read_json(w), *figs = NULL;
	size_t cap = d->n, n;
	bool ok = true;

	if (!top)
		return false;
	if (!json_object_is_type(top, json_type_object) || !only_known_keys(w, top, "about, figures") ||
	    !json_object_object_get_ex(top, "figures", &figs) || !json_object_is_type(figs, json_type_array)) {
		json_object_put(top);
		return problem(w, "expected {\"about\": \"...\", \"figures\": [...]}");
	}
	n = json_object_array_length(figs);
	d->figs = xgrow(d->figs, &cap, d->n + n, sizeof(*d->figs));
	for (size_t i = 0; i < n && ok; i++) {
		w->index = i + 1;
		ok = load_figure(w, json_object_array_get_idx(figs, i), folder, &d->figs[d->n]);
		if (!ok)
			figure_free(&d->figs[d->n]);
		else
			d->n++;
	}
	w->index = 0;
	d->files++;
	json_object_put(top);
	return ok;
}

/* Every <dir>/<workload>/published.json, workloads in name order. */
static bool load_folder(const char *dir, struct seed_data *d, char **error)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);
	bool ok = true;

	if (n < 0) {
		*error = xasprintf("%s: cannot read the folder", dir);
		return false;
	}
	for (int i = 0; i < n; i++) {
		char *sub = hb_path_join(dir, names[i]->d_name);
		char *file = hb_path_join(sub, PUBLISHED_FILE);
		struct where w = { .file = file, .within = "" };
		if (ok && names[i]->d_name[0] != '.' && hb_is_file(file) && !load_file(&w, names[i]->d_name, d)) {
			*error = w.error;
			ok = false;
		}
		free(file);
		free(sub);
		free(names[i]);
	}
	free(names);
	if (ok && !d->files)
		*error = xasprintf("%s: no <workload>/%s in it (accepted: a %s, or a folder of "
				   "workload folders holding one)", dir, PUBLISHED_FILE, PUBLISHED_FILE);
	return ok && d->files;
}

int seeds_load(const char *path, struct seed_data *out)
{
	char *error = NULL;
	bool ok;

	*out = (struct seed_data){ 0 };
	if (hb_is_dir(path)) {
		ok = load_folder(path, out, &error);
	} else if (hb_is_file(path)) {
		struct where w = { .file = path, .within = "" };
		ok = load_file(&w, NULL, out);
		error = w.error;
	} else {
		error = xasprintf("--against-seeds: '%s' not found (accepted: a %s, or a folder of "
				  "workload folders holding one)", path, PUBLISHED_FILE);
		ok = false;
	}
	if (ok)
		return HB_EXIT_OK;
	hb_error("%s", error);
	free(error);
	seeds_free(out);
	return HB_EXIT_USAGE;
}

void seeds_free(struct seed_data *d)
{
	for (size_t i = 0; i < d->n; i++)
		figure_free(&d->figs[i]);
	free(d->figs);
	*d = (struct seed_data){ 0 };
}

char *seed_sample_workload(const struct seed_figure *f)
{
	return f->section ? xasprintf("%s-%s", f->workload, f->section) : xstrdup(f->workload);
}
