#include "run/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/xalloc.h"

static json_object *entry_to_json(const struct journal_entry *e)
{
	json_object *o = json_object_new_object();
	json_object *reps = json_object_new_array();

	for (size_t i = 0; i < e->nreps_done; i++)
		json_object_array_add(reps, json_object_new_int(e->reps_done[i]));
	json_object_object_add(o, "cell", json_object_new_string(e->cell));
	json_object_object_add(o, "status", json_object_new_string(e->ok ? "ok" : "failed"));
	json_object_object_add(o, "reps_done", reps);
	json_object_object_add(o, "seconds", json_object_new_double(e->seconds));
	if (e->cpu_seconds >= 0)
		json_object_object_add(o, "cpu_seconds", json_object_new_double(e->cpu_seconds));
	if (e->reason)
		json_object_object_add(o, "reason", json_object_new_string(e->reason));
	if (e->console_log)
		json_object_object_add(o, "console_log", json_object_new_string(e->console_log));
	return o;
}

int run_append_jsonl(const char *run_dir, const char *file, json_object *o)
{
	char *path = hb_path_join(run_dir, file);
	char *line = xasprintf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	size_t len = strlen(line);
	/* O_RDWR: a torn last line (a run killed mid-append) is ended first, or this entry
	 * would join it and be lost on the next resume. */
	int fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	int rc = -1;

	if (fd >= 0 && hb_end_torn_line(fd) == 0 && write(fd, line, len) == (ssize_t)len && fsync(fd) == 0)
		rc = 0;
	else
		hb_error("cannot append to %s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(line);
	free(path);
	return rc;
}

int journal_append(const char *run_dir, const struct journal_entry *e)
{
	json_object *o = entry_to_json(e);
	int rc = run_append_jsonl(run_dir, JOURNAL_FILE, o);

	json_object_put(o);
	return rc;
}

/* Fills e from o; reps points into a buffer the caller frees. */
static bool entry_from_json(json_object *o, struct journal_entry *e, int **reps)
{
	json_object *cell, *status, *v;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "cell", &cell) || !json_object_is_type(cell, json_type_string) ||
	    !json_object_object_get_ex(o, "status", &status) || !json_object_is_type(status, json_type_string))
		return false;
	*e = (struct journal_entry){ .cell = json_object_get_string(cell),
				     .ok = !strcmp(json_object_get_string(status), "ok"), .cpu_seconds = -1 };
	if (json_object_object_get_ex(o, "reps_done", &v) && json_object_is_type(v, json_type_array)) {
		size_t n = json_object_array_length(v);
		*reps = xcalloc(n, sizeof(**reps));
		for (size_t i = 0; i < n; i++)
			(*reps)[i] = json_object_get_int(json_object_array_get_idx(v, i));
		e->reps_done = *reps;
		e->nreps_done = n;
	}
	if (json_object_object_get_ex(o, "seconds", &v))
		e->seconds = json_object_get_double(v);
	if (json_object_object_get_ex(o, "cpu_seconds", &v))
		e->cpu_seconds = json_object_get_double(v);
	if (json_object_object_get_ex(o, "reason", &v))
		e->reason = json_object_get_string(v);
	if (json_object_object_get_ex(o, "console_log", &v))
		e->console_log = json_object_get_string(v);
	return true;
}

long journal_read(const char *run_dir, void (*cb)(const struct journal_entry *e, void *ctx), void *ctx)
{
	char *path = hb_path_join(run_dir, JOURNAL_FILE);
	FILE *f = hb_fopen_nofollow(path, "r");
	char *line = NULL;
	size_t cap = 0;
	long n = 0, lineno = 0;

	if (!f) {
		long rc = errno == ENOENT ? 0 : -1;
		if (rc < 0)
			hb_error("cannot read %s: %s", path, strerror(errno));
		free(path);
		return rc;
	}
	while (getline(&line, &cap, f) > 0) {
		json_object *o = json_tokener_parse(line);
		struct journal_entry e;
		int *reps = NULL;
		lineno++;
		if (o && entry_from_json(o, &e, &reps)) {
			cb(&e, ctx);
			n++;
		} else {
			hb_warn("%s:%ld: skipped corrupt line", path, lineno);
		}
		free(reps);
		json_object_put(o);
	}
	free(line);
	fclose(f);
	free(path);
	return n;
}
