/* Reading the CSV with libcsv: fields arrive through callbacks. The file is fed to the
 * parser one physical line at a time so every error can name its line. */
#include "import/import.h"

#include <csv.h>
#include <stdarg.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "common/log.h"
#include "common/termsafe.h"
#include "common/progress.h"
#include "common/xalloc.h"

enum column { COL_VARIANT, COL_WORKLOAD, COL_METRIC, COL_VALUE, COL_UNIT, COL_CORES, COL_REP,
	      COL_BOOT, COL_LOWER, NCOLUMNS };
static const char *const column_names[NCOLUMNS] = { "variant", "workload", "metric", "value", "unit",
	"cores", "rep", "boot", "lower_is_better" };
#define NREQUIRED 4 /* the first four */

struct reader {
	const char *path;
	struct result_set *rs; /* NULL: checking pass */
	long line;
	char **fields;
	size_t nfields, cap;
	char **header;
	size_t nheader;
	int where[NCOLUMNS]; /* header index of each known column, -1 when absent */
	long rows;
	int status;          /* the first error's: HB_EXIT_USAGE or HB_EXIT_FAIL; 0 */
	char *why;           /* its one line; the rest of the file is skipped */
};

/* Records the first error (bad input unless status says otherwise); later ones are its
 * consequences. */
__attribute__((format(printf, 3, 4))) static void refuse(struct reader *r, int status,
							  const char *fmt, ...)
{
	va_list ap;

	if (r->why)
		return;
	va_start(ap, fmt);
	r->why = xvasprintf(fmt, ap);
	va_end(ap);
	r->status = status;
}

static void on_field(void *data, size_t len, void *ctx)
{
	struct reader *r = ctx;

	r->fields = xgrow(r->fields, &r->cap, r->nfields + 1, sizeof(char *));
	r->fields[r->nfields++] = xstrndup(data ? data : "", data ? len : 0);
}

static void clear_fields(struct reader *r)
{
	for (size_t i = 0; i < r->nfields; i++)
		free(r->fields[i]);
	r->nfields = 0;
}

static void take_header(struct reader *r)
{
	for (int c = 0; c < NCOLUMNS; c++)
		r->where[c] = -1;
	for (size_t i = 0; i < r->nfields; i++) {
		int known = -1;
		for (int c = 0; c < NCOLUMNS; c++)
			if (!strcasecmp(r->fields[i], column_names[c]))
				known = c;
		if (known >= 0 && r->where[known] >= 0)
			refuse(r, HB_EXIT_USAGE, "%s:%ld: column %zu: '%s' appears twice in the header",
			       r->path, r->line, i + 1, r->fields[i]);
		if (known >= 0)
			r->where[known] = (int)i;
		else if (!r->rs)
			hb_warn("%s:%ld: column %zu: ignoring unknown column '%s'", r->path, r->line, i + 1,
				r->fields[i]);
	}
	for (int c = 0; c < NREQUIRED; c++)
		if (r->where[c] < 0)
			refuse(r, HB_EXIT_USAGE, "%s:%ld: missing column '%s' (required: variant, "
			       "workload, metric, value; optional: unit, cores, rep, boot, "
			       "lower_is_better)", r->path, r->line, column_names[c]);
	r->header = r->fields;
	r->nheader = r->nfields;
	r->fields = NULL;
	r->nfields = r->cap = 0;
}

static const char *field(const struct reader *r, enum column c)
{
	return r->where[c] >= 0 ? r->fields[r->where[c]] : "";
}

static void bad_value(struct reader *r, enum column c, const char *accepted)
{
	refuse(r, HB_EXIT_USAGE, "%s:%ld: column %d (%s): bad value '%s' (accepted: %s)", r->path,
	       r->line, r->where[c] + 1, column_names[c], field(r, c), accepted);
}

static double number_at(struct reader *r)
{
	const char *s = field(r, COL_VALUE);
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v))
		bad_value(r, COL_VALUE, "a finite number");
	return v;
}

/* cores, rep, boot: empty means absent (-1). */
static int count_at(struct reader *r, enum column c, long min)
{
	const char *s = field(r, c);
	char *end;
	long v;

	if (!*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end || errno || v < min || v > INT_MAX)
		bad_value(r, c, min ? "empty or a whole number from 1" : "empty or a whole number from 0");
	return (int)v;
}

static bool direction_at(struct reader *r)
{
	static const char *const yes[] = { "", "true", "1", "yes", NULL };
	static const char *const no[] = { "false", "0", "no", NULL };
	const char *s = field(r, COL_LOWER);

	for (int i = 0; yes[i]; i++)
		if (!strcasecmp(s, yes[i]))
			return true;
	for (int i = 0; no[i]; i++)
		if (!strcasecmp(s, no[i]))
			return false;
	bad_value(r, COL_LOWER, "true, false, 1, 0, yes, no, or empty for true");
	return true;
}

static void take_row(struct reader *r)
{
	struct sample s;

	if (r->nfields != r->nheader) {
		refuse(r, HB_EXIT_USAGE, "%s:%ld: %zu fields, but the header has %zu columns", r->path,
		       r->line, r->nfields, r->nheader);
		return;
	}
	/* Names end up in terminals, gnuplot .dat files (a tab or newline splits a row, a
	 * leading '#' makes gnuplot drop it) and report tables. */
	for (int c = 0; c < NREQUIRED - 1 && !r->why; c++)
		if (!*field(r, c) || hb_has_control(field(r, c)) || field(r, c)[0] == '#')
			bad_value(r, c, "a non-empty name without control characters, not starting with '#'");
	if (!r->why && hb_has_control(field(r, COL_UNIT)))
		bad_value(r, COL_UNIT, "a unit without control characters");
	s = (struct sample){ .variant = field(r, COL_VARIANT), .workload = field(r, COL_WORKLOAD),
			     .metric = field(r, COL_METRIC), .unit = field(r, COL_UNIT),
			     .value = number_at(r), .cores = count_at(r, COL_CORES, 1),
			     .rep = count_at(r, COL_REP, 0), .boot = count_at(r, COL_BOOT, 0),
			     .lower_is_better = direction_at(r) };
	if (r->why)
		return;
	r->rows++;
	if (r->rs && rs_append(r->rs, &s) < 0)
		refuse(r, HB_EXIT_FAIL, "import stopped after %ld rows; %s holds them", r->rows - 1,
		       rs_dir(r->rs));
}

static void on_row_end(int terminator, void *ctx)
{
	struct reader *r = ctx;

	(void)terminator;
	if (!r->header && !r->why)
		take_header(r);
	else if (!r->why)
		take_row(r);
	clear_fields(r);
}

/* A '#' line is a comment only where a row could start, not inside a quoted field. */
static bool is_comment(const struct reader *r, const struct csv_parser *p, const char *line)
{
	return line[0] == '#' && r->nfields == 0 && !p->quoted && p->entry_pos == 0;
}

static void feed(struct reader *r, struct csv_parser *p, FILE *f, struct progress *pr)
{
	char *line = NULL;
	size_t cap = 0, done = 0;
	ssize_t len;
	double last = 0;

	while (!r->why && (len = getline(&line, &cap, f)) >= 0) {
		r->line++;
		done += (size_t)len;
		if (is_comment(r, p, line))
			continue;
		if (csv_parse(p, line, (size_t)len, on_field, on_row_end, r) != (size_t)len)
			refuse(r, HB_EXIT_USAGE, "%s:%ld: malformed CSV (%s; accepted: RFC 4180 quoting)",
			       r->path, r->line, csv_strerror(csv_error(p)));
		if (pr && hb_now() - last > 1) {
			progress_update(pr, done >> 10, r->rs ? "writing" : "checking", -1);
			last = hb_now();
		}
	}
	free(line);
	if (!r->why && csv_fini(p, on_field, on_row_end, r) != 0)
		refuse(r, HB_EXIT_USAGE, "%s:%ld: a quoted field is never closed (accepted: RFC 4180 "
		       "quoting)", r->path, r->line);
}

#define PROGRESS_MIN_BYTES (8L << 20) /* smaller files finish before a progress line helps */

int import_csv(const char *path, struct result_set *rs, long *rows, char **why)
{
	struct reader r = { .path = path, .rs = rs };
	struct csv_parser p;
	struct progress pr;
	struct stat st;
	FILE *f = fopen(path, "re");
	bool show = f && fstat(fileno(f), &st) == 0 && st.st_size >= PROGRESS_MIN_BYTES;

	if (!f) {
		*why = xasprintf("import: cannot read '%s': %s (accepted: a readable CSV file)", path,
				 strerror(errno));
		return HB_EXIT_USAGE;
	}
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
		hb_fatal("out of memory starting the CSV parser");
	if (show)
		progress_start(&pr, rs ? "import" : "import check", (size_t)(st.st_size >> 10));
	feed(&r, &p, f, show ? &pr : NULL);
	if (show)
		progress_finish(&pr);
	csv_free(&p);
	fclose(f);
	if (!r.header)
		refuse(&r, HB_EXIT_USAGE, "import: %s: empty file (accepted: a CSV whose first line "
		       "names the columns variant,workload,metric,value)", path);
	if (!r.rows)
		refuse(&r, HB_EXIT_USAGE, "import: %s: no data rows after the header (accepted: at "
		       "least one row of values)", path);
	for (size_t i = 0; i < r.nheader; i++)
		free(r.header[i]);
	free(r.header);
	clear_fields(&r);
	free(r.fields);
	*rows = r.rows;
	*why = r.why;
	return r.status;
}
