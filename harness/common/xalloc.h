/* Allocation that cannot fail quietly: out of memory ends the program with a message. */
#ifndef HB_COMMON_XALLOC_H
#define HB_COMMON_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
/* Grows *p to hold at least want elements of elem bytes; *cap is updated. */
void *xgrow(void *p, size_t *cap, size_t want, size_t elem);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
__attribute__((format(printf, 1, 2))) char *xasprintf(const char *fmt, ...);
__attribute__((format(printf, 1, 0))) char *xvasprintf(const char *fmt, va_list ap);

#endif
