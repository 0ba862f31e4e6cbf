/* The paired report end to end on small hand-made result sets: the JSON rows carry the
 * headline interval, MDE, paired flag and pair count, and Welch's beside them; the header
 * names the icount clock and the headline rule; an imported set pairs only with --paired
 * (and --paired is refused where there are no rounds); the gate refuses a reference of
 * another clock and judges like with like. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "test.h"
#include "scratch.h"
#include "common/log.h"
#include "gate/gate.h"
#include "report/report.h"

/* Four rounds with a drift; init_on_alloc 4%, 6%, 5%, 5% slower than the same round's
 * baseline, its cost times grow (1: as is). clock NULL: host (no key). */
static char *make_set_grown(const char *clock, const char *meta, double grow)
{
	static const double drift[] = { 100, 110, 95, 120 }, cost[] = { 1.04, 1.06, 1.05, 1.05 };
	char *dir = scratch_dir(), *text = xstrdup(""), *next;
	char clk[40] = "";

	if (clock)
		snprintf(clk, sizeof(clk), ",\"clock\":\"%s\"", clock);
	for (int b = 0; b < 4; b++)
		for (int v = 0; v < 2; v++) {
			next = xasprintf("%s{\"variant\":\"%s\",\"workload\":\"hackbench\",\"metric\":"
					 "\"time\",\"unit\":\"s\",\"cores\":1,\"boot\":%d,\"rep\":0,"
					 "\"value\":%.9g,\"lower_is_better\":true%s}\n", text,
					 v ? "init_on_alloc" : "baseline", b,
					 drift[b] * (v ? 1 + (cost[b] - 1) * grow : 1), clk);
			free(text);
			text = next;
		}
	scratch_write(dir, "samples.jsonl", text);
	if (meta)
		scratch_write(dir, "meta.json", meta);
	free(text);
	return dir;
}

static char *make_set(const char *clock, const char *meta)
{
	return make_set_grown(clock, meta, 1);
}

/* The report of dir in format, as text (caller frees); *rc its status. */
static char *report(const char *dir, enum report_format format, bool paired, int *rc)
{
	struct report_opts o = { .format = format, .paired = paired };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	*rc = report_run_dir(dir, &o, out);
	fclose(out);
	return buf;
}

static json_object *field(json_object *o, const char *name)
{
	json_object *v = NULL;
	json_object_object_get_ex(o, name, &v);
	return v;
}

TEST(json_rows_carry_paired_and_welch)
{
	char *dir = make_set("icount", "{\"clock\":{\"name\":\"icount\",\"shift\":0}}");
	int rc;
	char *text = report(dir, REPORT_JSON, false, &rc);
	json_object *top = json_tokener_parse(text), *rows = field(top, "rows");
	json_object *v = json_object_array_get_idx(rows, 1), *b = json_object_array_get_idx(rows, 0);
	double want = (pow(1.04 * 1.06 * 1.05 * 1.05, 0.25) - 1) * 100;

	CHECK(rc == HB_EXIT_OK && json_object_array_length(rows) == 2);
	CHECK_STR(json_object_get_string(field(top, "clock")), "icount");
	CHECK_HAS(json_object_get_string(field(top, "headline")), "paired");
	CHECK_STR(json_object_get_string(field(v, "variant")), "init_on_alloc");
	CHECK_STR(json_object_get_string(field(v, "clock")), "icount");
	CHECK(json_object_get_boolean(field(v, "paired")));
	CHECK(json_object_get_int(field(v, "n_pairs")) == 4);
	CHECK_NEAR(json_object_get_double(field(v, "slowdown_pct")), want, 1e-6);
	CHECK(json_object_get_double(field(v, "ci95_low_pct")) > 3.5 &&
	      json_object_get_double(field(v, "ci95_high_pct")) < 6.5, "paired CI within 3.5..6.5");
	CHECK(json_object_get_double(field(v, "ci95_low_pct")) < want &&
	      want < json_object_get_double(field(v, "ci95_high_pct")));
	CHECK(json_object_get_double(field(v, "mde_pct")) > 0);
	CHECK(json_object_get_double(field(v, "p_value")) < 0.05);
	/* Welch sees the drift: same order of slowdown, a much wider interval. */
	CHECK(json_object_get_double(field(v, "welch_ci95_high_pct")) -
	      json_object_get_double(field(v, "welch_ci95_low_pct")) >
	      5 * (json_object_get_double(field(v, "ci95_high_pct")) -
		   json_object_get_double(field(v, "ci95_low_pct"))));
	CHECK(json_object_get_double(field(v, "welch_mde_pct")) > json_object_get_double(field(v, "mde_pct")));
	CHECK(field(v, "welch_p_value") != NULL);
	CHECK(!json_object_get_boolean(field(b, "paired")) && field(b, "ci95_low_pct") == NULL);
	json_object_put(top);
	free(text);
	text = report(dir, REPORT_TEXT, false, &rc);
	CHECK_HAS(text, "clock: icount: a time is a count of guest instructions (2^0 ns each), not cycles");
	CHECK_HAS(text, "headline: paired");
	CHECK_HAS(text, "== hackbench: time [s], cores=1, clock=icount, lower is better");
	CHECK_HAS(text, "; paired, 4 rounds; Welch ");
	free(text);
	hb_remove_tree(dir);
	free(dir);
}

/* An imported set with a boot column: Welch unless --paired; --paired without rounds: 2. */
TEST(imported_pairs_only_when_asked)
{
	char *dir = make_set(NULL, "{\"imported_from\":\"x.csv\"}"), *text, *nob = scratch_dir();
	int rc;

	text = report(dir, REPORT_TEXT, false, &rc);
	CHECK(rc == HB_EXIT_OK);
	CHECK_HAS(text, "headline: Welch (ratio of means, unpaired): an imported set");
	CHECK_HAS(text, "clock: host");
	CHECK(!strstr(text, "paired, 4 rounds"));
	free(text);
	text = report(dir, REPORT_TEXT, true, &rc);
	CHECK(rc == HB_EXIT_OK);
	CHECK_HAS(text, "; paired, 4 rounds; Welch ");
	free(text);
	scratch_write(nob, "samples.jsonl", "{\"variant\":\"baseline\",\"workload\":\"w\",\"metric\":\"m\","
		      "\"value\":1}\n");
	free(report(nob, REPORT_TEXT, true, &rc));
	CHECK(rc == HB_EXIT_USAGE, "--paired without rounds: %d", rc);
	hb_remove_tree(dir);
	hb_remove_tree(nob);
	free(dir);
	free(nob);
}

/* icount run vs host reference: refused; icount vs icount (as a set and as a JSON
 * report): compared, and the entries carry their clock. */
TEST(gate_compares_like_with_like)
{
	char *icount = make_set("icount", NULL), *host = make_set(NULL, NULL);
	char *json = xasprintf("%s/ref.json", icount), *text;
	struct gate_opts o = { .max_slowdown_pct = 5, .alpha = 0.05 };
	struct gate_set set;
	FILE *sink = fopen("/dev/null", "w");
	int rc;

	CHECK(gate_run(icount, host, &o, sink) == HB_EXIT_USAGE);
	CHECK(gate_run(host, icount, &o, sink) == HB_EXIT_USAGE);
	CHECK(gate_run(icount, icount, &o, sink) == HB_EXIT_OK);
	CHECK(gate_load(icount, NULL, &set) == 0);
	CHECK_STR(set.clock, "icount");
	CHECK_STR(set.e[0].clock, "icount");
	gate_set_free(&set);
	text = report(icount, REPORT_JSON, false, &rc);
	scratch_write(icount, "ref.json", text);
	CHECK(gate_load(json, NULL, &set) == 0);
	CHECK_STR(set.clock, "icount");
	gate_set_free(&set);
	CHECK(gate_run(icount, json, &o, sink) == HB_EXIT_OK);
	CHECK(gate_run(host, json, &o, sink) == HB_EXIT_USAGE);
	fclose(sink);
	free(text);
	free(json);
	hb_remove_tree(icount);
	hb_remove_tree(host);
	free(icount);
	free(host);
}

/* --relative with paired rounds: the cost grown from 5% to 10% in every round is a
 * regression although the drift between rounds (+-12%) hides it from the ratio of means;
 * the same cost is ok. Both as a set and as a JSON report reference. */
TEST(relative_gate_uses_paired_costs)
{
	char *ref = make_set("icount", NULL), *same = make_set("icount", NULL);
	char *worse = make_set_grown("icount", NULL, 2), *json = xasprintf("%s/ref.json", ref), *text;
	struct gate_opts o = { .max_slowdown_pct = 2, .alpha = 0.05, .relative_to = "baseline" };
	struct gate_set set;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int rc;

	CHECK(gate_load(ref, "baseline", &set) == 0);
	CHECK(set.n == 2 && set.e[1].cost_paired && set.e[1].cost_pairs == 4);
	gate_set_free(&set);
	CHECK(gate_run(same, ref, &o, f) == HB_EXIT_OK);
	CHECK(gate_run(worse, ref, &o, f) == HB_EXIT_FAIL);
	text = report(ref, REPORT_JSON, false, &rc);
	scratch_write(ref, "ref.json", text);
	CHECK(gate_load(json, "baseline", &set) == 0);
	CHECK(set.e[1].cost_paired && set.e[1].cost_pairs == 4);
	gate_set_free(&set);
	CHECK(gate_run(worse, json, &o, f) == HB_EXIT_FAIL);
	fclose(f);
	CHECK_HAS(out, "regression     hackbench time cores=1 clock=icount init_on_alloc: +4.");
	CHECK_HAS(out, "4 paired rounds vs 4 paired rounds");
	free(out);
	free(text);
	free(json);
	for (char **d = (char *[]){ ref, same, worse, NULL }; *d; d++) {
		hb_remove_tree(*d);
		free(*d);
	}
}

TEST_MAIN()
