/* Small readers of "key value" lines, shared by the workloads' parsers. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "workload/parser.h"

char *workload_line_value(const char *text, const char *key)
{
	size_t klen = strlen(key);

	for (const char *line = text; line && *line; line = strchr(line, '\n')) {
		if (*line == '\n' && !*++line)
			break;
		if (strncmp(line, key, klen) || (line[klen] != ' ' && line[klen] != '\t'))
			continue;
		const char *v = line + klen;
		while (*v == ' ' || *v == '\t')
			v++;
		size_t len = strcspn(v, "\n");
		while (len && isspace((unsigned char)v[len - 1]))
			len--;
		return xstrndup(v, len);
	}
	return NULL;
}

bool workload_line_number(const char *text, const char *key, double *out)
{
	char *v = workload_line_value(text, key), *end;
	bool ok;

	if (!v)
		return false;
	errno = 0;
	*out = strtod(v, &end);
	ok = !errno && end != v && !*end && isfinite(*out);
	free(v);
	return ok;
}

char *workload_last_line(const char *text)
{
	const char *end = text + strlen(text), *start;

	while (end > text && isspace((unsigned char)end[-1]))
		end--;
	start = end;
	while (start > text && start[-1] != '\n')
		start--;
	return xstrndup(start, (size_t)(end - start));
}

/* Reads every line's value into values[]: the index of the first missing, non-numeric or
 * negative one, or n when all are good. */
static size_t read_seconds(const char *out, const struct workload_seconds_line *lines, size_t n,
			   double *values)
{
	for (size_t i = 0; i < n; i++)
		if (!workload_line_number(out, lines[i].key, &values[i]) || values[i] < 0)
			return i;
	return n;
}

int workload_emit_seconds(const char *out, const struct workload_seconds_line *lines, size_t n,
			  const char *program, metric_emit_fn emit, void *ctx, char **why)
{
	double *values = xcalloc(n, sizeof(*values));
	size_t bad = read_seconds(out, lines, n, values);

	/* All or nothing: a rep with one timing missing must not leave the others behind. */
	if (bad < n)
		*why = xasprintf("no '%s <seconds>' line in %s's output", lines[bad].key, program);
	else
		for (size_t i = 0; i < n; i++)
			emit(ctx, lines[i].metric, values[i]);
	free(values);
	return bad < n ? -1 : 0;
}
