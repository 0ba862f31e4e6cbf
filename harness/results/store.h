/* Result sets: results/<run-id>/{meta.json, samples.jsonl, ...}.
 *
 * samples.jsonl holds one JSON object per line, appended and fsync'd one at a time:
 *   {"variant":"init_on_free","workload":"kbuild","metric":"sys","unit":"s","cores":12,
 *    "boot":0,"rep":3,"value":12.34,"lower_is_better":true}
 * cores/boot/rep may be absent (-1 in struct sample). Readers ignore unknown keys, so
 * writers may add context (e.g. "accel"). A torn or corrupt line is skipped with a
 * warning naming file and line; it never aborts a reader.
 *
 * Writers hold flock(LOCK_EX) on the directory for their lifetime: a second writer gets
 * a clear error instead of interleaving lines. */
#ifndef HB_RESULTS_STORE_H
#define HB_RESULTS_STORE_H

#include <stdbool.h>
#include <json-c/json.h>

#define RS_META_FILE "meta.json"
#define RS_SAMPLES_FILE "samples.jsonl"

struct sample {
	const char *variant;
	const char *workload;
	const char *metric;
	const char *unit;       /* may be "" */
	int cores;              /* -1: absent */
	int boot;               /* -1: absent */
	int rep;                /* -1: absent */
	double value;
	bool lower_is_better;
};

struct result_set;

/* Creates dir (and parents), takes the lock, writes meta.json (meta is not consumed).
 * Fails if dir already holds samples. NULL after printing why. */
struct result_set *rs_create(const char *dir, json_object *meta);
/* Opens an existing set for appending (resume, import into a set). NULL after printing why. */
struct result_set *rs_open_append(const char *dir);
/* One line, then fsync. 0, or -1 after printing why. */
int rs_append(struct result_set *rs, const struct sample *s);
/* Atomically replaces meta.json. */
int rs_write_meta(struct result_set *rs, json_object *meta);
const char *rs_dir(const struct result_set *rs);
void rs_close(struct result_set *rs);

/* Streams samples in file order; memory stays constant. cb returns non-zero to stop.
 * Returns the number of good lines read, or -1 when the file cannot be opened
 * (after printing why). Corrupt lines are counted in *skipped when not NULL. */
typedef int (*rs_sample_cb)(const struct sample *s, void *ctx);
long rs_read_samples(const char *dir, rs_sample_cb cb, void *ctx, long *skipped);
/* Parsed meta.json (caller json_object_put()s), NULL when absent or unreadable. */
json_object *rs_read_meta(const char *dir);
/* A fresh run id: YYYYMMDD-HHMMSS-<tag> (tag may be NULL). */
char *rs_new_run_id(const char *tag);

#endif
