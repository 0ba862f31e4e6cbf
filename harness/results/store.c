/* Result-set writers: lock, meta.json, and samples appended one fsync'd line at a time so
 * that a crash or power loss loses at most the sample being written. */
#include "results/store.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fileutil.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/safepath.h"
#include "common/xalloc.h"
#include "results/jsonfmt.h"

struct result_set {
	char *dir;
	int dir_fd;     /* holds the flock */
	int samples_fd; /* O_APPEND */
	bool sync_each;  /* fsync after every line (default) */
};

static char *set_file(const char *dir, const char *name)
{
	return hb_path_join(dir, name);
}

/* Opens (creates: flags) and locks dir. NULL after printing why. */
static struct result_set *lock_dir(const char *dir, int flags)
{
	struct result_set *rs;
	char *why = NULL;
	/* Every component walked from "/" (common/safepath.h), the set ours: meta.json and
	 * samples.jsonl are opened through this fd. */
	int fd = hb_open_dir_checked(dir, "result set", flags | HB_SAFE_OWN, &why);

	if (fd < 0) {
		hb_error("%s", why);
		free(why);
		return NULL;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno == EWOULDBLOCK)
			hb_error("result set %s is in use by another harness process "
				 "(its lock is held); wait for it or pick another directory", dir);
		else
			hb_error("cannot lock result set %s: %s", dir, strerror(errno));
		close(fd);
		return NULL;
	}
	rs = xcalloc(1, sizeof(*rs));
	rs->dir = xstrdup(dir);
	rs->dir_fd = fd;
	rs->samples_fd = -1;
	rs->sync_each = true;
	return rs;
}

/* Through the set's folder fd, and never through a symlink planted in it. */
static int open_samples(struct result_set *rs)
{
	char *path = set_file(rs->dir, RS_SAMPLES_FILE);

	rs->samples_fd = openat(rs->dir_fd, RS_SAMPLES_FILE,
				O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (rs->samples_fd < 0 || hb_end_torn_line(rs->samples_fd) < 0) {
		hb_error("cannot open %s for appending: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	free(path);
	return 0;
}

bool rs_holds_samples(const char *dir)
{
	char *path = set_file(dir, RS_SAMPLES_FILE);
	struct stat st;
	/* A symlink counts as holding samples: it is refused, never followed. */
	bool has = lstat(path, &st) == 0 && (S_ISLNK(st.st_mode) || st.st_size > 0);

	free(path);
	return has;
}

struct result_set *rs_create(const char *dir, json_object *meta)
{
	struct result_set *rs;

	rs = lock_dir(dir, HB_SAFE_CREATE);
	if (!rs)
		return NULL;
	if (rs_holds_samples(dir)) {
		hb_error("%s already holds samples; pick a new directory (or resume it)", dir);
		rs_close(rs);
		return NULL;
	}
	if (rs_write_meta(rs, meta) < 0 || open_samples(rs) < 0) {
		rs_close(rs);
		return NULL;
	}
	return rs;
}

struct result_set *rs_open_append(const char *dir)
{
	struct result_set *rs;

	if (!hb_is_dir(dir)) {
		hb_error("result set %s does not exist", dir);
		return NULL;
	}
	rs = lock_dir(dir, 0);
	if (rs && open_samples(rs) < 0) {
		rs_close(rs);
		return NULL;
	}
	return rs;
}

static json_object *sample_json(const struct sample *s)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "variant", json_object_new_string(s->variant));
	json_object_object_add(o, "workload", json_object_new_string(s->workload));
	json_object_object_add(o, "metric", json_object_new_string(s->metric));
	json_object_object_add(o, "unit", json_object_new_string(s->unit ? s->unit : ""));
	if (s->cores >= 0)
		json_object_object_add(o, "cores", json_object_new_int(s->cores));
	if (s->boot >= 0)
		json_object_object_add(o, "boot", json_object_new_int(s->boot));
	if (s->rep >= 0)
		json_object_object_add(o, "rep", json_object_new_int(s->rep));
	json_object_object_add(o, "value", hb_json_double(s->value));
	json_object_object_add(o, "lower_is_better", json_object_new_boolean(s->lower_is_better));
	if (s->clock && strcmp(s->clock, "host"))
		json_object_object_add(o, "clock", json_object_new_string(s->clock));
	if (s->kernel_line)
		json_object_object_add(o, "kernel_line", json_object_new_string(s->kernel_line));
	return o;
}

static bool is_name(const char *s)
{
	return s && *s;
}

int rs_append(struct result_set *rs, const struct sample *s)
{
	json_object *o;
	char *line;
	int rc;

	if (!is_name(s->variant) || !is_name(s->workload) || !is_name(s->metric) ||
	    !isfinite(s->value)) {
		hb_error("refusing to store an incomplete sample (variant, workload, metric and "
			 "a finite value are required) in %s", rs->dir);
		return -1;
	}
	o = sample_json(s);
	line = xasprintf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
								 JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	/* One write() of the whole line: O_APPEND keeps it contiguous even if a reader
	 * is tailing the file. */
	rc = hb_write_all(rs->samples_fd, line, strlen(line)) < 0 ||
	     (rs->sync_each && fsync(rs->samples_fd) < 0) ? -1 : 0;
	if (rc < 0)
		hb_error("cannot append to %s/%s: %s", rs->dir, RS_SAMPLES_FILE, strerror(errno));
	free(line);
	return rc;
}

int rs_append_line(struct result_set *rs, const char *name, const char *line)
{
	int fd = strchr(name, '/') ? -1
		 : openat(rs->dir_fd, name, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
	int rc = fd < 0 || hb_write_all(fd, line, strlen(line)) < 0 || fsync(fd) < 0 ? -1 : 0;

	if (rc < 0)
		hb_error("cannot append to %s/%s: %s", rs->dir, name, strerror(errno));
	if (fd >= 0)
		close(fd);
	return rc;
}

int rs_write_meta(struct result_set *rs, json_object *meta)
{
	char *path = set_file(rs->dir, RS_META_FILE);
	json_object *empty = meta ? NULL : json_object_new_object();
	char *with_nl = xasprintf("%s\n", hb_json_pretty(meta ? meta : empty));
	int rc = hb_write_file_at(rs->dir_fd, RS_META_FILE, with_nl, strlen(with_nl));

	if (rc < 0)
		hb_error("cannot write %s: %s", path, strerror(errno));
	json_object_put(empty);
	free(with_nl);
	free(path);
	return rc;
}

void rs_set_sync_each(struct result_set *rs, bool sync_each)
{
	rs->sync_each = sync_each;
}

const char *rs_dir(const struct result_set *rs)
{
	return rs->dir;
}

void rs_close(struct result_set *rs)
{
	if (!rs)
		return;
	if (rs->samples_fd >= 0) {
		if (!rs->sync_each && fsync(rs->samples_fd) < 0)
			hb_error("cannot flush %s/%s: %s", rs->dir, RS_SAMPLES_FILE, strerror(errno));
		close(rs->samples_fd);
	}
	close(rs->dir_fd); /* releases the flock */
	free(rs->dir);
	free(rs);
}
