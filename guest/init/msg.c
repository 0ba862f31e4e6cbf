/* The init's messages: a failure's reason (why buffers), the console log, and the
 * blocking write every message and port line goes through. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "init.h"

void init_set_why(char why[INIT_WHY_MAX], int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(why, INIT_WHY_MAX, fmt, ap);
	va_end(ap);
	if (err && n >= 0 && n < INIT_WHY_MAX)
		snprintf(why + n, INIT_WHY_MAX - (size_t)n, ": %s", strerror(err));
}

/* The console is only a log for humans reading console.log; results never go here. */
void init_console_msg(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n = snprintf(line, sizeof(line), "hardbench-init: ");

	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(line) - 1)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	init_write_all(2, line, (size_t)n);
}

void init_write_all(int fd, const char *buf, size_t len)
{
	while (len && fd >= 0) {
		ssize_t n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		buf += n;
		len -= (size_t)n;
	}
}
