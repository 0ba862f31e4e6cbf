#include "xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

/* Out of memory ends the program through hb_fatal (abort): every allocation of the harness
 * is small next to the guest it boots, so failing one means the host is in trouble, and
 * handing a status back from every string copy would double the code for nothing a
 * caller could do about it. */

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		hb_fatal("out of memory allocating %zu bytes", n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		hb_fatal("out of memory allocating %zu x %zu bytes", nmemb, size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		hb_fatal("out of memory reallocating %zu bytes", n);
	return q;
}

void *xgrow(void *p, size_t *cap, size_t want, size_t elem)
{
	size_t n = *cap ? *cap : 8;
	if (want <= *cap)
		return p;
	while (n < want)
		n *= 2;
	*cap = n;
	return xrealloc(p, n * elem);
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");
	if (!p)
		hb_fatal("out of memory");
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);
	if (!p)
		hb_fatal("out of memory");
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;
	if (vasprintf(&s, fmt, ap) < 0)
		hb_fatal("out of memory");
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}
