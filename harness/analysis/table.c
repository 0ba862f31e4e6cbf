#include "analysis/table.h"

#include <csv.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/termsafe.h"
#include "common/xalloc.h"

void table_init(struct table *t, size_t ncols, const char *const headers[])
{
	*t = (struct table){ .ncols = ncols };
	t->left = xcalloc(ncols, sizeof(*t->left));
	t->left[0] = true;
	for (size_t c = 0; c < ncols; c++)
		table_cell(t, "%s", headers[c]);
}

void table_set_left(struct table *t, size_t col)
{
	t->left[col] = true;
}

void table_cell(struct table *t, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	/* Names come from result sets, which may come from anywhere (merge, import). */
	hb_strip_controls(s, strlen(s), false);
	t->cells = xgrow(t->cells, &t->cap, t->ncells + 1, sizeof(*t->cells));
	t->cells[t->ncells++] = s;
}

static size_t nrows(const struct table *t)
{
	return (t->ncells + t->ncols - 1) / t->ncols;
}

static const char *cell(const struct table *t, size_t r, size_t c)
{
	size_t i = r * t->ncols + c;
	return i < t->ncells ? t->cells[i] : "";
}

static size_t width(const struct table *t, size_t c)
{
	size_t w = 0;

	for (size_t r = 0; r < nrows(t); r++)
		if (strlen(cell(t, r, c)) > w)
			w = strlen(cell(t, r, c));
	return w;
}

void table_print_text(const struct table *t, FILE *out, const char *indent)
{
	size_t *w = xcalloc(t->ncols, sizeof(*w));

	for (size_t c = 0; c < t->ncols; c++)
		w[c] = width(t, c);
	for (size_t r = 0; r < nrows(t); r++) {
		fputs(indent, out);
		for (size_t c = 0; c < t->ncols; c++) {
			int pad = (int)w[c];
			bool last = c + 1 == t->ncols;
			if (t->left[c])
				fprintf(out, "%s%-*s", c ? "  " : "", last ? 0 : pad, cell(t, r, c));
			else
				fprintf(out, "%s%*s", c ? "  " : "", pad, cell(t, r, c));
		}
		fputc('\n', out);
	}
	free(w);
}

void table_print_markdown(const struct table *t, FILE *out)
{
	for (size_t r = 0; r < nrows(t); r++) {
		fputc('|', out);
		for (size_t c = 0; c < t->ncols; c++)
			fprintf(out, " %s |", cell(t, r, c));
		fputc('\n', out);
		if (r)
			continue;
		fputc('|', out);
		for (size_t c = 0; c < t->ncols; c++)
			fputs(t->left[c] ? ":---|" : "---:|", out);
		fputc('\n', out);
	}
}

void table_free(struct table *t)
{
	for (size_t i = 0; i < t->ncells; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->left);
	memset(t, 0, sizeof(*t));
}

void table_csv_text(FILE *out, const char *s)
{
	if (*s && strchr("=+-@\t\r", *s)) {
		char *neutral = xasprintf("'%s", s);
		csv_fwrite(out, neutral, strlen(neutral));
		free(neutral);
	} else {
		csv_fwrite(out, s, strlen(s));
	}
}
