#include "adhoc/overlay.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/argparse.h"
#include "common/fileutil.h"
#include "common/paths.h"
#include "common/tmpdir.h"
#include "common/xalloc.h"
#include "configs/extmod.h"
#include "configs/kconfigs.h"
#include "configs/kline.h"

/* The build and variant an ad-hoc patch starts from. */
#define BASE_BUILD "base"
#define BASE_VARIANT "baseline"

int overlay_open(struct overlay *o, char **why)
{
	o->dir = hb_mkdtemp_owned(HB_TMP_CONFIGS);
	if (o->dir)
		return 0;
	*why = xasprintf("cannot make a folder under the temporary root: %s", strerror(errno));
	return -1;
}

/* <dir>/<rel>, a new file in the folder this process made (never following a link). */
static int write_new(const struct overlay *o, const char *rel, const char *text, char **why)
{
	char *path = hb_path_join(o->dir, rel), *parent = xstrdup(path);
	size_t len = strlen(text);
	int fd = -1, rc = -1;

	if (hb_mkdir_p(dirname(parent), 0755) == 0)
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd >= 0 && write(fd, text, len) == (ssize_t)len)
		rc = 0;
	if (rc < 0)
		*why = xasprintf("cannot write %s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(parent);
	free(path);
	return rc;
}

/* A subject as an INI value: one line, no comment characters. */
static char *ini_safe(const char *s)
{
	char *v = xstrdup(s);

	for (char *p = v; *p; p++)
		if (strchr("\n\r;#", *p))
			*p = ',';
	return v;
}

/* "name name ...": the last path component of each, without suffix. */
static char *words_of(char *const *paths, size_t from, const char *suffix)
{
	char *joined = xstrdup("");

	for (size_t i = from; paths && paths[i]; i++) {
		const char *base = strrchr(paths[i], '/') ? strrchr(paths[i], '/') + 1 : paths[i];
		size_t n = strlen(base), sl = strlen(suffix);
		char *next = xasprintf("%s%s%.*s", joined, *joined ? " " : "",
				       (int)(n > sl && !strcmp(base + n - sl, suffix) ? n - sl : n), base);
		free(joined);
		joined = next;
	}
	return joined;
}

/* base's own fragments: its list without base.config and the line's. */
static char *base_fragments(const struct build_def *b)
{
	struct line_def l;
	size_t skip = 1;

	if (config_load_line(b->line, &l) == 0) {
		skip += hb_strv_len(l.fragments);
		line_def_free(&l);
	}
	return words_of(b->fragments, skip < hb_strv_len(b->fragments) ? skip : hb_strv_len(b->fragments),
			".config");
}

static int write_build(struct overlay *o, const char *name, const struct series *s, char **why)
{
	struct build_def b;
	char *frags, *mods, *subject, *text, *rel, *more;
	int rc;

	if (config_load_build(BASE_BUILD, &b) != 0) {
		*why = xstrdup("--patch: the build '" BASE_BUILD "' it starts from does not load");
		return -1;
	}
	frags = base_fragments(&b);
	mods = words_of(b.modules, 0, "");
	subject = ini_safe(s->patches[0].subject);
	more = s->n > 1 ? xasprintf(" and %zu more", s->n - 1) : xstrdup("");
	text = xasprintf("; made by --patch: %s + the series from %s\n[build]\n"
			 "description = %s + '%s'%s\nfragments = %s\npatches = %s\nmodules = %s\n",
			 BASE_BUILD, s->patches[0].origin, BASE_BUILD, subject,
			 more, frags, name, mods);
	rel = xasprintf("builds/%s.build", name);
	rc = write_new(o, rel, text, why);
	free(rel);
	free(text);
	free(subject);
	free(more);
	free(mods);
	free(frags);
	build_def_free(&b);
	return rc;
}

static int write_series(struct overlay *o, const char *name, const struct series *s,
			char *const *lines, char **why)
{
	int rc = 0;

	for (size_t l = 0; rc == 0 && lines[l]; l++)
		for (size_t i = 0; rc == 0 && i < s->n; i++) {
			char *file = series_file_name(s, i);
			char *rel = xasprintf("patches/%s/%s/%s", name, lines[l], file);
			rc = write_new(o, rel, s->patches[i].text, why);
			free(rel);
			free(file);
		}
	return rc;
}

/* baseline's command line, then extra_cmdline: newly allocated; NULL with *why. */
static char *base_cmdline(const char *extra_cmdline, char **why)
{
	struct variant_def v;
	char *cmdline, *reason = NULL;

	if (config_require_variant(BASE_VARIANT, &v, &reason) < 0) {
		*why = xasprintf("--patch: the variant '" BASE_VARIANT "' it takes the command line "
				 "from: %s", reason);
		free(reason);
		return NULL;
	}
	cmdline = xasprintf("%s%s%s", v.cmdline, *v.cmdline && *extra_cmdline ? " " : "", extra_cmdline);
	variant_def_free(&v);
	return cmdline;
}

int overlay_add_patch_build(struct overlay *o, const char *name, const struct series *s,
			    char *const *lines, const char *extra_cmdline, char **why)
{
	char *cmdline = base_cmdline(extra_cmdline, why), *description;
	int rc;

	if (!cmdline)
		return -1;
	description = xasprintf("--patch: " BASE_VARIANT "'s command line on %s", name);
	rc = write_build(o, name, s, why);
	if (rc == 0)
		rc = write_series(o, name, s, lines, why);
	if (rc == 0)
		rc = overlay_add_variant(o, name, name, cmdline, description, why);
	free(description);
	free(cmdline);
	return rc;
}

int overlay_add_base_variant(struct overlay *o, const char *name, const char *extra_cmdline,
			     const char *description, char **why)
{
	char *cmdline = base_cmdline(extra_cmdline, why);
	int rc = cmdline ? overlay_add_variant(o, name, BASE_BUILD, cmdline, description, why) : -1;

	free(cmdline);
	return rc;
}

int overlay_add_variant(struct overlay *o, const char *name, const char *build,
			const char *cmdline, const char *description, char **why)
{
	char *desc = ini_safe(description);
	char *text = xasprintf("[variant]\nbuild = %s\ncmdline = %s\ndescription = %s\n"
			       "default_set = no\n", build, cmdline, desc);
	char *rel = xasprintf("variants/%s.variant", name);
	int rc = write_new(o, rel, text, why);

	free(rel);
	free(text);
	free(desc);
	return rc;
}

int overlay_add_line(struct overlay *o, const char *name, const char *description,
		     const char *source, const char *fragment, char **why)
{
	char *text = fragment ? hb_read_file(fragment, NULL) : xstrdup("");
	char *frag_rel = xasprintf("fragments/line-%s.config", name);
	char *desc = ini_safe(description), *line, *rel;
	int rc;

	if (!text) {
		*why = xasprintf("--line-fragment %s: cannot read: %s", fragment, strerror(errno));
		free(frag_rel);
		free(desc);
		return -1;
	}
	rc = fragment ? write_new(o, frag_rel, text, why) : 0;
	line = xasprintf("[line]\ndescription = %s\nsource = %s\nfragments = %s\n", desc, source,
			 fragment ? frag_rel + strlen("fragments/") : "");
	if (fragment) /* the word, without .config: the readers add it */
		line[strlen(line) - strlen(".config\n")] = '\0';
	rel = xasprintf("lines/%s.line", name);
	if (rc == 0)
		rc = write_new(o, rel, line, why);
	free(rel);
	free(line);
	free(desc);
	free(frag_rel);
	free(text);
	return rc;
}
