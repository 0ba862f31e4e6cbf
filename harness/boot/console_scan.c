#include "boot/console_scan.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

#define MAX_QUOTED 4

static const char *const crash_markers[] = {
	"Kernel panic - not syncing",
	"Oops:",
	"BUG:",
	"kernel BUG at",
	"general protection fault",
	"Unable to handle kernel",
};

/* Skips "[    1.234567] " and trailing "\r". */
static char *clean_line(const char *line, size_t len)
{
	if (len && line[0] == '[') {
		const char *close = memchr(line, ']', len);
		if (close) {
			len -= (size_t)(close + 1 - line);
			line = close + 1;
			while (len && *line == ' ') {
				line++;
				len--;
			}
		}
	}
	while (len && (line[len - 1] == '\r' || line[len - 1] == ' '))
		len--;
	return xstrndup(line, len);
}

static bool is_crash_line(const char *line)
{
	for (size_t i = 0; i < sizeof(crash_markers) / sizeof(crash_markers[0]); i++)
		if (strstr(line, crash_markers[i]))
			return true;
	return false;
}

char *console_find_crash(const char *text)
{
	char *out = NULL;
	size_t out_len = 0;
	FILE *f = open_memstream(&out, &out_len);
	int quoted = 0;

	for (const char *p = text; p && *p && quoted < MAX_QUOTED;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = clean_line(p, len);
		if (is_crash_line(line))
			fprintf(f, "%s%s", quoted++ ? " | " : "", line);
		free(line);
		p = nl ? nl + 1 : NULL;
	}
	fclose(f);
	if (!quoted) {
		free(out);
		return NULL;
	}
	return out;
}

char *console_last_line(const char *text)
{
	const char *best = NULL;
	size_t best_len = 0;

	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len > 1 || (len == 1 && *p != '\r')) {
			best = p;
			best_len = len;
		}
		p = nl ? nl + 1 : NULL;
	}
	return best ? clean_line(best, best_len) : NULL;
}
