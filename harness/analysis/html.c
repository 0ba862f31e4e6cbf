/* HTML escaping (html.h). Hand-written: what the page needs is the five character
 * references, which no packaged C library offers on its own. */
#include "analysis/html.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"

void html_text(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(*s, out);
		}
	}
}

void html_textf(FILE *out, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	html_text(out, s);
	free(s);
}

void html_id(FILE *out, const char *prefix, const char *name)
{
	fputs(prefix, out);
	for (; *name; name++)
		fputc(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_", *name)
		      ? *name : '_', out);
}

void html_table(FILE *out, const struct table *t, const char *cls)
{
	fprintf(out, "<table class=\"%s\">\n<thead><tr>", cls);
	for (size_t i = 0; i < t->ncells; i++) {
		size_t col = i % t->ncols;
		bool head = i < t->ncols;
		if (col == 0 && i)
			fputs(i == t->ncols ? "</tr></thead>\n<tbody><tr>" : "</tr>\n<tr>", out);
		fprintf(out, "<%s%s>", head ? "th scope=\"col\"" : "td", t->left[col] ? "" : " class=\"num\"");
		html_text(out, t->cells[i]);
		fprintf(out, "</%s>", head ? "th" : "td");
	}
	fputs(t->ncells > t->ncols ? "</tr></tbody>\n</table>\n" : "</tr></thead>\n</table>\n", out);
}
