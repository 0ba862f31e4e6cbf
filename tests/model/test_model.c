/* --clock model's prices (docs/model.md) on counts worked out by hand, the plugin's section
 * lines (good, foreign, malformed), and the pricing of a repetition's samples. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "run/model_cell.h"
#include "scratch.h"
#include "test.h"

/* Made-up constants, so that each term shows in the sum. */
static const struct model_constants K = { .t_insn = 0.5, .t_stos = 0.25, .t_movs = 0.75,
					  .t_start = 10, .t_l2 = 3, .t_mem = 20, .onep_stos = 0.125 };

TEST(full_model_prices_each_count)
{
	uint64_t f[HB_MODEL_NFIELDS] = { 0 };

	f[HB_MODEL_INSNS] = 1000;     /* 600 of them rep elements below */
	f[HB_MODEL_STOS1] = 100;      /* 100 bytes */
	f[HB_MODEL_STOS8] = 300;      /* 2400 bytes */
	f[HB_MODEL_MOVS4] = 200;      /* 800 bytes */
	f[HB_MODEL_OTHER] = 50;       /* priced as instructions */
	f[HB_MODEL_STOS_STARTS] = 3;
	f[HB_MODEL_MOVS_STARTS] = 1;
	f[HB_MODEL_L2_HITS] = 7;
	f[HB_MODEL_L2_MISSES] = 2;
	f[HB_MODEL_NEW_4K] = 1;       /* the host clears 4096 bytes at t_stos */
	f[HB_MODEL_NEW_2M] = 5;       /* counted, not priced */
	/* 0.5 * (1000 - 400 - 200) + 0.25 * 2500 + 0.75 * 800 + 10 * 4 + 3 * 7 + 20 * 2
	 * + 0.25 * 4096 */
	CHECK_NEAR(model_mode_ns(f, MODEL_FULL, &K), 200 + 625 + 600 + 40 + 21 + 40 + 1024, 1e-9);
	/* icount: the instructions; one parameter: rep stos elements repriced per byte. */
	CHECK_NEAR(model_mode_ns(f, MODEL_ICOUNT, &K), 1000, 1e-9);
	CHECK_NEAR(model_mode_ns(f, MODEL_ONEP, &K), 1000 - 400 + 0.125 * 2500, 1e-9);
}

TEST(a_metric_is_scaled_by_its_scope)
{
	struct model_counts c = { 0 };

	c.v[HB_MODEL_KERNEL][HB_MODEL_INSNS] = 100;
	c.v[HB_MODEL_KERNEL][HB_MODEL_L2_MISSES] = 1;   /* kernel: 50 + 20 = 70 ns for 100 */
	c.v[HB_MODEL_USER][HB_MODEL_INSNS] = 300;       /* user: 150 ns for 300 */
	CHECK_NEAR(model_scale(2.0, &c, MODEL_SCOPE_KERNEL, MODEL_FULL, &K), 2.0 * 70 / 100, 1e-12);
	CHECK_NEAR(model_scale(2.0, &c, MODEL_SCOPE_USER, MODEL_FULL, &K), 2.0 * 150 / 300, 1e-12);
	CHECK_NEAR(model_scale(2.0, &c, MODEL_SCOPE_ALL, MODEL_FULL, &K), 2.0 * 220 / 400, 1e-12);
	/* none keeps the value; icount's reading keeps it too */
	CHECK_NEAR(model_scale(2.0, &c, MODEL_SCOPE_NONE, MODEL_FULL, &K), 2.0, 1e-12);
	CHECK_NEAR(model_scale(2.0, &c, MODEL_SCOPE_ALL, MODEL_ICOUNT, &K), 2.0, 1e-12);
	/* a scope that executed nothing keeps the value rather than dividing by zero */
	c.v[HB_MODEL_USER][HB_MODEL_INSNS] = 0;
	CHECK_NEAR(model_scale(3.0, &c, MODEL_SCOPE_USER, MODEL_FULL, &K), 3.0, 1e-12);
}

TEST(scopes_and_time_units)
{
	enum model_scope s;

	CHECK(model_scope_parse("kernel", &s) == 0 && s == MODEL_SCOPE_KERNEL);
	CHECK(model_scope_parse("none", &s) == 0 && s == MODEL_SCOPE_NONE);
	CHECK(model_scope_parse("sys", &s) == -1);
	CHECK(model_scope_parse(NULL, &s) == -1);
	CHECK_STR(model_scope_name(MODEL_SCOPE_USER), "user");
	CHECK(model_unit_is_time("s") && model_unit_is_time("usec") && model_unit_is_time("cycles"));
	CHECK(!model_unit_is_time("IPIs") && !model_unit_is_time("KiB") && !model_unit_is_time(NULL));
}

/* A line with kernel counts 1..16 and user counts 101..116. */
static char *line_with(int rep, int id, const char *tail)
{
	char buf[1024];
	int n = snprintf(buf, sizeof(buf), HB_MODEL_PREFIX HB_MODEL_SECTION " %d %d kernel", rep, id);

	for (int i = 0; i < HB_MODEL_NFIELDS; i++)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, " %d", i + 1);
	n += snprintf(buf + n, sizeof(buf) - (size_t)n, " user");
	for (int i = 0; i < HB_MODEL_NFIELDS; i++)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, " %d", i + 101);
	snprintf(buf + n, sizeof(buf) - (size_t)n, "%s", tail);
	return strdup(buf);
}

TEST(section_lines_parse_and_refuse)
{
	struct model_section s;
	char *why = NULL, *line = line_with(3, 1, "\n");

	CHECK(model_parse_line(line, &s, &why) == 1);
	CHECK(s.rep == 3 && s.id == 1);
	CHECK(s.c.v[HB_MODEL_KERNEL][HB_MODEL_INSNS] == 1);
	CHECK(s.c.v[HB_MODEL_KERNEL][HB_MODEL_NEW_2M] == HB_MODEL_NFIELDS);
	CHECK(s.c.v[HB_MODEL_USER][HB_MODEL_STOS1] == 102);
	free(line);
	/* QEMU's own lines and the cache model's are not ours */
	CHECK(model_parse_line("qemu-system-x86_64: terminating on signal 15\n", &s, &why) == 0);
	CHECK(model_parse_line("hb-model: sections 3\n", &s, &why) == 0);
	/* ours, but one count short, with junk after, or a negative rep: refused with the shape */
	line = line_with(0, 0, " 7\n");
	CHECK(model_parse_line(line, &s, &why) == -1);
	CHECK(why && strstr(why, "accepted"));
	free(why);
	free(line);
	line = line_with(0, 0, " x\n");
	why = NULL;
	CHECK(model_parse_line(line, &s, &why) == -1);
	free(why);
	free(line);
	why = NULL;
	CHECK(model_parse_line(HB_MODEL_PREFIX HB_MODEL_SECTION " -1 0 kernel 1 user 1\n", &s, &why) == -1);
	free(why);
	why = NULL;
	CHECK(model_parse_line(HB_MODEL_PREFIX HB_MODEL_SECTION " 0 0 kernel 1 2 3 user 1 2 3\n", &s,
			       &why) == -1);
	free(why);
}

TEST(a_log_is_read_in_order_and_searched)
{
	char *dir = scratch_dir(), *path = NULL, *why = NULL;
	char *a = line_with(0, 0, "\n"), *b = line_with(0, 1, "\n"), *c = line_with(1, 0, "\n");
	struct model_log log;
	FILE *f;

	CHECK(asprintf(&path, "%s/qemu.log", dir) > 0);
	f = fopen(path, "w");
	CHECK(f != NULL);
	fprintf(f, "qemu-system-x86_64: -plugin ...: warning\n%s%s%shb-cache-model: accesses 3\n", a, b, c);
	fclose(f);
	CHECK(model_cell_load(dir, &log, &why) == 0);
	CHECK(log.n == 3);
	CHECK(model_log_find(&log, 0, 1) == &log.s[1]);
	CHECK(model_log_find(&log, 1, 0) == &log.s[2]);
	CHECK(model_log_find(&log, 1, 1) == NULL);
	model_log_free(&log);
	/* a malformed line of ours fails the whole log: a cell is never priced half */
	f = fopen(path, "a");
	fprintf(f, HB_MODEL_PREFIX HB_MODEL_SECTION " 2 0 kernel 1\n");
	fclose(f);
	CHECK(model_cell_load(dir, &log, &why) == -1);
	CHECK(why && strstr(why, "malformed"));
	free(why);
	free(a);
	free(b);
	free(c);
	free(path);
	hb_remove_tree(dir);
	free(dir);
}

TEST(a_missing_log_is_an_error)
{
	struct model_log log;
	char *why = NULL;

	CHECK(model_cell_load("/nonexistent-hardbench-dir", &log, &why) == -1);
	CHECK(why && strstr(why, "qemu.log"));
	free(why);
}

TEST_MAIN()
