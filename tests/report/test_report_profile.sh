#!/bin/bash
# "Where the cost goes" in every format, on a real set run with --profile (hackbench at its
# defaults, baseline and init_on_free, tests/data/profile-hackbench-icount): the figures
# its profile.jsonl gives, in text, markdown, json, html (a chart and a table), mail (at
# most five lines under the one-liner, within 72 columns), --against-seeds (the measured
# profile under the icount note) and --compare; nothing of it for a set without a profile.
# Usage: test_report_profile.sh HARNESS DATA_DIR
. "$(dirname "$0")/../common/cli-lib.sh"
SET=$DATA/profile-hackbench-icount

report() { "$HARNESS" report "$@" > "$WORK/out" 2> "$WORK/err" || fail "report $*: $(cat "$WORK/err")"; }

tap_case text_names_the_clearing_functions
report "$SET"
grep -q '^Where the cost goes$' "$WORK/out" || fail "no section"
grep -q 'init_on_free against baseline: +389.95 M instructions per repetition' "$WORK/out" || fail "no total: $(cat "$WORK/out")"
grep -Eq '^  memset_erms +\+323\.79 M +83\.0% ' "$WORK/out" || fail "memset_erms row"
grep -Eq '^  clear_page_erms +\+62\.50 M +16\.0% ' "$WORK/out" || fail "clear_page_erms row"
grep -q 'memset_erms stosb' "$WORK/out" || fail "no rep string executions"
# 2 vCPUs with halts: their idle time is not clock time, so nothing is claimed checked
grep -q 'no section could be checked against its' "$WORK/out" || fail "a 2-vCPU section claimed checked"

tap_case markdown_has_a_table
report "$SET" --format markdown
grep -q '^## Where the cost goes$' "$WORK/out" || fail "no heading"
grep -q '^| memset_erms | +323.79 M | 83.0% |' "$WORK/out" || fail "no markdown row"

tap_case json_carries_every_function
report "$SET" --format json
python3 - "$WORK/out" <<'PY' || fail "json"
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["profile"]
assert len(rows) == 1 and rows[0]["variant"] == "init_on_free" and rows[0]["metric"] == "wall", rows
f = rows[0]["functions"]
assert f[0]["function"] == "memset_erms" and abs(f[0]["share"] - 0.830) < 0.001, f[0]
assert f[0]["ci95"] is None                    # one round: no interval, not a made-up one
assert abs(sum(x["delta_insns"] for x in f) - rows[0]["delta_insns"]) < 1, "functions do not sum to the delta"
assert rows[0]["rep_strings"][0]["site"] == "memset_erms stosb"
PY

tap_case html_has_a_chart_and_a_table
report "$SET" --format html
grep -q '<section id="profile">' "$WORK/out" || fail "no section"
grep -q 'href="#profile"' "$WORK/out" || fail "no contents link"
grep -q '<svg class="profile-chart"' "$WORK/out" || fail "no chart"
grep -q '<td>memset_erms</td>' "$WORK/out" || grep -q 'memset_erms</t' "$WORK/out" || fail "no table row"

tap_case mail_says_it_in_five_lines
report "$SET" --format mail
awk 'length > 72 { print FNR ": " length " columns" }' "$WORK/out" | grep . && fail "lines over 72 columns"
n=$(awk '/^hackbench, init_on_free:/ { on = 1; next } on && /^    / { n++; next } on { exit } END { print n + 0 }' "$WORK/out")
[ "$n" -ge 3 ] && [ "$n" -le 6 ] || fail "$n lines under the one-liner: $(cat "$WORK/out")"
grep -q '^      memset_erms 83.0% (+323.79 M)$' "$WORK/out" || fail "no memset_erms line"

tap_case against_seeds_cites_the_measured_profile
report "$SET" --against-seeds
grep -q 'measured by --profile, init_on_free: memset_erms 83.0%, clear_page_erms 16.0%' "$WORK/out" ||
	fail "no citation: $(grep -n 'icount' "$WORK/out" | head -5)"

tap_case compare_shows_each_runs_profile
report "$SET" "$SET" --compare
[ "$(grep -c '^Where the cost goes$' "$WORK/out")" = 2 ] || fail "not one section per run"

tap_case a_set_without_a_profile_shows_none
mkdir -p "$WORK/plain"
cp "$SET/meta.json" "$SET/samples.jsonl" "$WORK/plain/"
report "$WORK/plain"
grep -q 'Where the cost goes' "$WORK/out" && fail "a section without a profile"
report "$WORK/plain" --format json
grep -q '"profile"' "$WORK/out" && fail "a json profile without a profile"

tap_finish
