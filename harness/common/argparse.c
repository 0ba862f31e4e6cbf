#include "argparse.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xalloc.h"

int hb_parse_long(const char *option, const char *value, long min, long max, long *out,
		  char **why)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (errno || end == value || *end || v < min || v > max) {
		*why = xasprintf("%s: bad value '%s' (accepted: an integer from %ld to %ld)",
				 option, value, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

int hb_parse_double(const char *option, const char *value, double min, double max,
		    double *out, char **why)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (errno || end == value || *end || !isfinite(v) || v < min || v > max) {
		*why = xasprintf("%s: bad value '%s' (accepted: a number from %g to %g)",
				 option, value, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

/* MiB per unit of the suffix, or 0 when the suffix is not one. */
static double size_unit_mib(const char *suffix)
{
	if (!strcasecmp(suffix, "G") || !strcasecmp(suffix, "GiB") || !strcasecmp(suffix, "GB"))
		return 1024;
	if (!strcasecmp(suffix, "M") || !strcasecmp(suffix, "MiB") || !strcasecmp(suffix, "MB") || !*suffix)
		return 1;
	return 0;
}

int hb_parse_size_mib(const char *option, const char *value, long min_mib, long max_mib,
		      long *out, char **why)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	v = !errno && end != value ? v * size_unit_mib(end) : -1;
	if (!size_unit_mib(end) || v < (double)min_mib || v > (double)max_mib || !isfinite(v)) {
		*why = xasprintf("%s: bad size '%s' (accepted: %ldM to %ldM, with suffix M or G)",
				 option, value, min_mib, max_mib);
		return -1;
	}
	*out = (long)v;
	return 0;
}

char *hb_join_choices(const char *const choices[])
{
	size_t len = 1;
	char *out;

	for (int i = 0; choices[i]; i++)
		len += strlen(choices[i]) + 2;
	out = xmalloc(len);
	out[0] = '\0';
	for (int i = 0; choices[i]; i++) {
		if (i)
			strcat(out, ", ");
		strcat(out, choices[i]);
	}
	return out;
}

char *hb_join_names(char *const *names)
{
	static const char *const none[] = { NULL };
	return hb_join_choices(names ? (const char *const *)names : none);
}

int hb_parse_choice(const char *option, const char *value, const char *const choices[],
		    int *out, char **why)
{
	char *list;

	for (int i = 0; choices[i]; i++)
		if (!strcmp(value, choices[i])) {
			*out = i;
			return 0;
		}
	list = hb_join_choices(choices);
	*why = xasprintf("%s: bad value '%s' (accepted: %s)", option, value, list);
	free(list);
	return -1;
}

int hb_split_list(const char *option, const char *value, char ***out, size_t *count, char **why)
{
	size_t n = 1, i = 0;
	char **items;
	const char *p = value;

	for (const char *c = value; *c; c++)
		n += *c == ',';
	items = xcalloc(n + 1, sizeof(*items));
	while (1) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (len == 0) {
			hb_free_strv(items);
			if (why) /* NULL: the caller checked the list already */
				*why = xasprintf("%s: empty item in list '%s' (accepted: comma-"
						 "separated names)", option, value);
			return -1;
		}
		items[i++] = xstrndup(p, len);
		if (!comma)
			break;
		p = comma + 1;
	}
	if (count)
		*count = i;
	*out = items;
	return 0;
}

int hb_parse_long_list(const char *option, const char *value, long min, long max, long **out,
		       size_t *count, char **why)
{
	size_t n;
	char **items;
	long *v;
	int rc = 0;

	if (hb_split_list(option, value, &items, &n, why) < 0)
		return -1;
	v = xcalloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = hb_parse_long(option, items[i], min, max, &v[i], why);
	hb_free_strv(items);
	if (rc < 0) {
		free(v);
		return -1;
	}
	*out = v;
	*count = n;
	return 0;
}

void hb_free_strv(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

size_t hb_strv_len(char *const *v)
{
	size_t n = 0;
	while (v && v[n])
		n++;
	return n;
}

bool hb_strv_contains(char *const *v, const char *s)
{
	for (size_t i = 0; v && v[i]; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

void hb_strv_append_once(char ***list, const char *s)
{
	size_t n = hb_strv_len(*list);

	if (hb_strv_contains(*list, s))
		return;
	*list = xrealloc(*list, (n + 2) * sizeof(char *));
	(*list)[n] = xstrdup(s);
	(*list)[n + 1] = NULL;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void hb_strv_sort(char **v, size_t n)
{
	qsort(v, n, sizeof(*v), compare_strings);
}

void hb_strv_push(struct hb_strv *s, char *owned)
{
	s->v = xgrow(s->v, &s->cap, s->n + 2, sizeof(*s->v));
	s->v[s->n++] = owned;
	s->v[s->n] = NULL;
}
