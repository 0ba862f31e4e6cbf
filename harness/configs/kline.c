/* Kernel lines: kernel-configs/lines/<line>.line, and the --kernel-line / --source
 * values build, boot and run share. */
#include "configs/kline.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "configs/files.h"
#include "configs/search_path.h"

int config_load_line(const char *name, struct line_def *out)
{
	char *desc = NULL, *source = NULL, *frags = NULL, *overrides = NULL, *from = NULL, *path;
	struct ini_key keys[] = { { "description", &desc }, { "source", &source },
				  { "fragments", &frags }, { "overrides", &overrides }, { NULL, NULL } };
	struct ini_target t = { .section = "line", .keys = keys };
	int rc;

	*out = (struct line_def){ 0 };
	if (!config_valid_name(name))
		return -1;
	path = config_def_path("lines", name, ".line");
	rc = config_load_ini(path, &t);
	if (rc == 0)
		rc = config_check_origin(path, "lines", name, ".line", overrides, &from);
	if (rc == 0 && (!source || !*source)) {
		hb_error("%s: source = is missing (the line's tarball or tree)", path);
		rc = -2;
	}
	if (rc == 0)
		rc = config_resolve_fragments(path, frags, NULL, &out->fragments);
	if (rc == 0) {
		out->name = xstrdup(name);
		out->description = desc ? desc : xstrdup("");
		out->source = source;
		desc = source = NULL;
	}
	free(desc);
	free(source);
	free(frags);
	free(overrides);
	free(from);
	free(path);
	return rc;
}

char **config_list_lines(void)
{
	return config_list_all("lines", ".line");
}

static char *known_lines(void)
{
	char **v = config_list_lines();
	char *s = hb_join_names(v);
	hb_free_strv(v);
	return s;
}

int config_require_line(const char *name, struct line_def *out, char **why)
{
	int rc = config_load_line(name, out);
	char *list;

	if (rc == 0)
		return 0;
	if (rc == -2) {
		*why = xasprintf("kernel line '%s': kernel-configs/lines/%s.line does not parse", name, name);
		return -1;
	}
	list = known_lines();
	*why = xasprintf("unknown kernel line '%s' (accepted: %s)", name, list);
	free(list);
	return -1;
}

void line_def_free(struct line_def *l)
{
	free(l->name);
	free(l->description);
	free(l->source);
	hb_free_strv(l->fragments);
	*l = (struct line_def){ 0 };
}

/* "LINE=PATH" when the text before '=' names a line file; *path points after '='. */
static char *line_prefix(const char *value, const char **path)
{
	const char *eq = strchr(value, '=');
	char *line;
	struct line_def l;

	if (!eq)
		return NULL;
	line = xstrndup(value, (size_t)(eq - value));
	if (config_load_line(line, &l) != 0) {
		free(line);
		return NULL;
	}
	line_def_free(&l);
	*path = eq + 1;
	return line;
}

const char *kline_source_for(char *const *sources, const char *line)
{
	const char *found = NULL;

	for (size_t i = 0; sources && sources[i]; i++) {
		const char *path = NULL;
		char *l = line_prefix(sources[i], &path);
		if (l ? !strcmp(l, line) : hb_is_default_line(line))
			found = l ? path : sources[i];
		free(l);
	}
	return found;
}

/* A tree or a tarball tar reads: 0, or -1 with *why naming the value. */
static int check_path(const char *s, char **why)
{
	if (hb_is_dir(s))
		return 0;
	if (!hb_is_file(s))
		*why = xasprintf("--source: '%s' does not exist (accepted: [LINE=] a kernel tree or a "
				 "tarball)", s);
	else if (!hb_tarball_suffix_len(s))
		*why = xasprintf("--source: '%s' is not a tarball (accepted: a kernel tree, or .tar, "
				 ".tar.xz, .tar.gz, .tgz, .tar.bz2, .tar.zst)", s);
	else
		return 0;
	return -1;
}

int kline_check_source_option(void *base, const char *value, char **why)
{
	const char *path = value;
	char *line = line_prefix(value, &path);

	(void)base;
	free(line);
	if (!line && strchr(value, '=') && !hb_is_dir(value) && !hb_is_file(value)) {
		char *name = xstrndup(value, strcspn(value, "=")), *list = known_lines();
		*why = xasprintf("--source: unknown kernel line '%s' in '%s' (accepted: a path, or "
				 "LINE=PATH with LINE one of %s)", name, value, list);
		free(name);
		free(list);
		return -1;
	}
	return check_path(path, why);
}

int kline_check_sources(char *const *sources, char **why)
{
	for (size_t i = 0; sources && sources[i]; i++)
		if (kline_check_source_option(NULL, sources[i], why) < 0)
			return -1;
	return 0;
}

int kline_check_sources_used(char *const *sources, char *const *lines, char **why)
{
	for (size_t i = 0; sources && sources[i]; i++) {
		const char *path = NULL;
		char *line = line_prefix(sources[i], &path), *list;
		bool used = hb_strv_contains(lines, line ? line : HB_DEFAULT_LINE);

		if (!used) {
			list = hb_join_names((char **)lines);
			*why = xasprintf("--source: '%s' is for kernel line %s, which this command does not "
					 "build (lines: %s; a plain path is %s's, LINE=PATH names another)",
					 sources[i], line ? line : HB_DEFAULT_LINE, list, HB_DEFAULT_LINE);
			free(list);
		}
		free(line);
		if (!used)
			return -1;
	}
	return 0;
}

int config_check_line(const char *name, const char *what, char **why)
{
	struct line_def l;
	char *reason = NULL;

	if (config_require_line(name, &l, &reason) < 0) {
		*why = xasprintf("%s: %s", what, reason);
		free(reason);
		return -1;
	}
	line_def_free(&l);
	return 0;
}

int kline_check_option(void *base, const char *value, char **why)
{
	(void)base;
	return config_check_line(value, "--kernel-line", why);
}
