#include "plot/chart.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
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

FILE *chart_open_data(const struct chart_dir *d, const struct chart *c)
{
	char *name = xasprintf("%s.dat", c->base);
	FILE *f = hb_fopen_at(d->fd, name, "w");

	if (!f)
		hb_error("cannot write %s/%s: %s", d->path, name, strerror(errno));
	free(name);
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

/* The script: variables, then (for gnuplot only) overrides, then the templates. */
static char *script_text(const struct chart *c, const char *formats, const char *overrides)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	write_variables(f, c, formats);
	fputs(overrides ? overrides : "", f);
	rc = append_template(f, "common") < 0 || append_template(f, c->template) < 0 ? -1 : 0;
	fclose(f);
	if (rc < 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* gnuplot's messages go to gnuplot.log in the output folder; on failure its tail is shown. */
static void show_log_tail(const struct chart_dir *d, const char *base, int rc)
{
	int fd = openat(d->fd, "gnuplot.log", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	char *text = NULL;
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	size_t cap = 0;

	if (f && getdelim(&text, &cap, '\0', f) < 0) {
		free(text);
		text = NULL;
	}
	if (f)
		fclose(f);
	else if (fd >= 0)
		close(fd);
	hb_error("gnuplot failed on %s/%s.gp (exit %d); its last messages:\n%s", d->path, base, rc,
		 text ? hb_tail_lines(text, 5) : "(no log)");
	free(text);
}

/* The data file as a memfd: gnuplot reopens /dev/fd/N for every plot command, and as
 * the unprivileged uid it could not reopen a file of root's that a umask left 0600. */
static int data_copy(const struct chart_dir *d, const char *name)
{
	int fd = openat(d->fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), copy = -1, e;
	size_t len;
	char *text = fd >= 0 ? hb_read_fd(fd, &len) : NULL;

	if (text && (copy = memfd_create("hardbench-gnuplot-data", MFD_CLOEXEC)) >= 0 &&
	    hb_write_all(copy, text, len) < 0) {
		close(copy);
		copy = -1;
	}
	e = errno;
	if (fd >= 0)
		close(fd);
	free(text);
	errno = e;
	return copy;
}

/* One gnuplot for one format. Nothing is handed to it by path: the script comes on its
 * standard input (a memfd), the data as /dev/fd/N of a memfd copy of the file made
 * through the checked output folder, and the image goes to its standard output, a file
 * opened here too. It runs unprivileged (common/unpriv.h): a script is code. */
static int run_gnuplot(const struct chart *c, const struct chart_dir *d, const char *fmt, int logfd)
{
	char *data = xasprintf("%s.dat", c->base), *image = xasprintf("%s.%s", c->base, fmt);
	int datafd = data_copy(d, data);
	int imgfd = openat(d->fd, image, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	int scriptfd = memfd_create("hardbench-gnuplot-script", MFD_CLOEXEC), rc = -1;
	char *overrides = xasprintf("# harness plot: data and image by descriptor\n"
				    "datafile = '/dev/fd/%d'\nout_file = ''\n", datafd);
	char *text = script_text(c, fmt, overrides);
	char *argv[] = { "gnuplot", NULL };
	int pass[] = { datafd, -1 };

	if (datafd < 0 || imgfd < 0 || scriptfd < 0) {
		hb_error("cannot open %s/%s: %s", d->path, datafd < 0 ? data : image, strerror(errno));
	} else if (text && hb_write_all(scriptfd, text, strlen(text)) == 0 &&
		   lseek(scriptfd, 0, SEEK_SET) == 0) {
		struct spawn_opts o = { .cwd = "/", .stdin_fd = scriptfd, .stdout_fd = imgfd,
					.stderr_fd = logfd, .pass_fds = pass, .unprivileged = true,
					.what = "gnuplot" };
		rc = hb_run(argv, &o);
		if (rc != 0)
			show_log_tail(d, c->base, rc);
		rc = rc == 0 ? 0 : -1;
	}
	if (datafd >= 0)
		close(datafd);
	if (imgfd >= 0)
		close(imgfd);
	if (scriptfd >= 0)
		close(scriptfd);
	free(text);
	free(overrides);
	free(image);
	free(data);
	return rc;
}

int chart_render(const struct chart *c, const struct chart_dir *d, const char *formats)
{
	/* The script a user reruns by hand in that folder (`gnuplot NAME.gp`); gnuplot itself
	 * gets its own copy from memory, never this file. */
	char *script = xasprintf("%s.gp", c->base), *text = script_text(c, formats, NULL);
	char *fmts, *save = NULL;
	int rc = -1, logfd;

	if (!text || hb_write_file_at(d->fd, script, text, strlen(text)) < 0) {
		if (text)
			hb_error("cannot write %s/%s: %s", d->path, script, strerror(errno));
		free(text);
		free(script);
		return -1;
	}
	logfd = openat(d->fd, "gnuplot.log", O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (logfd < 0)
		hb_error("cannot open %s/gnuplot.log: %s", d->path, strerror(errno));
	rc = logfd < 0 ? -1 : 0;
	fmts = xstrdup(formats);
	for (char *f = strtok_r(fmts, " ", &save); f && rc == 0; f = strtok_r(NULL, " ", &save))
		rc = run_gnuplot(c, d, f, logfd);
	if (logfd >= 0)
		close(logfd);
	free(fmts);
	free(text);
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
