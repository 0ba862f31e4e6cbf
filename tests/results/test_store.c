/* Result sets: what is appended reads back; a torn or corrupt line is skipped and counted
 * while the lines around it survive; a second writer is refused; a set with samples is not
 * overwritten. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "scratch.h"
#include "common/fileutil.h"
#include "common/xalloc.h"
#include "results/store.h"

struct seen {
	int n;
	double sum;
	int cores_absent;
	char first_variant[32];
	char first_unit[16];
	bool last_lower;
};

static int collect(const struct sample *s, void *ctx)
{
	struct seen *seen = ctx;

	if (!seen->n) {
		snprintf(seen->first_variant, sizeof(seen->first_variant), "%s", s->variant);
		snprintf(seen->first_unit, sizeof(seen->first_unit), "%s", s->unit);
	}
	seen->n++;
	seen->sum += s->value;
	seen->cores_absent += s->cores == -1;
	seen->last_lower = s->lower_is_better;
	return 0;
}

static int stop_after_two(const struct sample *s, void *ctx)
{
	(void)s;
	return ++*(int *)ctx >= 2;
}

static struct sample sample(const char *variant, double value, int cores)
{
	return (struct sample){ .variant = variant, .workload = "hackbench", .metric = "time",
				.unit = "s", .cores = cores, .boot = 0, .rep = 1, .value = value,
				.lower_is_better = true };
}

static void append_line(const char *dir, const char *text)
{
	char *path = xasprintf("%s/samples.jsonl", dir);
	FILE *f = fopen(path, "a");

	fputs(text, f);
	fclose(f);
	free(path);
}

/* A set of three good samples, a refused NAN, a torn line (crash mid-write) with a sample
 * appended after it, a valid line with a bad value type and one with trailing text. */
static void fill_set(int *failures, const char *dir)
{
	json_object *meta = json_object_new_object();
	struct result_set *rs;
	struct sample s = sample("baseline", 12.34, 2);

	json_object_object_add(meta, "accel", json_object_new_string("tcg"));
	rs = rs_create(dir, meta);
	json_object_put(meta);
	CHECK(rs != NULL, "rs_create");
	if (!rs)
		return;
	CHECK(rs_append(rs, &s) == 0, "append");
	s = sample("init_on_free", 0.1 + 0.2, -1);
	CHECK(rs_append(rs, &s) == 0, "append");
	s.value = NAN;
	CHECK(rs_append(rs, &s) == -1, "a NAN value must be refused");
	rs_close(rs);

	append_line(dir, "{\"variant\":\"x\",\"workload\":\"hackbench\",\"met");
	rs = rs_open_append(dir); /* must start a fresh line after the torn one */
	CHECK(rs != NULL, "rs_open_append");
	s = sample("baseline", 1, 2);
	s.lower_is_better = false;
	CHECK(rs && rs_append(rs, &s) == 0, "append after torn line");
	rs_close(rs);
	append_line(dir, "{\"variant\":\"a\",\"workload\":\"w\",\"metric\":\"m\",\"value\":\"12\"}\n");
	append_line(dir, "\n{\"variant\":\"a\",\"workload\":\"w\",\"metric\":\"m\",\"value\":2} trailing\n");
}

/* fill_set in a scratch folder's "set"; the caller removes *root. */
static char *filled_set(int *failures, char **root)
{
	char *dir;

	*root = scratch_dir();
	dir = hb_path_join(*root, "set");
	fill_set(failures, dir);
	return dir;
}

static void drop_set(char *root, char *dir)
{
	hb_remove_tree(root);
	free(root);
	free(dir);
}

TEST(roundtrip_and_corruption)
{
	char *root, *dir = filled_set(failures, &root);
	json_object *back;
	struct seen seen = { 0 };
	long skipped = -1, good;
	int count = 0;

	good = rs_read_samples(dir, collect, &seen, &skipped);
	CHECK(good == 3, "good=%ld", good);
	CHECK(skipped == 3, "skipped=%ld (torn, bad value, trailing text)", skipped);
	CHECK_NEAR(seen.sum, 12.34 + 0.3 + 1, 1e-12);
	CHECK(seen.cores_absent == 1, "cores absent %d", seen.cores_absent);
	CHECK(!strcmp(seen.first_variant, "baseline"), "%s", seen.first_variant);
	CHECK(!strcmp(seen.first_unit, "s"), "%s", seen.first_unit);
	CHECK(!seen.last_lower, "lower_is_better false survives");

	CHECK(rs_read_samples(dir, stop_after_two, &count, NULL) == 2, "callback can stop");

	back = rs_read_meta(dir);
	CHECK(back && !strcmp(json_object_get_string(json_object_object_get(back, "accel")), "tcg"),
	      "meta.json reads back");
	json_object_put(back);
	drop_set(root, dir);
}

TEST(exact_numbers_on_disk)
{
	char *root, *dir = filled_set(failures, &root);
	char *path = xasprintf("%s/samples.jsonl", dir);
	char *text = hb_read_file(path, NULL);

	/* 12.34 is written as 12.34, not 12.339999999999999; 0.1 + 0.2 needs all 17 digits */
	CHECK(text && strstr(text, "\"value\":12.34,"), "shortest form: %s", text ? text : "");
	CHECK(text && strstr(text, "\"value\":0.30000000000000004,"), "exact form");
	free(text);
	free(path);
	drop_set(root, dir);
}

TEST(single_writer)
{
	char *root, *dir = filled_set(failures, &root);
	struct result_set *a = rs_open_append(dir);
	struct result_set *b = rs_open_append(dir);

	CHECK(a != NULL, "first writer");
	CHECK(b == NULL, "a second writer must be refused while the first holds the lock");
	rs_close(a);
	rs_close(b);
	b = rs_open_append(dir);
	CHECK(b != NULL, "the lock is released on close");
	rs_close(b);
	drop_set(root, dir);
}

TEST(create_refuses_existing)
{
	char *root, *dir = filled_set(failures, &root);

	CHECK(rs_create(dir, NULL) == NULL, "rs_create must not reuse a set holding samples");
	drop_set(root, dir);
}

TEST(run_id)
{
	char *id = rs_new_run_id("my run/1");

	CHECK(strlen(id) == strlen("YYYYMMDD-HHMMSS-my-run-1"), "%s", id);
	CHECK(!strcmp(id + 16, "my-run-1"), "%s", id);
	free(id);
}

TEST(missing_file)
{
	CHECK(rs_read_samples("/nonexistent/hardbench", collect, NULL, NULL) == -1, "missing file");
}

TEST_MAIN()
