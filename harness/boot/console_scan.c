#include "boot/console_scan.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/xalloc.h"

#define MAX_QUOTED 4
#define CONSOLE_LINE_MAX 4096

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

/* Line by line through a fixed buffer: a log is never held in memory whole. A line longer
 * than the buffer is read as several (kernel lines are far shorter; a guest's flood of one
 * line costs nothing). */
static void scan_stream(FILE *f, char **crash, char **last)
{
	char buf[CONSOLE_LINE_MAX];
	char *out = NULL;
	size_t out_len = 0;
	FILE *quotes = crash ? open_memstream(&out, &out_len) : NULL;
	int quoted = 0;

	if (last)
		*last = NULL;
	while (fgets(buf, sizeof(buf), f)) {
		size_t len = strcspn(buf, "\n");
		char *line = clean_line(buf, len);
		if (quotes && quoted < MAX_QUOTED && is_crash_line(line))
			fprintf(quotes, "%s%s", quoted++ ? " | " : "", line);
		if (last && (len > 1 || (len == 1 && *buf != '\r'))) {
			free(*last);
			*last = line;
			line = NULL;
		}
		free(line);
	}
	if (!quotes)
		return;
	fclose(quotes);
	if (!quoted) {
		free(out);
		out = NULL;
	}
	*crash = out;
}

void console_scan_file(const char *path, char **crash, char **last)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;

	if (!f) {
		if (fd >= 0)
			close(fd);
		if (crash)
			*crash = NULL;
		if (last)
			*last = NULL;
		return;
	}
	scan_stream(f, crash, last);
	fclose(f);
}

static void scan_text(const char *text, char **crash, char **last)
{
	FILE *f = *text ? fmemopen((void *)text, strlen(text), "r") : NULL;

	if (crash)
		*crash = NULL;
	if (last)
		*last = NULL;
	if (!f)
		return;
	scan_stream(f, crash, last);
	fclose(f);
}

char *console_find_crash(const char *text)
{
	char *crash;

	scan_text(text, &crash, NULL);
	return crash;
}

char *console_last_line(const char *text)
{
	char *last;

	scan_text(text, NULL, &last);
	return last;
}
