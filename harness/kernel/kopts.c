/* Kconfig fragment and .config parsing. Hand-written: the format is a line grammar of two
 * shapes (CONFIG_X=value, "# CONFIG_X is not set") and no packaged C library reads it. */
#include "kernel/kopts.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileutil.h"
#include "common/log.h"
#include "common/xalloc.h"

static struct kopt *find(const struct kopt_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, name))
			return &l->v[i];
	return NULL;
}

static void set(struct kopt_list *l, const char *name, size_t name_len, const char *value,
		size_t value_len)
{
	char *n = xstrndup(name, name_len);
	struct kopt *o = find(l, n);

	if (o) {
		free(n);
		free(o->value);
		o->value = xstrndup(value, value_len);
		return;
	}
	l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = (struct kopt){ .name = n, .value = xstrndup(value, value_len) };
}

/* Length of a CONFIG_[A-Za-z0-9_]+ name at s, 0 when s does not start with one. */
static size_t option_name_len(const char *s)
{
	size_t n = 0;

	if (strncmp(s, "CONFIG_", 7))
		return 0;
	n = 7;
	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	return n > 7 ? n : 0;
}

static size_t trimmed_len(const char *s, size_t len)
{
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return len;
}

/* One line (without its newline). 1 parsed or ignored; 0 malformed. */
static int parse_line(struct kopt_list *l, const char *line, size_t len)
{
	size_t nl;

	len = trimmed_len(line, len);
	while (len && isspace((unsigned char)*line)) {
		line++;
		len--;
	}
	if (!len)
		return 1;
	if (line[0] == '#') {
		static const char not_set[] = " is not set";
		const char *p = line + 1;
		while (*p == ' ')
			p++;
		nl = option_name_len(p);
		if (nl && (size_t)(line + len - (p + nl)) == strlen(not_set) &&
		    !strncmp(p + nl, not_set, strlen(not_set)))
			set(l, p, nl, "n", 1);
		return 1; /* any other comment */
	}
	nl = option_name_len(line);
	if (!nl || line[nl] != '=' || nl + 1 >= len)
		return 0;
	set(l, line, nl, line + nl + 1, len - nl - 1);
	return 1;
}

int kopts_parse(struct kopt_list *into, const char *text, const char *origin)
{
	int lineno = 0;

	for (const char *p = text; *p;) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		lineno++;
		if (!parse_line(into, p, len)) {
			hb_error("%s:%d: not a Kconfig line (expected CONFIG_X=value or "
				 "'# CONFIG_X is not set'): %.*s", origin, lineno, (int)len, p);
			return -1;
		}
		p += len + (end ? 1 : 0);
	}
	return 0;
}

int kopts_load(struct kopt_list *into, const char *path)
{
	char *text = hb_read_file(path, NULL);
	int rc;

	if (!text) {
		hb_error("cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	rc = kopts_parse(into, text, path);
	free(text);
	return rc;
}

const char *kopts_get(const struct kopt_list *l, const char *name)
{
	struct kopt *o = find(l, name);
	return o ? o->value : NULL;
}

void kopts_free(struct kopt_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].value);
	}
	free(l->v);
	*l = (struct kopt_list){ 0 };
}

static const char *shown(const char *value)
{
	return !strcmp(value, "n") ? "not set" : value;
}

char **kopts_verify(const struct kopt_list *want, const struct kopt_list *have)
{
	char **bad = NULL;
	size_t n = 0, cap = 0;

	bad = xgrow(bad, &cap, 1, sizeof(*bad));
	for (size_t i = 0; i < want->n; i++) {
		const struct kopt *w = &want->v[i];
		const char *got = kopts_get(have, w->name);
		char *line;

		if (got ? !strcmp(got, w->value) : !strcmp(w->value, "n"))
			continue;
		if (got)
			line = xasprintf("%s: asked %s, got %s", w->name, shown(w->value), shown(got));
		else
			line = xasprintf("%s: asked %s, got absent (a dependency is off or the "
					 "option does not exist)", w->name, shown(w->value));
		bad = xgrow(bad, &cap, n + 2, sizeof(*bad));
		bad[n++] = line;
	}
	bad[n] = NULL;
	return bad;
}
