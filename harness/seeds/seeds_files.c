/* Reading published.json files and folders of them (format: seeds.h); each figure is
 * checked by seeds_load.c. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "seeds/seeds.h"
#include "seeds/seeds_figure.h"

/* The file as JSON; NULL after a problem naming the line where parsing stopped. */
static json_object *read_json(struct seed_where *w)
{
	size_t len = 0, line = 1, end;
	char *text = hb_read_file(w->file, &len);
	struct json_tokener *tok;
	json_object *obj;
	enum json_tokener_error err;

	if (!text) {
		seed_problem(w, "cannot read: %s", strerror(errno));
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
		seed_problem(w, "not JSON at line %zu: %s", line, err != json_tokener_success ?
			json_tokener_error_desc(err) : "text after the end of the object");
		json_object_put(obj);
		obj = NULL;
	}
	json_tokener_free(tok);
	free(text);
	return obj;
}

/* The file's "icount_note": what every figure without one of its own inherits. */
static bool file_icount_note(struct seed_where *w, json_object *top, const char **note)
{
	json_object *v;

	*note = NULL;
	if (!json_object_object_get_ex(top, "icount_note", &v))
		return true;
	if (!json_object_is_type(v, json_type_string) || !*json_object_get_string(v))
		return seed_problem(w, "'icount_note' must be a non-empty string");
	*note = json_object_get_string(v);
	return true;
}

/* Appends the figures of one file. folder: the workload the file belongs to, or NULL. */
static bool load_file(struct seed_where *w, const char *folder, struct seed_data *d)
{
	json_object *top = read_json(w), *figs = NULL;
	const char *note = NULL;
	size_t cap = d->n, n;
	bool ok = true;

	if (!top)
		return false;
	if (!json_object_is_type(top, json_type_object) ||
	    !seed_only_known_keys(w, top, "about, icount_note, figures") ||
	    !json_object_object_get_ex(top, "figures", &figs) || !json_object_is_type(figs, json_type_array)) {
		json_object_put(top);
		return seed_problem(w, "expected {\"about\": \"...\", \"figures\": [...]}");
	}
	if (!file_icount_note(w, top, &note)) {
		json_object_put(top);
		return false;
	}
	n = json_object_array_length(figs);
	d->figs = xgrow(d->figs, &cap, d->n + n, sizeof(*d->figs));
	for (size_t i = 0; i < n && ok; i++) {
		w->index = i + 1;
		ok = seed_load_figure(w, json_object_array_get_idx(figs, i), folder, &d->figs[d->n]);
		if (!ok) {
			seed_figure_free(&d->figs[d->n]);
		} else {
			if (note && !d->figs[d->n].icount_note)
				d->figs[d->n].icount_note = xstrdup(note);
			d->n++;
		}
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
		struct seed_where w = { .file = file, .within = "" };
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
		struct seed_where w = { .file = path, .within = "" };
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
		seed_figure_free(&d->figs[i]);
	free(d->figs);
	*d = (struct seed_data){ 0 };
}

char *seed_sample_workload(const struct seed_figure *f)
{
	return f->section ? xasprintf("%s-%s", f->workload, f->section) : xstrdup(f->workload);
}
