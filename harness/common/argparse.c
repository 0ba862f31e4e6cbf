#include "argparse.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "xalloc.h"

long hb_parse_long(const char *option, const char *value, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (errno || end == value || *end || v < min || v > max)
		hb_usage_error("%s: bad value '%s' (accepted: an integer from %ld to %ld)",
			       option, value, min, max);
	return v;
}

double hb_parse_double(const char *option, const char *value, double min, double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (errno || end == value || *end || !isfinite(v) || v < min || v > max)
		hb_usage_error("%s: bad value '%s' (accepted: a number from %g to %g)",
			       option, value, min, max);
	return v;
}

long hb_parse_size_mib(const char *option, const char *value, long min_mib, long max_mib)
{
	char *end;
	double v;
	double mult = 1;

	errno = 0;
	v = strtod(value, &end);
	if (!errno && end != value) {
		if (!strcasecmp(end, "G") || !strcasecmp(end, "GiB") || !strcasecmp(end, "GB"))
			mult = 1024;
		else if (!strcasecmp(end, "M") || !strcasecmp(end, "MiB") || !strcasecmp(end, "MB") || !*end)
			mult = 1;
		else
			v = -1;
	} else {
		v = -1;
	}
	v *= mult;
	if (v < (double)min_mib || v > (double)max_mib || !isfinite(v))
		hb_usage_error("%s: bad size '%s' (accepted: %ldM to %ldM, with suffix M or G)",
			       option, value, min_mib, max_mib);
	return (long)v;
}

int hb_parse_choice(const char *option, const char *value, const char *const choices[])
{
	char buf[256] = "";
	size_t used = 0;

	for (int i = 0; choices[i]; i++)
		if (!strcmp(value, choices[i]))
			return i;
	for (int i = 0; choices[i] && used < sizeof(buf) - 1; i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s", i ? ", " : "", choices[i]);
	hb_usage_error("%s: bad value '%s' (accepted: %s)", option, value, buf);
}

char **hb_split_list(const char *option, const char *value, size_t *count)
{
	size_t n = 1, i = 0;
	char **out;
	const char *p = value;

	for (const char *c = value; *c; c++)
		n += *c == ',';
	out = xcalloc(n + 1, sizeof(*out));
	while (1) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (len == 0)
			hb_usage_error("%s: empty item in list '%s' (accepted: comma-separated names)",
				       option, value);
		out[i++] = xstrndup(p, len);
		if (!comma)
			break;
		p = comma + 1;
	}
	if (count)
		*count = i;
	return out;
}

long *hb_parse_long_list(const char *option, const char *value, long min, long max, size_t *count)
{
	size_t n;
	char **items = hb_split_list(option, value, &n);
	long *out = xcalloc(n, sizeof(*out));

	for (size_t i = 0; i < n; i++)
		out[i] = hb_parse_long(option, items[i], min, max);
	hb_free_strv(items);
	*count = n;
	return out;
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
