/* Workload parameters: validation of defaults and --param overrides, typed access. */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "workload/internal.h"

char *workload_join(char *const *items, const char *sep)
{
	size_t len = 1, seplen = strlen(sep);
	char *out;

	for (size_t i = 0; items && items[i]; i++)
		len += strlen(items[i]) + seplen;
	out = xmalloc(len);
	out[0] = '\0';
	for (size_t i = 0; items && items[i]; i++) {
		if (i)
			strcat(out, sep);
		strcat(out, items[i]);
	}
	return out;
}

struct workload_param *workload_find_param(const struct workload *w, const char *key)
{
	for (size_t i = 0; i < w->nparams; i++)
		if (!strcmp(w->params[i].key, key))
			return &w->params[i];
	return NULL;
}

void workload_param_describe(struct workload_param *p)
{
	char *list = workload_join(p->choices, ", ");

	free(p->accepted);
	switch (p->type) {
	case PARAM_INT:
		p->accepted = xasprintf("an integer from %ld to %ld%s", p->min, p->max,
					p->allow_auto ? ", or auto" : "");
		break;
	case PARAM_CHOICE:
		p->accepted = xasprintf("one of %s", list);
		break;
	case PARAM_LIST:
		p->accepted = xasprintf("a comma-separated list of %s", list);
		break;
	case PARAM_PATH:
		p->accepted = xasprintf("an existing file or directory, or %s", p->default_value);
		break;
	default:
		p->accepted = xstrdup("a value matching the workload's pattern");
		break;
	}
	free(list);
}

/* The options' integer parser (common/argparse.c); the message is the parameter's own. */
static bool is_int_in_range(const char *value, long min, long max)
{
	char *why = NULL;
	long v;
	bool ok = hb_parse_long("", value, min, max, &v, &why) == 0;

	free(why);
	return ok;
}

static bool is_choice(char *const *choices, const char *value)
{
	return hb_strv_contains(choices, value);
}

/* Every item a choice, none empty, none twice. */
static bool is_choice_list(char *const *choices, const char *value)
{
	size_t len = strlen(value);
	char *copy, *save = NULL;
	char **items;
	size_t n = 0;
	bool ok;

	if (!len || value[0] == ',' || value[len - 1] == ',' || strstr(value, ",,"))
		return false;
	copy = xstrdup(value);
	items = xcalloc(len + 1, sizeof(*items));
	for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save))
		items[n++] = item;
	ok = true;
	for (size_t i = 0; i < n && ok; i++) {
		ok = is_choice(choices, items[i]);
		for (size_t j = 0; j < i && ok; j++)
			ok = strcmp(items[i], items[j]) != 0;
	}
	free(items);
	free(copy);
	return ok;
}

/* 1 match, 0 no match, -1 the workload's pattern does not compile. */
static int matches_pattern(const char *pattern, const char *value)
{
	char *anchored = xasprintf("^(%s)$", pattern);
	regex_t re;
	int ok = -1;

	if (regcomp(&re, anchored, REG_EXTENDED | REG_NOSUB) == 0) {
		ok = regexec(&re, value, 0, NULL, 0) == 0;
		regfree(&re);
	}
	free(anchored);
	return ok;
}

char *workload_param_check(const struct workload_param *p, const char *value)
{
	bool ok;

	switch (p->type) {
	case PARAM_INT:
		ok = (p->allow_auto && !strcmp(value, "auto")) || is_int_in_range(value, p->min, p->max);
		break;
	case PARAM_CHOICE:
		ok = is_choice(p->choices, value);
		break;
	case PARAM_LIST:
		ok = is_choice_list(p->choices, value);
		break;
	case PARAM_PATH:
		ok = !strcmp(value, p->default_value) || hb_is_dir(value) || hb_is_file(value);
		break;
	default: {
		int match = matches_pattern(p->pattern, value);
		if (match < 0)
			return xasprintf("the workload's pattern '%s' does not compile", p->pattern);
		ok = match;
		break;
	}
	}
	if (ok)
		return NULL;
	if (!p->accepted)
		return xasprintf("bad value '%s'", value);
	return xasprintf("bad value '%s' (accepted: %s)", value, p->accepted);
}

static char *param_keys(const struct workload *w)
{
	char **keys = xcalloc(w->nparams + 1, sizeof(*keys));
	char *joined;

	for (size_t i = 0; i < w->nparams; i++)
		keys[i] = w->params[i].key;
	joined = w->nparams ? workload_join(keys, ", ") : xstrdup("none: it has no parameters");
	free(keys);
	return joined;
}

int workload_set_param(struct workload *w, const char *key, const char *value, char **why)
{
	struct workload_param *p = workload_find_param(w, key);
	char *keys, *reason;

	if (!p) {
		keys = param_keys(w);
		*why = xasprintf("--param %s.%s: unknown parameter '%s' of workload %s (accepted: %s)",
				 w->name, key, key, w->name, keys);
		free(keys);
		return -1;
	}
	if ((reason = workload_param_check(p, value))) {
		*why = xasprintf("--param %s.%s: %s", w->name, key, reason);
		free(reason);
		return -1;
	}
	free(p->value);
	p->value = xstrdup(value);
	return 0;
}

static char *not_being_run(struct workload *const *ws, size_t n, const char *spec,
			   const char *name)
{
	char **names = xcalloc(n + 1, sizeof(*names));
	char *list, *why;

	for (size_t i = 0; i < n; i++)
		names[i] = ws[i]->name;
	list = n ? workload_join(names, ", ") : xstrdup("none");
	why = xasprintf("--param %s: workload '%s' is not being run (accepted: %s)", spec, name, list);
	free(list);
	free(names);
	return why;
}

int workload_apply_param(struct workload *const *ws, size_t n, const char *spec, char **why)
{
	const char *dot = strchr(spec, '.'), *eq = strchr(spec, '=');
	char *name, *key;
	int rc = -1;

	if (!dot || !eq || dot > eq || dot == spec || eq == dot + 1) {
		*why = xasprintf("--param: bad value '%s' (accepted: WORKLOAD.KEY=VALUE, e.g. "
				 "hackbench.groups=4)", spec);
		return -1;
	}
	name = xstrndup(spec, (size_t)(dot - spec));
	key = xstrndup(dot + 1, (size_t)(eq - dot - 1));
	for (size_t i = 0; i < n && rc < 0; i++)
		if (!strcmp(ws[i]->name, name))
			rc = workload_set_param(ws[i], key, eq + 1, why) < 0 ? -2 : 0;
	if (rc == -1)
		*why = not_being_run(ws, n, spec, name);
	free(name);
	free(key);
	return rc < 0 ? -1 : 0;
}

const char *workload_param(const struct workload *w, const char *key)
{
	const struct workload_param *p = workload_find_param(w, key);

	if (!p) /* the workload's C code asks for what its ini does not declare: a bug */
		hb_fatal("workload %s: parameter '%s' is not declared in its %s", w->name, key,
			 WORKLOAD_INI);
	return p->value;
}

long workload_param_long(const struct workload *w, const char *key, long auto_value)
{
	const char *v = workload_param(w, key);

	if (!strcmp(v, "auto"))
		return auto_value;
	return strtol(v, NULL, 10); /* validated when set */
}

json_object *workload_params_json(const struct workload *w)
{
	json_object *o = json_object_new_object();

	for (size_t i = 0; i < w->nparams; i++)
		json_object_object_add(o, w->params[i].key, json_object_new_string(w->params[i].value));
	return o;
}
