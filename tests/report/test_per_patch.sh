#!/bin/bash
# The step-by-step section of the report (report/report_per_patch.c) on a real set: a
# 3-patch series run with --per-patch under icount (tests/data/per-patch: the guest test's
# series, 1 a comment, 2 eight more clears per AF_UNIX message, 3 a comment). Each step's
# own cost is checked against an estimate computed here from samples.jsonl (the
# geometric mean of the per-round ratios to the step before it), in text, json, mail and
# html; then the same samples as a range of commits (steps as kernel lines), a step not
# measured, and a set with no series (no section at all).
# Usage: test_per_patch.sh HARNESS DATA_DIR
. "$(dirname "$0")/../common/cli-lib.sh"
SET=$DATA/per-patch

# paired_cost SET VARIANT AGAINST [METRIC]: 100 * (exp(mean over rounds of log(mean of
# VARIANT / mean of AGAINST)) - 1), on hackbench's time, from the samples alone.
paired_cost() {
	python3 - "$1/samples.jsonl" "$2" "$3" "${4:-time}" <<'PY'
import json, math, sys, collections
path, v, a, metric = sys.argv[1:]
by = collections.defaultdict(list)
for line in open(path):
    s = json.loads(line)
    if s["workload"] == "hackbench" and s["metric"] == metric:
        by[(s["variant"], s.get("kernel_line", "6.1"), s["boot"])].append(s["value"])
def key(name):  # a variant, or "line:NAME" for a kernel line's baseline
    return ("baseline", name[5:]) if name.startswith("line:") else (name, "6.1")
logs = []
for (var, line, boot), vals in by.items():
    if (var, line) == key(v) and (key(a) + (boot,)) in by:
        other = by[key(a) + (boot,)]
        logs.append(math.log((sum(vals) / len(vals)) / (sum(other) / len(other))))
print("%.6f" % (100 * (math.exp(sum(logs) / len(logs)) - 1)))
PY
}

# json_step FILE STEP FIELD [METRIC]: the per_patch record's field, hackbench.
json_step() {
	python3 -c "
import json, sys
for r in json.load(open('$1')).get('per_patch', []):
    if r['workload'] == 'hackbench' and r['metric'] == '${4:-time}' and r['step'] == $2:
        print(r['$3']); sys.exit(0)
sys.exit(1)"
}

close() { # A B: equal to 1e-4
	python3 -c "import sys; sys.exit(0 if abs(float('$1') - float('$2')) < 1e-4 else 1)"
}

tap_case text_has_each_step_against_the_one_before
"$HARNESS" report "$SET" > "$WORK/text" 2> "$WORK/err" || fail "report: $(cat "$WORK/err")"
sed -n '/^== hbtest, patch by patch/,$p' "$WORK/text" > "$WORK/section"
grep -q "own cost = each step against the step before it, in all = against step 0 (baseline)" "$WORK/section" ||
	fail "no section heading: $(cat "$WORK/text")"
grep -Eq "^    0 +\(before the series\) +baseline " "$WORK/section" || fail "no step 0 row: $(cat "$WORK/section")"
for k in 1 2 3; do
	grep -Eq "^    $k/3 .* hbtest\.$k " "$WORK/section" || fail "no row of step $k: $(cat "$WORK/section")"
done
grep -E "^    2/3 " "$WORK/section" | head -1 | grep -q "worse" || fail "step 2 is not worse: $(cat "$WORK/section")"

tap_case json_costs_are_paired_against_the_step_before
"$HARNESS" report "$SET" --format json > "$WORK/json" || fail "report json"
for k in 1 2 3; do
	prev=$([ "$k" = 1 ] && echo baseline || echo "hbtest.$((k - 1))")
	want=$(paired_cost "$SET" "hbtest.$k" "$prev")
	got=$(json_step "$WORK/json" "$k" cost_pct) || fail "no step $k in per_patch"
	close "$got" "$want" || fail "step $k cost_pct $got, want $want (paired against $prev)"
	[ "$(json_step "$WORK/json" "$k" against)" = "$prev" ] || fail "step $k not against $prev"
	want=$(paired_cost "$SET" "hbtest.$k" baseline)
	got=$(json_step "$WORK/json" "$k" cumulative_pct)
	close "$got" "$want" || fail "step $k cumulative_pct $got, want $want (against baseline)"
done
[ "$(json_step "$WORK/json" 2 subject)" = "af_unix: clear each stream skb eight more times (a known cost)" ] ||
	fail "step 2's subject"
python3 -c "import sys; sys.exit(0 if float('$(json_step "$WORK/json" 2 ci95_low_pct)') > 0 else 1)" ||
	fail "step 2's CI is not above zero"

tap_case mail_names_each_patch
"$HARNESS" report "$SET" --format mail > "$WORK/mail" || fail "report mail"
awk 'length > 72 { print FNR ": " length " columns" }' "$WORK/mail" | grep . && fail "lines over 72 columns"
tr '\n' ' ' < "$WORK/mail" | sed 's/  */ /g' > "$WORK/mail1"
grep -Eq "patch 2/3 'af_unix: clear each stream skb eight more times \(a known cost\)': \+[0-9.]+% time \[\+[0-9.]+%, \+[0-9.]+%\]; in all \+[0-9.]+%" "$WORK/mail1" ||
	fail "no step 2 line: $(cat "$WORK/mail")"
grep -Eq "patch 1/3 'hardbench test: a comment \(step 1\)': [^;]*time" "$WORK/mail1" || fail "no step 1 line"
[ "$(grep -o "patch [0-9]/3 '" "$WORK/mail1" | wc -l)" = 3 ] || fail "not one line per step (the primary metric alone)"

tap_case page_has_the_section
"$HARNESS" report "$SET" --format html > "$WORK/page.html" || fail "report html"
grep -q '<section id="per-patch"><h2>Patch by patch</h2>' "$WORK/page.html" || fail "no section"
grep -q '<li><a href="#per-patch">' "$WORK/page.html" || fail "not in the contents"
grep -q '<td>af_unix: clear each stream skb eight more times (a known cost)</td>' "$WORK/page.html" ||
	fail "the subject is not whole in the page's table"

tap_case commits_as_lines
# The same samples as a range of commits: step k is kernel line r.k, variant baseline.
mkdir -p "$WORK/range"
python3 - "$SET" "$WORK/range" <<'PY'
import json, sys
src, dst = sys.argv[1:]
lines = {"baseline": "r-0000000", "hbtest.1": "r.1-1111111", "hbtest.2": "r.2-2222222", "hbtest.3": "r.3-3333333"}
with open(dst + "/samples.jsonl", "w") as out:
    for line in open(src + "/samples.jsonl"):
        s = json.loads(line)
        s["kernel_line"] = lines[s["variant"]]
        s["variant"] = "baseline"
        out.write(json.dumps(s) + "\n")
m = json.load(open(src + "/meta.json"))
steps = json.loads(json.dumps(m["own_change"]["per_patch"]["hbtest"]["steps"]))
for k, st in enumerate(steps, 1):
    del st["variant"]
    st["line"], st["commit"] = lines["hbtest.%d" % k], str(k) * 40
m["own_change"] = {"per_patch": {"/src/linux@r~3..r": {"kind": "commit", "tree": "/src/linux",
    "base": {"line": "r-0000000", "commit": "0" * 40}, "steps": steps}}}
m["plan"]["variants"] = ["baseline"]
m["plan"]["kernels"] = list(lines.values())
json.dump(m, open(dst + "/meta.json", "w"))
PY
"$HARNESS" report "$WORK/range" > "$WORK/rtext" 2> "$WORK/err" || fail "report: $(cat "$WORK/err")"
grep -q "^== /src/linux@r~3..r, commit by commit: .*against step 0 (r-0000000)" "$WORK/rtext" || fail "no commit section: $(cat "$WORK/rtext")"
grep -Eq "^    2/3 +2222222 af_unix: clear each .* r\.2-2222222 " "$WORK/rtext" || fail "step 2 row: $(cat "$WORK/rtext")"
"$HARNESS" report "$WORK/range" --format json > "$WORK/rjson" || fail "report json"
want=$(paired_cost "$WORK/range" line:r.2-2222222 line:r.1-1111111)
got=$(json_step "$WORK/rjson" 2 cost_pct) || fail "no step 2"
close "$got" "$want" || fail "commit step 2 cost_pct $got, want $want"
[ "$(json_step "$WORK/rjson" 2 kernel_line)" = r.2-2222222 ] && [ "$(json_step "$WORK/rjson" 2 kind)" = commit ] ||
	fail "commit step 2's line or kind"
"$HARNESS" report "$WORK/range" --format mail | tr '\n' ' ' | grep -q "commit 2/3 222222222222 'af_unix: clear" ||
	fail "the mail does not name the commit"

tap_case a_step_not_measured
mkdir -p "$WORK/gap"
grep -v '"variant": *"hbtest.2"' "$SET/samples.jsonl" > "$WORK/gap/samples.jsonl"
cp "$SET/meta.json" "$WORK/gap/"
"$HARNESS" report "$WORK/gap" > "$WORK/gtext" || fail "report of a set with a step missing"
grep -E "^    2/3 " "$WORK/gtext" | grep -q "not measured" || fail "step 2 not said missing: $(cat "$WORK/gtext")"
grep -E "^    3/3 " "$WORK/gtext" | head -1 | grep -q "step before not measured" || fail "step 3's own cost"
"$HARNESS" report "$WORK/gap" --format json > "$WORK/gjson" || fail "report json"
[ "$(json_step "$WORK/gjson" 3 cost_pct)" = None ] || fail "step 3 has a cost without step 2"
[ "$(json_step "$WORK/gjson" 3 error)" = "step before not measured" ] || fail "step 3's error"

tap_case the_same_every_round
# An exact clock running identical code gives identical samples: step 1's values made
# baseline's, round by round. Its interval is the point 0, said in words.
mkdir -p "$WORK/same"
python3 - "$SET" "$WORK/same" <<'PY'
import json, sys
src, dst = sys.argv[1:]
samples = [json.loads(l) for l in open(src + "/samples.jsonl")]
base = {(s["metric"], s["boot"], s["rep"]): s["value"] for s in samples if s["variant"] == "baseline"}
with open(dst + "/samples.jsonl", "w") as out:
    for s in samples:
        if s["variant"] == "hbtest.1":
            s["value"] = base[(s["metric"], s["boot"], s["rep"])]
        out.write(json.dumps(s) + "\n")
PY
cp "$SET/meta.json" "$WORK/same/"
"$HARNESS" report "$WORK/same" > "$WORK/stext" || fail "report"
sed -n '/^== hbtest, patch by patch/,$p' "$WORK/stext" | grep -E "^    1/3 " | head -1 |
	grep -Eq "\+0\.00% +\[\+0\.00%, \+0\.00%\] .*paired 3 +the same each round" || fail "step 1: $(cat "$WORK/stext")"
"$HARNESS" report "$WORK/same" --format json > "$WORK/sjson" || fail "report json"
[ "$(json_step "$WORK/sjson" 1 same_every_round)" = True ] && [ "$(json_step "$WORK/sjson" 1 cost_pct)" = 0 ] &&
	[ "$(json_step "$WORK/sjson" 1 ci95_low_pct)" = 0 ] && [ "$(json_step "$WORK/sjson" 1 ci95_high_pct)" = 0 ] ||
	fail "step 1 in json: $(grep -A30 '"step": 1' "$WORK/sjson" | head -30)"
# Step 2 against step 1 is then against baseline's values: the same as its cost in all.
close "$(json_step "$WORK/sjson" 2 cost_pct)" "$(json_step "$WORK/sjson" 2 cumulative_pct)" ||
	fail "step 2 against an identical step 1 differs from step 2 against baseline"
"$HARNESS" report "$WORK/same" --format mail | tr '\n' ' ' | sed 's/  */ /g' |
	grep -q "patch 1/3 'hardbench test: a comment (step 1)': time the same in all 3 rounds; in all no change" ||
	fail "the mail's step 1"

tap_case no_series_no_section
"$HARNESS" report "$DATA/vmaops-612-icount" > "$WORK/plain" || fail "report"
grep -q "patch by patch" "$WORK/plain" && fail "a section without a series"
"$HARNESS" report "$DATA/vmaops-612-icount" --format json | grep -q '"per_patch"' && fail "a per_patch key without a series"

tap_finish
