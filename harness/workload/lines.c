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
