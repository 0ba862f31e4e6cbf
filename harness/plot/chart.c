#include "plot/chart.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/spawn.h"
#include "common/xalloc.h"

char *chart_file_name(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	for (char *p = s; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *p))
			*p = '_';
	return s;
}

#define CHART_MAX_PX 32000

FILE *chart_open_data(const char *out_dir, const struct chart *c)
{
	char *path = xasprintf("%s/%s.dat", out_dir, c->base);
	FILE *f = hb_fopen_nofollow(path, "w");

	if (!f)
		hb_error("cannot write %s: %s", path, strerror(errno));
	free(path);
	return f;
}

/* A gnuplot single-quoted string: only ' is special, written twice. */
static void gp_string(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		if (*s != '\n')
			fputc(*s, f);
	}
	fputc('\'', f);
}

static void gp_var(FILE *f, const char *name, const char *value)
{
	fprintf(f, "%s = ", name);
	gp_string(f, value);
	fputc('\n', f);
}

/* Appends plots/<name>.gp to f. */
static int append_template(FILE *f, const char *name)
{
	char *path = xasprintf("%s/plots/%s.gp", hb_source_dir(), name);
	char *text = hb_read_file(path, NULL);

	if (!text) {
		hb_error("cannot read gnuplot template %s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	fprintf(f, "\n# ---- from plots/%s.gp ----\n%s", name, text);
	free(text);
	free(path);
	return 0;
}

static void write_variables(FILE *f, const struct chart *c, const char *formats)
{
	char *dat = xasprintf("%s.dat", c->base);

	fprintf(f, "# Drawn by `harness plot`; edit and rerun `gnuplot %s.gp` in this folder.\n",
		c->base);
	gp_var(f, "datafile", dat);
	gp_var(f, "outbase", c->base);
	gp_var(f, "formats", formats);
	gp_var(f, "chart_title", c->title);
	gp_var(f, "xlabel_text", c->xlabel);
	gp_var(f, "ylabel_text", c->ylabel);
	if (c->xtics)
		gp_var(f, "xtics_spec", c->xtics);
	/* Cairo refuses a surface wider than 32767 pixels (thousands of variants ask for more):
	 * the chart is then crowded, not missing. */
	fprintf(f, "chart_width = %d\nchart_height = %d\nchart_bmargin = %d\nall_positive = %d\n",
		c->width ? (c->width < CHART_MAX_PX ? c->width : CHART_MAX_PX) : 900,
		c->height ? (c->height < CHART_MAX_PX ? c->height : CHART_MAX_PX) : 560,
		c->bmargin ? c->bmargin : -1, c->all_positive);
	fprintf(f, "nseries = %zu\narray series_titles[%zu] = [", c->nseries, c->nseries);
	for (size_t i = 0; i < c->nseries; i++) {
		fputs(i ? ", " : "", f);
		gp_string(f, c->series[i]);
	}
	fputs("]\n", f);
	free(dat);
}

static int write_script(const struct chart *c, const char *path, const char *formats)
{
	FILE *f = hb_fopen_nofollow(path, "w");
	int rc;

	if (!f) {
		hb_error("cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	write_variables(f, c, formats);
	rc = append_template(f, "common") < 0 || append_template(f, c->template) < 0 ? -1 : 0;
	if (fclose(f) != 0 && rc == 0) {
		hb_error("cannot write %s: %s", path, strerror(errno));
		rc = -1;
	}
	return rc;
}

/* gnuplot's messages go to gnuplot.log in the output folder; on failure its tail is shown. */
static int run_gnuplot(const char *out_dir, const char *script)
{
	char *log = xasprintf("%s/gnuplot.log", out_dir);
	char *argv[] = { "gnuplot", (char *)script, NULL };
	struct spawn_opts o = { .cwd = out_dir, .stdout_path = log, .stderr_path = "=stdout",
				.append = true, .stdin_null = true };
	int rc = hb_run(argv, &o);

	if (rc != 0) {
		char *text = hb_read_file_nofollow(log, NULL);
		hb_error("gnuplot failed on %s/%s (exit %d); its last messages:\n%s", out_dir, script, rc,
			 text ? hb_tail_lines(text, 5) : "(no log)");
		free(text);
	}
	free(log);
	return rc == 0 ? 0 : -1;
}

int chart_render(const struct chart *c, const char *out_dir, const char *formats)
{
	char *script = xasprintf("%s.gp", c->base);
	char *path = xasprintf("%s/%s", out_dir, script);
	int rc = write_script(c, path, formats);

	if (rc == 0)
		rc = run_gnuplot(out_dir, script);
	free(path);
	free(script);
	return rc;
}

void chart_free(struct chart *c)
{
	free(c->base);
	free(c->title);
	free(c->xlabel);
	free(c->ylabel);
	for (size_t i = 0; i < c->nseries; i++)
		free(c->series[i]);
	free(c->series);
	free(c->xtics);
	memset(c, 0, sizeof(*c));
}
