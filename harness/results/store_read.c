/* Result-set readers. Samples are streamed line by line: a report over a million samples
 * holds one line at a time. A line that is not a valid sample is skipped with a warning
 * naming file and line, so one torn write never hides the rest of a run. */
#include "results/store.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "common/fileutil.h"
#include "common/json.h"
#include "common/kernel_line.h"
#include "common/log.h"
#include "common/termsafe.h"
#include "common/paths.h"
#include "common/progress.h"
#include "common/xalloc.h"
#include "version.h"

/* A name with control characters, or starting with '#' (gnuplot's comment), is refused as
 * the importer refuses it: a set can come from anywhere (merge, a hand-made file). */
static bool get_name(json_object *o, const char *key, const char **out, const char **why)
{
	json_object *v;
	const char *name;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string) ||
	    !*(name = json_object_get_string(v)) || *name == '#' || hb_has_control(name)) {
		*why = key;
		return false;
	}
	*out = json_object_get_string(v);
	return true;
}

/* cores, boot, rep: absent or null -> -1; otherwise a non-negative integer. */
static bool get_count(json_object *o, const char *key, int *out)
{
	json_object *v;

	*out = -1;
	if (!json_object_object_get_ex(o, key, &v) || !v)
		return true;
	if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0 ||
	    json_object_get_int64(v) > 1000000000)
		return false;
	*out = (int)json_object_get_int64(v);
	return true;
}

/* Fills s from a parsed line. NULL, or a short reason the line is not a sample. */
static const char *to_sample(json_object *o, struct sample *s)
{
	json_object *v;
	const char *missing = NULL;

	if (!json_object_is_type(o, json_type_object))
		return "not a JSON object";
	if (!get_name(o, "variant", &s->variant, &missing) ||
	    !get_name(o, "workload", &s->workload, &missing) ||
	    !get_name(o, "metric", &s->metric, &missing))
		return missing; /* the key's name is the reason, see report_bad_line */
	if (!json_object_object_get_ex(o, "value", &v) ||
	    !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
		return "value";
	s->value = json_object_get_double(v);
	if (!isfinite(s->value))
		return "value";
	s->unit = json_object_object_get_ex(o, "unit", &v) && json_object_is_type(v, json_type_string)
			  ? json_object_get_string(v) : "";
	s->lower_is_better = !json_object_object_get_ex(o, "lower_is_better", &v) || !v ||
			     json_object_get_boolean(v);
	s->clock = json_object_object_get_ex(o, "clock", &v) && json_object_is_type(v, json_type_string)
			   ? json_object_get_string(v) : NULL;
	s->kernel_line = json_object_object_get_ex(o, "kernel_line", &v) &&
			 json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
	if (!get_count(o, "cores", &s->cores))
		return "cores";
	if (!get_count(o, "boot", &s->boot))
		return "boot";
	if (!get_count(o, "rep", &s->rep))
		return "rep";
	return NULL;
}

static json_object *parse_line(json_tokener *tok, const char *line, size_t len, const char **why)
{
	json_object *o;

	json_tokener_reset(tok);
	o = json_tokener_parse_ex(tok, line, (int)len);
	if (!o) {
		*why = json_tokener_get_error(tok) == json_tokener_continue
			       ? "cut short" : "invalid JSON";
		return NULL;
	}
	if (json_tokener_get_parse_end(tok) < len &&
	    line[json_tokener_get_parse_end(tok) + strspn(line + json_tokener_get_parse_end(tok), " \t\r")]) {
		json_object_put(o);
		*why = "text after the JSON object";
		return NULL;
	}
	return o;
}

/* A file of garbage would otherwise print a warning per line. */
#define MAX_LINE_WARNINGS 20

static void report_bad_line(const char *path, long lineno, const char *why, bool is_field,
			    long nbad)
{
	if (nbad > MAX_LINE_WARNINGS)
		return;
	if (nbad == MAX_LINE_WARNINGS)
		hb_warn("%s:%ld: skipped corrupt line; more corrupt lines are counted, not shown",
			path, lineno);
	else if (is_field)
		hb_warn("%s:%ld: skipped corrupt line (missing or bad \"%s\")", path, lineno, why);
	else
		hb_warn("%s:%ld: skipped corrupt line (%s)", path, lineno, why);
}

static bool is_blank(const char *line)
{
	return !line[strspn(line, " \t\r\n")];
}

/* Progress in MiB read, for files big enough to take seconds. */
static bool progress_begin(struct progress *pr, FILE *f, const char *label)
{
	struct stat st;

	if (!label || fstat(fileno(f), &st) < 0 || st.st_size < RS_PROGRESS_MIN_BYTES)
		return false;
	progress_start(pr, label, (size_t)(st.st_size >> 20));
	return true;
}

static void progress_tick(struct progress *pr, FILE *f, double *last)
{
	double now = hb_now();

	if (now - *last < 1)
		return;
	*last = now;
	progress_update(pr, (size_t)(ftell(f) >> 20), "MiB", -1);
}

long rs_read_samples(const char *dir, rs_sample_cb cb, void *ctx, long *skipped)
{
	return rs_read_samples_progress(dir, cb, ctx, skipped, NULL);
}

long rs_read_samples_progress(const char *dir, rs_sample_cb cb, void *ctx, long *skipped,
			      const char *label)
{
	char *path = hb_path_join(dir, RS_SAMPLES_FILE);
	FILE *f = hb_fopen_nofollow(path, "r");
	json_tokener *tok;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	long lineno = 0, good = 0, bad = 0;
	struct progress pr;
	bool show;
	double last = 0;

	if (!f) {
		hb_error("cannot read %s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	show = progress_begin(&pr, f, label);
	tok = json_tokener_new();
	while ((len = getline(&line, &cap, f)) >= 0) {
		const char *why = NULL;
		struct sample s = { 0 };
		json_object *o;

		lineno++;
		if (show && !(lineno & 0xffff))
			progress_tick(&pr, f, &last);
		if (is_blank(line))
			continue;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		o = parse_line(tok, line, (size_t)len, &why);
		if (o && (why = to_sample(o, &s)) != NULL) {
			report_bad_line(path, lineno, why, true, ++bad);
		} else if (!o) {
			report_bad_line(path, lineno, why, false, ++bad);
		} else {
			good++;
			if (cb(&s, ctx)) {
				json_object_put(o);
				break;
			}
		}
		json_object_put(o);
	}
	if (show) {
		progress_update(&pr, pr.total, "MiB", 0);
		progress_finish(&pr);
	}
	json_tokener_free(tok);
	free(line);
	fclose(f);
	free(path);
	if (skipped)
		*skipped = bad;
	return good;
}

json_object *rs_read_meta(const char *dir)
{
	char *path = hb_path_join(dir, RS_META_FILE);
	char *text = hb_read_file_nofollow(path, NULL);
	json_object *meta = text ? json_tokener_parse(text) : NULL;

	if (text && !json_object_is_type(meta, json_type_object)) {
		hb_warn("%s is not a JSON object; ignoring it", path);
		json_object_put(meta);
		meta = NULL;
	}
	free(text);
	free(path);
	return meta;
}

char *rs_new_run_id(const char *tag)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	char *id, *p;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	if (!tag || !*tag)
		return xstrdup(stamp);
	id = xasprintf("%s-%s", stamp, tag);
	for (p = id + strlen(stamp) + 1; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *p))
			*p = '-';
	return id;
}

const char *rs_meta_time_now(char *buf, size_t size)
{
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%S%z", &tm);
	return buf;
}

json_object *rs_meta_new(char *const argv[], json_object *host)
{
	json_object *meta = json_object_new_object();
	json_object *cmd = json_object_new_array();
	char created[64];

	rs_meta_time_now(created, sizeof(created));
	for (size_t i = 0; argv && argv[i]; i++)
		json_object_array_add(cmd, json_object_new_string(argv[i]));
	json_object_object_add(meta, RS_META_VERSION, json_object_new_string(HB_VERSION));
	json_object_object_add(meta, RS_META_CREATED, json_object_new_string(created));
	json_object_object_add(meta, RS_META_COMMAND, cmd);
	if (host)
		json_object_object_add(meta, RS_META_HOST, host);
	return meta;
}

const char *sample_clock(const struct sample *s)
{
	return s->clock ? s->clock : "host";
}

const char *sample_line(const struct sample *s)
{
	return s->kernel_line ? s->kernel_line : HB_DEFAULT_LINE;
}

json_object *rs_meta_line_kernels(json_object *meta, const char *line)
{
	json_object *by_line = hb_json_get(meta, "kernels_by_line");

	return by_line ? hb_json_get(by_line, line) : hb_json_get(meta, "kernels");
}
