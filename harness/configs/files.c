/* The INI reader, name rules and paths that every kernel-configs/ file kind shares (builds,
 * variants, lines, modules). */
#include "configs/files.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/ini.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "configs/search_path.h"

/* Names become file names: refuse anything that could leave the folder. */
bool config_valid_name(const char *name)
{
	if (!name || !*name || name[0] == '.' || name[0] == '-')
		return false;
	for (const char *p = name; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789_-.", *p))
			return false;
	return true;
}

/* inih hands a value continued on indented lines to us once per line: join them. */
static void set_or_append(char **slot, const char *value)
{
	char *joined;

	if (!*slot) {
		*slot = xstrdup(value);
		return;
	}
	joined = xasprintf("%s %s", *slot, value);
	free(*slot);
	*slot = joined;
}

static int on_ini_entry(void *user, const char *section, const char *name, const char *value)
{
	struct ini_target *t = user;

	if (strcmp(section, t->section)) {
		if (!t->why)
			t->why = xasprintf("unknown section [%s] (accepted: [%s])", section, t->section);
		return 0;
	}
	for (struct ini_key *k = t->keys; k->name; k++) {
		if (!strcmp(k->name, name)) {
			set_or_append(k->value, value);
			return 1;
		}
	}
	if (!t->why) {
		char *accepted = xstrdup("");
		for (struct ini_key *k = t->keys; k->name; k++) {
			char *next = xasprintf("%s%s%s", accepted, *accepted ? ", " : "", k->name);
			free(accepted);
			accepted = next;
		}
		t->why = xasprintf("unknown key '%s' (accepted: %s)", name, accepted);
		free(accepted);
	}
	return 0;
}

int config_load_ini(const char *path, struct ini_target *t)
{
	int rc;

	if (!hb_is_file(path))
		return -1;
	rc = hb_ini_load(path, on_ini_entry, t, &t->why) == 0 ? 0 : -2;
	free(t->why);
	t->why = NULL;
	return rc;
}

char *config_def_path(const char *folder, const char *name, const char *suffix)
{
	char *found = config_find(folder, name, suffix, NULL), *dir, *path;

	if (found)
		return found;
	dir = config_dir(); /* where it would be: for the error naming it */
	path = xasprintf("%s/%s/%s%s", dir, folder, name, suffix);
	free(dir);
	return path;
}

int config_check_origin(const char *path, const char *sub, const char *name, const char *suffix,
			const char *overrides, char **from)
{
	char *found = config_find(sub, name, suffix, from);

	if (!found) /* path is the project's, for its error */
		*from = config_dir();
	free(found);
	return config_check_shadow(path, *from, sub, name, suffix, overrides);
}

int config_resolve_fragments(const char *file, const char *words, char *const *first, char ***out)
{
	char *dir = config_dir();
	char *copy = xstrdup(words ? words : ""), *save = NULL;
	char **v = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	v = xgrow(v, &cap, 2, sizeof(*v));
	for (size_t i = 0; first && first[i]; i++) {
		v = xgrow(v, &cap, n + 2, sizeof(*v));
		v[n++] = xstrdup(first[i]);
	}
	for (char *w = strtok_r(copy, " \t,", &save); w; w = strtok_r(NULL, " \t,", &save)) {
		size_t len = strlen(w);
		bool has_suffix = len > 7 && !strcmp(w + len - 7, ".config");
		char *path = config_valid_name(w) ? config_find("fragments", w, has_suffix ? "" : ".config", NULL)
						  : NULL;

		if (!path)
			path = xasprintf("%s/fragments/%s%s", dir, w, has_suffix ? "" : ".config");
		if (!config_valid_name(w) || !hb_is_file(path)) {
			hb_error("%s: fragment '%s' not found (expected %s)", file, w, path);
			free(path);
			rc = -2;
			break;
		}
		v = xgrow(v, &cap, n + 2, sizeof(*v));
		v[n++] = path;
	}
	v[n] = NULL;
	free(copy);
	free(dir);
	if (rc)
		hb_free_strv(v);
	else
		*out = v;
	return rc;
}
