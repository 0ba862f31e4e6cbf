/* The journal (run/journal.c, cells.jsonl): what is appended reads back; lines that a
 * crash tore or a disk mangled are skipped, not fatal, and do not swallow the lines
 * appended after them. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "scratch.h"
#include "run/journal.h"

#define MAX_SEEN 8

/* What journal_read handed to the callback, copied out (its strings die with the line). */
struct seen {
	size_t n;
	char *cell[MAX_SEEN];
	bool ok[MAX_SEEN];
	int reps[MAX_SEEN][4];
	size_t nreps[MAX_SEEN];
	double seconds[MAX_SEEN];
	double cpu_seconds[MAX_SEEN];
	char *reason[MAX_SEEN];
	char *console_log[MAX_SEEN];
};

static void collect(const struct journal_entry *e, void *ctx)
{
	struct seen *s = ctx;
	size_t i = s->n++;

	if (i >= MAX_SEEN)
		return;
	s->cell[i] = xstrdup(e->cell);
	s->ok[i] = e->ok;
	s->nreps[i] = e->nreps_done;
	for (size_t k = 0; k < e->nreps_done && k < 4; k++)
		s->reps[i][k] = e->reps_done[k];
	s->seconds[i] = e->seconds;
	s->cpu_seconds[i] = e->cpu_seconds;
	s->reason[i] = e->reason ? xstrdup(e->reason) : NULL;
	s->console_log[i] = e->console_log ? xstrdup(e->console_log) : NULL;
}

static void seen_free(struct seen *s)
{
	for (size_t i = 0; i < s->n && i < MAX_SEEN; i++) {
		free(s->cell[i]);
		free(s->reason[i]);
		free(s->console_log[i]);
	}
}

/* Reads a journal of this text (from a scratch set) into s; journal_read's count. */
static long read_text(const char *text, struct seen *s)
{
	char *dir = scratch_dir();
	long n;

	scratch_write(dir, JOURNAL_FILE, text);
	n = journal_read(dir, collect, s);
	hb_remove_tree(dir);
	free(dir);
	return n;
}

TEST(append_reads_back)
{
	char *dir = scratch_dir();
	const int all[] = { 0, 1, 2 }, first[] = { 0 };
	struct journal_entry ok = { .cell = "baseline/hackbench/2/0", .ok = true, .reps_done = all,
				    .nreps_done = 3, .seconds = 41.25, .cpu_seconds = 30.5 };
	struct journal_entry bad = { .cell = "init_on_free/kbuild/6/1", .reps_done = first, .nreps_done = 1,
				     .seconds = 3, .cpu_seconds = -1, .reason = "guest \"panic\"\nline two",
				     .console_log = "logs/x.console.log" };
	struct seen s = { 0 };

	CHECK(journal_append(dir, &ok) == 0);
	CHECK(journal_append(dir, &bad) == 0);
	CHECK(journal_read(dir, collect, &s) == 2);
	CHECK(s.n == 2, "n %zu", s.n);
	CHECK_STR(s.cell[0], ok.cell);
	CHECK(s.ok[0] && s.nreps[0] == 3 && s.reps[0][2] == 2);
	CHECK_NEAR(s.seconds[0], 41.25, 1e-9);
	CHECK_NEAR(s.cpu_seconds[0], 30.5, 1e-9);
	CHECK(s.cpu_seconds[1] < 0, "unknown CPU time read back as %g", s.cpu_seconds[1]);
	CHECK(s.reason[0] == NULL && s.console_log[0] == NULL);
	CHECK_STR(s.cell[1], bad.cell);
	CHECK(!s.ok[1] && s.nreps[1] == 1 && s.reps[1][0] == 0);
	CHECK_STR(s.reason[1], bad.reason);
	CHECK_STR(s.console_log[1], bad.console_log);
	seen_free(&s);
	hb_remove_tree(dir);
	free(dir);
}

/* A set that never journalled has no file: no entries, not an error. A journal that
 * cannot be read is an error (-1), not an empty one: resume must not redo everything. */
TEST(absent_is_empty_unreadable_is_error)
{
	char *dir = scratch_dir(), *file;
	struct seen s = { 0 };

	CHECK(journal_read(dir, collect, &s) == 0);
	scratch_write(dir, "plain", "x");
	file = hb_path_join(dir, "plain");
	CHECK(journal_read(file, collect, &s) == -1);
	CHECK(s.n == 0);
	free(file);
	hb_remove_tree(dir);
	free(dir);
}

/* Corrupt lines of every kind are skipped; the good ones around them count. */
TEST(skips_corrupt_lines)
{
	struct seen s = { 0 };
	long n = read_text("{\"cell\":\"a/w/2/0\",\"status\":\"ok\",\"reps_done\":[0],\"seconds\":1}\n"
			   "garbage\n"
			   "\n"
			   "[1,2,3]\n"
			   "{\"status\":\"ok\",\"reps_done\":[0]}\n"
			   "{\"cell\":7,\"status\":\"ok\",\"reps_done\":[0]}\n"
			   "{\"cell\":\"a/w/2/1\",\"reps_done\":[0]}\n"
			   "{\"cell\":\"a/w/2/1\",\"status\":\"failed\",\"reps_done\":[],\"reason\":\"x\"}\n", &s);

	CHECK(n == 2, "entries %ld", n);
	CHECK(s.n == 2 && !strcmp(s.cell[1], "a/w/2/1") && !s.ok[1] && s.nreps[1] == 0);
	seen_free(&s);
}

/* A run killed mid-write leaves a half line with no newline: skipped. */
TEST(skips_torn_last_line)
{
	struct seen s = { 0 };
	long n = read_text("{\"cell\":\"a/w/2/0\",\"status\":\"ok\",\"reps_done\":[0,1],\"seconds\":1}\n"
			   "{\"cell\":\"a/w/2/1\",\"status\":\"ok\",\"reps_do", &s);

	CHECK(n == 1, "entries %ld", n);
	CHECK(s.n == 1 && !strcmp(s.cell[0], "a/w/2/0"));
	seen_free(&s);
}

/* The resumed run appends after the torn line: its entry must stay a line of its own,
 * or the next resume would lose it and measure those repetitions again. */
TEST(append_after_torn_line_is_kept)
{
	char *dir = scratch_dir();
	const int reps[] = { 0, 1 };
	struct journal_entry e = { .cell = "a/w/2/1", .ok = true, .reps_done = reps, .nreps_done = 2 };
	struct seen s = { 0 };

	scratch_write(dir, JOURNAL_FILE,
		      "{\"cell\":\"a/w/2/0\",\"status\":\"ok\",\"reps_done\":[0,1],\"seconds\":1}\n"
		      "{\"cell\":\"a/w/2/1\",\"sta");
	CHECK(journal_append(dir, &e) == 0);
	CHECK(journal_read(dir, collect, &s) == 2, "entries %zu", s.n);
	CHECK(s.n == 2 && !strcmp(s.cell[1], "a/w/2/1") && s.nreps[1] == 2);
	seen_free(&s);
	hb_remove_tree(dir);
	free(dir);
}

TEST_MAIN()
