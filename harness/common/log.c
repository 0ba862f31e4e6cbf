#include "log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "termsafe.h"

/* Messages quote names and guest text (a console line, a job's output): their control
 * characters never reach the terminal. */
static void vmessage(const char *prefix, const char *fmt, va_list ap)
{
	char *text;

	fflush(stdout);
	if (vasprintf(&text, fmt, ap) < 0)
		abort();
	hb_strip_controls(text, strlen(text), true);
	fprintf(stderr, "harness: %s%s\n", prefix, text);
	free(text);
}

int hb_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage("", fmt, ap);
	va_end(ap);
	return HB_EXIT_USAGE;
}

int hb_usage_why(char *why)
{
	if (why)
		hb_usage("%s", why);
	free(why);
	return HB_EXIT_USAGE;
}

int hb_fail_why(char *why)
{
	if (why)
		hb_error("%s", why);
	free(why);
	return HB_EXIT_FAIL;
}

void hb_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage("error: ", fmt, ap);
	va_end(ap);
}

void hb_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage("warning: ", fmt, ap);
	va_end(ap);
}

void hb_info(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage("", fmt, ap);
	va_end(ap);
}

void hb_fatal(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage("fatal: ", fmt, ap);
	va_end(ap);
	abort(); /* no caller can go on, and a core shows where it happened */
}
