/* Result sets: results/<run-id>/{meta.json, samples.jsonl, ...}.
 *
 * samples.jsonl holds one JSON object per line, appended and fsync'd one at a time:
 *   {"variant":"init_on_free","workload":"kbuild","metric":"sys","unit":"s","cores":12,
 *    "boot":0,"rep":3,"value":12.34,"lower_is_better":true}
 * cores/boot/rep may be absent (-1 in struct sample); "clock":"icount" marks samples of
 * the instruction-count clock (no key: the host clock). Readers ignore unknown keys, so
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

/* meta.json keys that readers (report, plot, gate) look at; writers use these names.
 *   "harness_version"  string, git describe of the harness that wrote the set
 *   "created"          string, ISO 8601 local time with offset
 *   "command_line"     array of strings, argv of the writing command
 *   "host"             object, the writer's host facts (hostinfo_collect(), handed in by
 *                      the writing command: results/ does not collect them)
 *   "accel"            "kvm" | "tcg": how the guests ran
 *   "accel_reason"     string, why that accel (e.g. "KVM probe boot timed out after 10 s")
 *   "overcommit"       true when guests had more vCPUs than the host has free cores
 *   "imported_from"    string, the CSV file `harness import` read
 * Later issues add "kernels", "variants" and workload parameters; readers ignore keys
 * they do not know. */
#define RS_META_VERSION "harness_version"
#define RS_META_CREATED "created"
#define RS_META_COMMAND "command_line"
#define RS_META_HOST "host"
#define RS_META_ACCEL "accel"
#define RS_META_ACCEL_REASON "accel_reason"
#define RS_META_OVERCOMMIT "overcommit"
/* Boots whose vCPUs sat on cores another hardbench guest held (pin/claim.c). */
#define RS_META_SHARED_CORES "shared_core_boots"
#define RS_META_IMPORTED "imported_from"
/* {"name": "host"|"icount", ...}: the guest clock of the run (absent: host). */
#define RS_META_CLOCK "clock"

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
	/* The guest clock that measured it: "icount" (guest instructions, boot/clock.h) or
	 * NULL for the host's (written as no key: sets from before the clock choice read as
	 * host). Samples of different clocks are never compared. */
	const char *clock;
	/* The kernel line it was measured on ("6.12"), written as "kernel_line"; NULL reads
	 * as HB_DEFAULT_LINE (sets from before lines). Samples of different lines are never compared
	 * as variant against baseline. */
	const char *kernel_line;
};

/* The clock name of a sample: "host" when it has none. */
const char *sample_clock(const struct sample *s);
/* s->kernel_line, or the default line when absent (HB_DEFAULT_LINE). */
const char *sample_line(const struct sample *s);

struct result_set;

/* Creates dir (and parents), takes the lock, writes meta.json (meta is not consumed).
 * Fails if dir already holds samples. NULL after printing why. */
struct result_set *rs_create(const char *dir, json_object *meta);
/* Does dir hold a non-empty samples.jsonl? */
bool rs_holds_samples(const char *dir);
/* Opens an existing set for appending (resume, import into a set). NULL after printing why. */
struct result_set *rs_open_append(const char *dir);
/* One line, then fsync. 0, or -1 after printing why. */
int rs_append(struct result_set *rs, const struct sample *s);
/* One line (with its newline) appended to another file of the set (e.g. profile.jsonl),
 * opened beside samples.jsonl through the set's directory descriptor, then fsync'd.
 * name is a plain file name. 0, or -1 after printing why. */
int rs_append_line(struct result_set *rs, const char *name, const char *line);
/* Bulk writers (import) may turn off the fsync after every line; rs_close() then fsyncs
 * once. A live run must keep the default (true): it never loses a measured sample. */
void rs_set_sync_each(struct result_set *rs, bool sync_each);
/* Atomically replaces meta.json. */
int rs_write_meta(struct result_set *rs, json_object *meta);
const char *rs_dir(const struct result_set *rs);
void rs_close(struct result_set *rs);

/* Streams samples in file order; memory stays constant. cb returns non-zero to stop.
 * The strings of *s live only until cb returns: copy what you keep.
 * Returns the number of good lines read, or -1 when the file cannot be opened
 * (after printing why). Corrupt lines are counted in *skipped when not NULL. */
typedef int (*rs_sample_cb)(const struct sample *s, void *ctx);
long rs_read_samples(const char *dir, rs_sample_cb cb, void *ctx, long *skipped);
/* The same, showing progress with an ETA on stderr under label when the file is large
 * (RS_PROGRESS_MIN_BYTES or more); label NULL: never. */
#define RS_PROGRESS_MIN_BYTES (32L << 20)
long rs_read_samples_progress(const char *dir, rs_sample_cb cb, void *ctx, long *skipped,
			      const char *label);
/* Parsed meta.json (caller json_object_put()s), NULL when absent or unreadable. */
json_object *rs_read_meta(const char *dir);
/* A fresh run id: YYYYMMDD-HHMMSS-<tag> (tag may be NULL; characters other than
 * letters, digits, '.', '_' and '-' become '-'). Caller frees. */
char *rs_new_run_id(const char *tag);
/* A meta.json skeleton every writer starts from: harness_version, created, command_line
 * (argv, NULL-terminated; may be NULL) and host (consumed; NULL: none). Caller
 * json_object_put()s. */
json_object *rs_meta_new(char *const argv[], json_object *host);
/* Now in local time as meta.json keeps its times ("2026-12-04T04:39:50+0000"), in buf. */
const char *rs_meta_time_now(char *buf, size_t size);
/* The builds a run used on a kernel line (build -> {"line", "release", "key", ...}), borrowed
 * from meta: "kernels_by_line".line, NULL when the set has lines but not this one; sets from
 * before kernel lines list their one line's builds as "kernels". */
json_object *rs_meta_line_kernels(json_object *meta, const char *line);

#endif
