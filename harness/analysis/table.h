/* Column-aligned tables for the text report and pipe tables for markdown. Cells are
 * collected first so that every column gets the width of its widest cell. */
#ifndef HB_ANALYSIS_TABLE_H
#define HB_ANALYSIS_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct table {
	size_t ncols;
	char **cells; /* row-major, header row first */
	size_t ncells, cap;
	bool *left;   /* per column: left-aligned (names) or right-aligned (numbers) */
};

/* headers: ncols strings; the first column is left-aligned, the others right-aligned. */
void table_init(struct table *t, size_t ncols, const char *const headers[]);
void table_set_left(struct table *t, size_t col);
/* Appends one cell; rows fill left to right. */
__attribute__((format(printf, 2, 3))) void table_cell(struct table *t, const char *fmt, ...);
void table_print_text(const struct table *t, FILE *out, const char *indent);
void table_print_markdown(const struct table *t, FILE *out);
void table_free(struct table *t);
/* One text cell of a CSV file, quoted by libcsv's writer. A cell a spreadsheet would take
 * for a formula (it begins with = + - @, a tab or a carriage return: =HYPERLINK(...))
 * gets a leading ' and stays text (OWASP's advice on CSV injection). Write numbers
 * without it: they stay numbers. */
void table_csv_text(FILE *out, const char *s);

#endif
