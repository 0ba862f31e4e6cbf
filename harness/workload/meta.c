/* workloads/<name>/workload.ini -> struct workload, read with inih. Strict: an unknown
 * section or key, a missing required key or a default that its own type rejects is an
 * error naming file and line, so a typo in metadata never silently changes a run. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/argparse.h"
#include "common/ini.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"
#include "guest/marker.h"
#include "guest/protocol.h"
#include "model/model.h"
#include "workload/internal.h"

struct load_ctx {
	struct workload *w;
	char *error;       /* the first semantic error, for the line inih reports */
	/* Keys that have no "unset" value of their own, per param / metric index. */
	bool *type_set, *source_set, *direction_set;
};

static bool marked(const bool *flags, size_t count, size_t index)
{
	return flags && index < count && flags[index];
}

static const char *const param_types[] = { "int", "choice", "list", "string", "path", NULL };
static const char *const metric_sources[] = { "output", "job.wall", "job.user", "job.sys",
					      "guest.user", "guest.sys", NULL };
#define IRQ_SOURCE_PREFIX "irq."

static int fail(struct load_ctx *c, char *msg)
{
	if (!c->error)
		c->error = msg;
	else
		free(msg);
	return 0; /* inih: stop and report this line */
}

static int index_of(const char *const list[], const char *value)
{
	for (int i = 0; list[i]; i++)
		if (!strcmp(list[i], value))
			return i;
	return -1;
}

static int parse_bool(const char *value, bool *out)
{
	if (!strcmp(value, "true"))
		*out = true;
	else if (!strcmp(value, "false"))
		*out = false;
	else
		return -1;
	return 0;
}

static int parse_number(const char *value, double *out)
{
	char *end;
	errno = 0;
	*out = strtod(value, &end);
	return errno || end == value || *end ? -1 : 0;
}

static int parse_long_value(const char *value, long *out)
{
	char *end;
	errno = 0;
	*out = strtol(value, &end, 10);
	return errno || end == value || *end ? -1 : 0;
}

/* Checked here rather than by hb_split_list, so the error names the file and line. */
static int split_items(struct load_ctx *c, const char *key, const char *value, char ***out)
{
	size_t len = strlen(value);

	if (!len || value[0] == ',' || value[len - 1] == ',' || strstr(value, ",,"))
		return fail(c, xasprintf("%s: empty item in '%s'", key, value));
	hb_free_strv(*out);
	hb_split_list(key, value, out, NULL, NULL);
	return 1;
}

static void replace(char **slot, const char *value)
{
	free(*slot);
	*slot = xstrdup(value);
}

static int workload_key(struct load_ctx *c, const char *key, const char *value)
{
	struct workload *w = c->w;

	if (!strcmp(key, "description"))
		replace(&w->description, value);
	else if (!strcmp(key, "seed"))
		replace(&w->seed, value);
	else if (!strcmp(key, "helper"))
		replace(&w->helper, value);
	else if (!strcmp(key, "sections"))
		return split_items(c, key, value, &w->sections);
	else if (!strcmp(key, "icount_not_deterministic"))
		replace(&w->icount_caveat, value);
	else if (!strcmp(key, "est_rep_s") || !strcmp(key, "est_boot_s") ||
		 !strcmp(key, "est_icount_rep_s")) {
		double *slot = !strcmp(key, "est_rep_s") ? &w->est_rep_s
			: !strcmp(key, "est_boot_s") ? &w->est_boot_s : &w->est_icount_rep_s;
		if (parse_number(value, slot) < 0 || *slot < 0)
			return fail(c, xasprintf("%s: '%s' is not a number of seconds", key, value));
	} else if (!strcmp(key, "per_test")) {
		if (parse_bool(value, &w->per_test) < 0)
			return fail(c, xasprintf("per_test: '%s' is not true or false", value));
	} else if (!strcmp(key, "primary")) {
		replace(&w->primary, value);
	} else if (!strcmp(key, "default_order")) {
		long order;
		if (parse_long_value(value, &order) < 0 || order < 1 || order > 1000)
			return fail(c, xasprintf("default_order: '%s' is not an integer from 1 to 1000", value));
		w->default_order = (int)order;
	} else if (!strcmp(key, "default_variants")) {
		return split_items(c, key, value, &w->default_variants);
	} else if (!strcmp(key, "default_kernel")) {
		replace(&w->default_kernel, value);
	} else if (!strcmp(key, "icount_params")) {
		return split_items(c, key, value, &w->icount_params);
	} else if (!strcmp(key, "icount_boots")) {
		long boots;
		if (parse_long_value(value, &boots) < 0 || boots < 2 || boots > 1000)
			return fail(c, xasprintf("icount_boots: '%s' is not an integer from 2 to 1000", value));
		w->icount_boots = (int)boots;
	} else if (!strcmp(key, "icount_cores")) {
		char *why = NULL;
		free(w->icount_cores);
		w->icount_cores = NULL;
		if (hb_parse_long_list(key, value, 1, 4096, &w->icount_cores, &w->nicount_cores, &why) < 0)
			return fail(c, why);
	} else {
		return fail(c, xasprintf("unknown key '%s' in [workload] (accepted: description, seed, "
					 "helper, sections, est_rep_s, est_boot_s, est_icount_rep_s, "
					 "icount_not_deterministic, per_test, default_order, "
					 "default_variants, default_kernel, icount_cores, icount_params, "
					 "icount_boots, primary)",
					 key));
	}
	return 1;
}

static struct workload_param *param_slot(struct load_ctx *c, const char *key)
{
	struct workload *w = c->w;
	struct workload_param *p = workload_find_param(w, key);

	if (p)
		return p;
	w->params = xrealloc(w->params, (w->nparams + 1) * sizeof(*w->params));
	p = &w->params[w->nparams++];
	*p = (struct workload_param){ .key = xstrdup(key) };
	/* keep the flag arrays as long as the params */
	c->type_set = xrealloc(c->type_set, w->nparams * sizeof(*c->type_set));
	c->type_set[w->nparams - 1] = false;
	return p;
}

static int param_limits(struct load_ctx *c, struct workload_param *p, const char *key,
			const char *value)
{
	long v;

	if (parse_long_value(value, &v) < 0)
		return fail(c, xasprintf("%s: '%s' is not an integer", key, value));
	if (!strcmp(key, "min"))
		p->min = v;
	else
		p->max = v;
	return 1;
}

static int param_key(struct load_ctx *c, const char *name, const char *key, const char *value)
{
	struct workload_param *p = param_slot(c, name);

	if (!strcmp(key, "type")) {
		int type = index_of(param_types, value);
		if (type < 0)
			return fail(c, xasprintf("type: '%s' is not int, choice, list, string or path", value));
		p->type = (enum workload_param_type)type;
		c->type_set[p - c->w->params] = true;
	} else if (!strcmp(key, "default")) {
		replace(&p->default_value, value);
	} else if (!strcmp(key, "help")) {
		replace(&p->help, value);
	} else if (!strcmp(key, "min") || !strcmp(key, "max")) {
		return param_limits(c, p, key, value);
	} else if (!strcmp(key, "auto")) {
		if (parse_bool(value, &p->allow_auto) < 0)
			return fail(c, xasprintf("auto: '%s' is not true or false", value));
	} else if (!strcmp(key, "choices")) {
		return split_items(c, key, value, &p->choices);
	} else if (!strcmp(key, "pattern")) {
		replace(&p->pattern, value);
	} else if (!strcmp(key, "accepted")) {
		replace(&p->accepted, value);
	} else {
		return fail(c, xasprintf("unknown key '%s' in [param %s] (accepted: type, default, "
					 "help, min, max, auto, choices, pattern, accepted)", key, name));
	}
	return 1;
}

static struct workload_metric *metric_slot(struct load_ctx *c, const char *name)
{
	struct workload *w = c->w;

	for (size_t i = 0; i < w->nmetrics; i++)
		if (!strcmp(w->metrics[i].name, name))
			return &w->metrics[i];
	w->metrics = xrealloc(w->metrics, (w->nmetrics + 1) * sizeof(*w->metrics));
	w->metrics[w->nmetrics] = (struct workload_metric){ .name = xstrdup(name), .marker = -1,
							.model = -1 };
	c->source_set = xrealloc(c->source_set, (w->nmetrics + 1) * sizeof(bool));
	c->direction_set = xrealloc(c->direction_set, (w->nmetrics + 1) * sizeof(bool));
	c->source_set[w->nmetrics] = c->direction_set[w->nmetrics] = false;
	return &w->metrics[w->nmetrics++];
}

/* One of metric_sources, or irq.LABEL with a label the guest protocol accepts. */
static int metric_source_of(struct load_ctx *c, struct workload_metric *m, const char *value)
{
	int source = index_of(metric_sources, value);
	const char *label = value + strlen(IRQ_SOURCE_PREFIX);

	free(m->irq_label); /* the last source line wins */
	m->irq_label = NULL;
	if (source >= 0)
		return source;
	if (!strncmp(value, IRQ_SOURCE_PREFIX, strlen(IRQ_SOURCE_PREFIX)) && hb_irq_label_ok(label)) {
		replace(&m->irq_label, label);
		return METRIC_IRQ;
	}
	fail(c, xasprintf("source: '%s' is not output, job.wall, job.user, job.sys, guest.user, "
			  "guest.sys or irq.LABEL (LABEL: a /proc/interrupts row label such as CAL, "
			  "TLB or LOC; letters, digits and _, at most %d)", value, HB_IRQ_LABEL_MAX));
	return -1;
}

static int metric_key(struct load_ctx *c, const char *name, const char *key, const char *value)
{
	struct workload_metric *m = metric_slot(c, name);
	size_t index = (size_t)(m - c->w->metrics);
	bool lower;
	int source;

	if (!strcmp(key, "unit")) {
		replace(&m->unit, value);
	} else if (!strcmp(key, "description")) {
		replace(&m->description, value);
	} else if (!strcmp(key, "lower_is_better")) {
		if (parse_bool(value, &lower) < 0)
			return fail(c, xasprintf("lower_is_better: '%s' is not true or false", value));
		m->lower_is_better = lower;
		c->direction_set[index] = true;
	} else if (!strcmp(key, "source")) {
		if ((source = metric_source_of(c, m, value)) < 0)
			return 0;
		m->source = (enum metric_source)source;
		c->source_set[index] = true;
	} else if (!strcmp(key, "marker")) {
		char *end;
		long id = strtol(value, &end, 10);
		if (!*value || *end || id < 0 || id > HB_MARK_ID_MAX)
			return fail(c, xasprintf("marker: '%s' is not a section marker id (accepted: 0 "
						 "to %d, guest/marker.h)", value, HB_MARK_ID_MAX));
		m->marker = (int)id;

	} else if (!strcmp(key, "model")) {
		enum model_scope scope;
		if (model_scope_parse(value, &scope) < 0)
			return fail(c, xasprintf("model: '%s' (accepted: all, kernel, user, none)", value));
		m->model = (int)scope;
	} else {
		return fail(c, xasprintf("unknown key '%s' in [metric %s] (accepted: unit, "
					 "lower_is_better, description, source, marker, model)", key, name));
	}
	return 1;
}

static int on_entry(void *user, const char *section, const char *key, const char *value)
{
	struct load_ctx *c = user;

	if (!strcmp(section, "workload"))
		return workload_key(c, key, value);
	if (!strncmp(section, "param ", 6) && section[6])
		return param_key(c, section + 6, key, value);
	if (!strncmp(section, "metric ", 7) && section[7])
		return metric_key(c, section + 7, key, value);
	return fail(c, xasprintf("unknown section [%s] (accepted: [workload], [param KEY], "
				 "[metric NAME])", section));
}

static char *check_param(const struct workload_param *p, bool type_set)
{
	char *why;

	if (!type_set || !p->default_value || !p->help)
		return xasprintf("[param %s] needs type, default and help", p->key);
	if ((p->type == PARAM_CHOICE || p->type == PARAM_LIST) && !p->choices)
		return xasprintf("[param %s] is a %s and needs choices", p->key, param_types[p->type]);
	if (p->type == PARAM_STRING && (!p->pattern || !p->accepted))
		return xasprintf("[param %s] is a string and needs pattern and accepted", p->key);
	if (p->type == PARAM_INT && p->min > p->max)
		return xasprintf("[param %s] has min %ld above max %ld", p->key, p->min, p->max);
	if ((why = workload_param_check(p, p->default_value))) {
		char *msg = xasprintf("[param %s]: default: %s", p->key, why);
		free(why);
		return msg;
	}
	return NULL;
}

static char *check_metric(const struct workload_metric *m, bool source_set, bool direction_set)
{
	if (!m->unit || !m->description || !source_set || !direction_set)
		return xasprintf("[metric %s] needs unit, lower_is_better, description and source", m->name);
	if (m->source != METRIC_OUTPUT && strpbrk(m->name, "*?["))
		return xasprintf("[metric %s]: only source = output metrics may be patterns", m->name);
	return NULL;
}

/* Each icount_params item is KEY=VALUE for a declared parameter, with a value it accepts. */
static char *check_icount_params(const struct workload *w)
{
	for (size_t i = 0; w->icount_params && w->icount_params[i]; i++) {
		const char *item = w->icount_params[i], *eq = strchr(item, '=');
		char *key = eq ? xstrndup(item, (size_t)(eq - item)) : NULL, *why = NULL;
		const struct workload_param *p = key ? workload_find_param(w, key) : NULL;

		if (!p)
			why = xasprintf("icount_params: '%s' is not KEY=VALUE for one of its [param KEY] "
					"sections", item);
		else if ((why = workload_param_check(p, eq + 1))) {
			char *msg = xasprintf("icount_params: %s: %s", item, why);
			free(why);
			why = msg;
		}
		free(key);
		if (why)
			return why;
	}
	return NULL;
}

/* What inih cannot see line by line: required keys and defaults that fit their type. */
static char *check_loaded(struct load_ctx *c)
{
	struct workload *w = c->w;
	char *why = NULL;

	if (!w->description || !w->seed)
		return xstrdup("[workload] needs description and seed");
	if (!w->nmetrics)
		return xstrdup("no [metric NAME] section");
	for (size_t i = 0; i < w->nparams && !why; i++) {
		if (!(why = check_param(&w->params[i], c->type_set[i])) && !w->params[i].accepted)
			workload_param_describe(&w->params[i]);
	}
	for (size_t i = 0; i < w->nmetrics && !why; i++)
		why = check_metric(&w->metrics[i], marked(c->source_set, w->nmetrics, i),
				   marked(c->direction_set, w->nmetrics, i));
	if (!why)
		why = check_icount_params(w);
	if (!why && !w->primary)
		why = xstrdup("[workload] needs primary (the metric --until-ci bounds)");
	else if (!why && !workload_find_metric(w, w->primary))
		why = xasprintf("primary: '%s' matches no [metric NAME] section", w->primary);
	return why;
}

struct workload *workload_load_path(const char *name, const char *path,
				    const struct workload_parser *parser)
{
	struct workload *w = xcalloc(1, sizeof(*w));
	struct load_ctx c = { .w = w };
	bool ok = false;
	char *slash, *why;

	w->name = xstrdup(name);
	w->dir = xstrdup(path);
	slash = strrchr(w->dir, '/');
	if (slash)
		*slash = '\0';
	w->parser = parser;

	if (hb_ini_load(path, on_entry, &c, &c.error) < 0) {
		/* said */
	} else if ((why = check_loaded(&c))) {
		hb_error("%s: %s", path, why);
		free(why);
	} else {
		for (size_t i = 0; i < w->nparams; i++)
			w->params[i].value = xstrdup(w->params[i].default_value);
		ok = true;
	}
	free(c.error);
	free(c.type_set);
	free(c.source_set);
	free(c.direction_set);
	if (ok)
		return w;
	workload_free(w);
	return NULL;
}

const struct workload_parser *workload_find_parser(const char *name)
{
	for (size_t i = 0; workload_parsers[i]; i++)
		if (!strcmp(workload_parsers[i]->name, name))
			return workload_parsers[i];
	return NULL;
}

char **workload_names(void)
{
	size_t n = 0;
	char **names;

	while (workload_parsers[n])
		n++;
	names = xcalloc(n + 1, sizeof(*names));
	for (size_t i = 0; i < n; i++)
		names[i] = xstrdup(workload_parsers[i]->name);
	hb_strv_sort(names, n);
	return names;
}

struct workload *workload_require(const char *name, char **why)
{
	const struct workload_parser *parser = workload_find_parser(name);
	struct workload *w;
	char *path;

	if (!parser) {
		char **names = workload_names();
		char *known = workload_join(names, ", ");
		hb_free_strv(names);
		*why = xasprintf("unknown workload '%s' (accepted: %s)", name, known);
		free(known);
		return NULL;
	}
	*why = NULL;
	path = xasprintf("%s/workloads/%s/" WORKLOAD_INI, hb_source_dir(), name);
	w = workload_load_path(name, path, parser);
	free(path);
	return w;
}

static void free_param(struct workload_param *p)
{
	free(p->key);
	free(p->help);
	free(p->default_value);
	free(p->value);
	hb_free_strv(p->choices);
	free(p->pattern);
	free(p->accepted);
}

void workload_free(struct workload *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nparams; i++)
		free_param(&w->params[i]);
	for (size_t i = 0; i < w->nmetrics; i++) {
		free(w->metrics[i].name);
		free(w->metrics[i].unit);
		free(w->metrics[i].description);
		free(w->metrics[i].irq_label);
	}
	free(w->params);
	free(w->metrics);
	free(w->name);
	free(w->dir);
	free(w->description);
	free(w->seed);
	free(w->primary);
	free(w->helper);
	free(w->icount_caveat);
	hb_free_strv(w->sections);
	hb_free_strv(w->default_variants);
	hb_free_strv(w->icount_params);
	free(w->default_kernel);
	free(w->icount_cores);
	free(w);
}

enum model_scope workload_metric_model(const struct workload_metric *m)
{
	if (m->model >= 0)
		return (enum model_scope)m->model;
	return model_unit_is_time(m->unit) ? MODEL_SCOPE_ALL : MODEL_SCOPE_NONE;
}

int workload_metric_marker(const struct workload_metric *m)
{
	return m->marker > 0 ? m->marker : 0;
}
