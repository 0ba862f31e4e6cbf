/* cells.jsonl: one line per attempt at a cell of a run, appended and fsync'd after the
 * cell's samples:
 *   {"cell":"init_on_free/hackbench/2/0","status":"ok","reps_done":[0,1,2],"seconds":41.2}
 *   {"cell":...,"status":"failed","reps_done":[0],"reason":"...","console_log":"..."}
 * A repetition counts as measured only when a journal line lists it in reps_done: samples
 * of a repetition without one (the run died between its samples and its journal line) are
 * dropped on resume, and resume runs exactly the repetitions no line lists. */
#ifndef HB_RUN_JOURNAL_H
#define HB_RUN_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>

#define JOURNAL_FILE "cells.jsonl"

struct journal_entry {
	const char *cell;
	bool ok;                  /* every repetition of the attempt was measured */
	const int *reps_done;     /* repetition indices measured by this attempt */
	size_t nreps_done;
	double seconds;
	double cpu_seconds;       /* the guest's host CPU time (QEMU, virtiofsd): < 0 unknown */
	const char *reason;       /* why not ok; NULL when ok */
	const char *console_log;  /* may be NULL */
};

/* Appends one entry and fsyncs. 0 or -1 (printed). */
int journal_append(const char *run_dir, const struct journal_entry *e);
/* One JSON line appended to run_dir/file (created 0644, never through a link), fsync'd; a
 * torn last line (a run killed mid-append) is ended first. 0, or -1 after printing why.
 * The journal's writer, and model.jsonl's (run/model_cell.c). */
int run_append_jsonl(const char *run_dir, const char *file, json_object *o);
/* Calls cb for every well-formed line; bad lines are skipped with a warning. Returns the
 * number of entries, -1 when the journal cannot be read (absent is 0). */
long journal_read(const char *run_dir, void (*cb)(const struct journal_entry *e, void *ctx), void *ctx);

#endif
