#!/bin/bash
# harness report RUN1 RUN2 ... --compare on real sets: ci/reference (a quick-matrix run)
# against itself, against another real quick run (tests/data/quick-xeon-icount), against
# a copy whose init_on_free hugetlb times grew by 10% (the gate's regression), and with
# seed 001's imported host-clock set, which is refused as the gate refuses mixed clocks.
# (The quick suite compares its own fresh run with ci/reference too.)
# Usage: test_compare.sh HARNESS DATA_DIR
. "$(dirname "$0")/../common/cli-lib.sh"
REFERENCE=$DATA/../../ci/reference

tap_case same_rows_no_change
"$HARNESS" report "$REFERENCE" "$REFERENCE" --compare --format json > "$WORK/same.json" 2> "$WORK/err" ||
	fail "compare: $(cat "$WORK/err")"
"$HARNESS" report "$REFERENCE" --format json > "$WORK/ref.json" 2>/dev/null
want=$(jq '[.rows[] | select(.variant != "baseline")] | length' "$WORK/ref.json")
got=$(jq '.rows | length' "$WORK/same.json")
[ "$got" = "$want" ] || fail "rows: $got, want $want (one per workload, metric, vCPUs, variant)"
# each run's cost is the report's headline, with its CI
cost=$(jq -r '.rows[] | select(.workload=="hackbench" and .metric=="time" and .variant=="init_on_free") | .costs[1].ci95_low_pct' "$WORK/same.json")
ref=$(jq -r '.rows[] | select(.workload=="hackbench" and .metric=="time" and .variant=="init_on_free") | .ci95_low_pct' "$WORK/ref.json")
[ -n "$cost" ] && [ "$cost" = "$ref" ] || fail "run 2's CI low $cost, the report's $ref"
flags=$(jq -r '[.rows[].changes[0].flag] | unique | join(",")' "$WORK/same.json")
[ "$flags" = ok ] || fail "a run against itself: flags $flags, want ok"
order=$(jq -r '[.rows[] | select(.workload=="hugetlb" and .metric=="wall") | .variant] | join(",")' "$WORK/same.json")
[ "$order" = init_on_alloc,init_on_free ] || fail "row order $order"

tap_case two_real_quick_runs
# the same matrix measured on two hosts (AMD EPYC, Intel Xeon) under icount: hugetlb's and
# test_vmalloc's costs repeat to within a percent, so the gate's relative rule passes them
QUICK=$DATA/quick-xeon-icount
"$HARNESS" report "$REFERENCE" "$QUICK" --compare --format json > "$WORK/pair.json" 2> "$WORK/err" ||
	fail "compare: $(cat "$WORK/err")"
both=$(jq '[.rows[] | select(.costs[0] != null and .costs[1] != null)] | length' "$WORK/pair.json")
[ "$both" = 26 ] || fail "$both rows with both runs' costs, want 26 (14 metrics x 2 variants, but hugetlb's sys)"
# hugetlb's sys reads 0 s in some reps (a few hundred µs, under the tick): no cost there
below=$(jq -c '[.rows[] | select(.workload == "hugetlb" and .metric == "sys" and .costs[0] == null) | .variant]' "$WORK/pair.json")
[ "$below" = '["init_on_alloc","init_on_free"]' ] || fail "hugetlb sys below resolution: $below"
"$HARNESS" report "$REFERENCE" "$QUICK" --compare --workload hugetlb > "$WORK/pair.txt" 2>&1 || fail "compare text"
grep -q '^hugetlb  *sys \[s\]  *1  *init_on_alloc  *below resolution' "$WORK/pair.txt" ||
	fail "no 'below resolution' for hugetlb sys: $(grep ' sys ' "$WORK/pair.txt")"
grep -q '^hugetlb  *wall \[s\]  *1  *init_on_alloc  *193.5x  *\[193.5x, 193.6x\]' "$WORK/pair.txt" ||
	fail "hugetlb wall is not a ratio: $(grep ' wall ' "$WORK/pair.txt")"
got=$(jq -r '[.rows[] | select(.workload == "hugetlb" or .metric == "total_cycles") | .changes[0].flag] | unique | join(",")' "$WORK/pair.json")
[ "$got" = ok ] || fail "hugetlb and total_cycles flags: $got"
change=$(jq -r '.rows[] | select(.workload=="hugetlb" and .metric=="wall" and .variant=="init_on_alloc") | .changes[0].change_pct' "$WORK/pair.json")
awk -v c="$change" 'BEGIN { exit !(c > -1 && c < 1) }' || fail "hugetlb wall init_on_alloc changed by $change%"
# rows only one run has (IPI counts, newer than ci/reference) say so
why=$(jq -r '[.rows[] | select(.metric == "ipi_call") | .changes[0].why] | unique | join(",")' "$WORK/pair.json")
[ "$why" = "not in both runs" ] || fail "a row of one run: $why"

tap_case regression_flagged_as_the_gate_does
mkdir -p "$WORK/slower"
cp "$REFERENCE/meta.json" "$WORK/slower/"
jq -c 'if .variant == "init_on_free" and .workload == "hugetlb" and .metric == "wall" then .value *= 1.10 else . end' \
	"$REFERENCE/samples.jsonl" > "$WORK/slower/samples.jsonl"
"$HARNESS" report "$REFERENCE" "$WORK/slower" "$REFERENCE" --compare --format json > "$WORK/three.json" 2>&1 ||
	fail "compare three: $(cat "$WORK/three.json")"
row='.rows[] | select(.workload=="hugetlb" and .metric=="wall" and .variant=="init_on_free")'
got=$(jq -r "[$row | .changes[].flag] | join(\",\")" "$WORK/three.json")
[ "$got" = regression,improvement ] || fail "hugetlb wall init_on_free changes: $got, want regression,improvement"
change=$(jq -r "$row | .changes[0].change_pct" "$WORK/three.json")
awk -v c="$change" 'BEGIN { exit !(c > 9 && c < 11) }' || fail "change $change%, want about +10%"
"$HARNESS" gate "$WORK/slower" --against "$REFERENCE" --relative baseline > "$WORK/gate.out" 2>&1 &&
	fail "the gate passed what compare flags"
"$HARNESS" report "$REFERENCE" "$WORK/slower" --compare > "$WORK/two.txt" 2>&1 || fail "compare text"
grep -Eq '^hugetlb +wall \[s\] +1 +init_on_free .*REGRESSION' "$WORK/two.txt" || fail "text: no REGRESSION row: $(cat "$WORK/two.txt" | head -12)"
"$HARNESS" report "$REFERENCE" "$WORK/slower" --compare --format markdown > "$WORK/two.md" 2>&1 || fail "compare markdown"
grep -q '^| hugetlb | wall \[s\] | 1 | init_on_free |' "$WORK/two.md" || fail "markdown row"
"$HARNESS" report "$REFERENCE" "$WORK/slower" --compare --format html > "$WORK/two.html" 2>&1 || fail "compare html"
grep -q '<td>REGRESSION</td>' "$WORK/two.html" || fail "html: no REGRESSION cell"

tap_case mixed_clocks_refused
import "$DATA/seed001-cook-kbuild.csv" "$WORK/cook"
expect_exit 2 "icount clock.*host clock.*same --clock" -- "$HARNESS" report "$REFERENCE" "$WORK/cook" --compare
# a modelled copy of the reference (--clock model) against the icount reference: refused
mkdir -p "$WORK/modelled"
sed 's/"clock":"icount"/"clock":"model"/' "$REFERENCE/samples.jsonl" > "$WORK/modelled/samples.jsonl"
sed 's/"name": *"icount"/"name":"model"/' "$REFERENCE/meta.json" > "$WORK/modelled/meta.json"
grep -q '"clock":"model"' "$WORK/modelled/samples.jsonl" || fail "the reference's samples name no icount clock"
expect_exit 2 "model clock.*icount clock.*same --clock" -- "$HARNESS" report "$WORK/modelled" "$REFERENCE" --compare
"$HARNESS" report "$WORK/modelled" > "$WORK/modelled.txt" 2>&1 || fail "report of a model set: $(cat "$WORK/modelled.txt")"
grep -q "clock: model: MODELLED times" "$WORK/modelled.txt" || fail "a model set's report does not say modelled"
expect_exit 2 "at least two runs" -- "$HARNESS" report "$REFERENCE" --compare
expect_exit 2 "--format csv has no comparison" -- "$HARNESS" report "$REFERENCE" "$REFERENCE" --compare --format csv
expect_exit 2 "--ratio-to does not apply with --compare" -- "$HARNESS" report "$REFERENCE" "$REFERENCE" --compare --ratio-to init_on_free
expect_exit 2 "'nowhere' not found" -- "$HARNESS" report "$REFERENCE" nowhere --compare

tap_finish
