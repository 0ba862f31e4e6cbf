#!/bin/bash
# Seed 003 (mseal) against a synthetic 6.12 vmaops set: `report --against-seeds` compares
# the figures on their kernel line (6.12, even when the run's first line is 6.1), with =
# baseline (and mseal-prewalk), without = mseal-off, and shows them in the seed's table
# shape: without, with, delta, delta per VMA, %, published next to measured.
# Synthetic values: without = 1000*vmas + 100*op + 4*boot ns, baseline +10 ns per VMA,
# mseal-prewalk +20 ns per VMA; three boots, so each mean has st.err 4/sqrt(3).
# Usage: test_seed_arms.sh HARNESS DATA_DIR
. "$(dirname "$0")/../common/cli-lib.sh"
. "$(dirname "$0")/lib.sh"

# vmaops_set DIR LINE [VARIANTS] [EXTRA]: samples of every (op, vmas) per variant and boot.
vmaops_set() {
	mkdir -p "$1"
	awk -v line="$2" -v vars="${3:-mseal-off baseline mseal-prewalk}" -v extra="${4:-0}" 'BEGIN {
		split("munmap mprotect madvise", ops, " "); split("1 2 4 8 16 32", spans, " ")
		nv = split(vars, vs, " ")
		for (b = 0; b < 3; b++) for (o = 1; o <= 3; o++) for (s = 1; s <= 6; s++) for (v = 1; v <= nv; v++) {
			n = spans[s]
			arm = vs[v] == "baseline" ? 10 : vs[v] == "mseal-prewalk" ? 20 : 0
			val = 1000 * n + 100 * o + 4 * b + arm * n + extra
			fmt = "{\"variant\":\"%s\",\"workload\":\"vmaops\",\"metric\":\"%s\",\"unit\":\"ns\",\"cores\":2," \
			      "\"boot\":%d,\"rep\":0,\"value\":%s,\"lower_is_better\":true,\"kernel_line\":\"%s\"}\n"
			printf fmt, vs[v], ops[o] "/" n, b, val, line
			printf fmt, vs[v], ops[o] "/" n "/per_vma", b, val / n, line
		}
	}' >> "$1/samples.jsonl"
}

tap_case setup
set_dir=$WORK/mseal
vmaops_set "$set_dir" 6.12
echo '{"harness_version":"test","accel":"tcg","plan":{"kernels":["6.12"]},"kernels":{"base":{"release":"6.12.117"},"mseal-off":{"release":"6.12.117"}}}' \
	> "$set_dir/meta.json"
"$HARNESS" report "$set_dir" --against-seeds --workload vmaops > "$WORK/r.txt" 2>&1 || fail "report: $(cat "$WORK/r.txt")"

tap_case seed_table_shape
contains "$WORK/r.txt" "  without = mseal-off; pub = the seed's, meas = this run's mean; delta = with - without; % = with / without"
grep -Eq '^  source +metric +with +without pub +meas +with pub +meas +delta pub +meas \(st\.err\) +per VMA pub +meas \(st\.err\) +% pub +meas +agreement$' \
	"$WORK/r.txt" || fail "header: $(grep source "$WORK/r.txt")"
# munmap over 1 VMA: published 909 -> 944 (+35, 35/VMA, 104%); measured 1104 -> 1114; baseline
# against mseal-off expects no effect (published.json expect_none), so +10 ns is "measured one"
grep -Eq '^  line 380 +munmap/1 +baseline +909 +1104 +944 +1114 +\+35 +\+10\.0 \(3\.3\) +\+35 +\+10\.0 \(3\.3\) +104% +100\.9% +no effect expected, measured one$' \
	"$WORK/r.txt" || fail "line 380: $(grep 'line 380' "$WORK/r.txt")"
# mprotect over 32 VMAs: +1142 ns, 36 per VMA published; +320 ns, 10 per VMA measured
grep -Eq '^  line 391 +mprotect/32 +baseline +27827 +32204 +28969 +32524 +\+1142 +\+320\.0 \(3\.3\) +\+36 +\+10\.0 \(0\.1\) +104% +101\.0% ' \
	"$WORK/r.txt" || fail "line 391: $(grep 'line 391' "$WORK/r.txt")"
# all 18 rows of the time table (lines 380-397) for both arms, and the 5.10 table
for l in $(seq 380 397) $(seq 423 440); do
	grep -Eq "^  line $l +(munmap|mprotect|madvise)/[0-9]+ +baseline +[0-9]+ +[0-9]+ " "$WORK/r.txt" || fail "no measured row for line $l"
done
[ "$(grep -Ec '^  line 3[89][0-9] +[a-z]+/[0-9]+ +mseal-prewalk ' "$WORK/r.txt")" = 18 ] || fail "18 mseal-prewalk rows"

tap_case third_arm_under_the_first
grep -A1 -E '^  line 397 +madvise/32 +baseline ' "$WORK/r.txt" | tail -1 |
	grep -Eq '^  line 397 +madvise/32 +mseal-prewalk +4109 +32304 +4642 +32944 +\+534 +\+640\.0 \(3\.3\) +\+17 +\+20\.0 \(0\.1\) ' ||
	fail "mseal-prewalk row not under the baseline row of line 397: $(grep 'line 397' "$WORK/r.txt")"
contains "$WORK/r.txt" "measured:  cores 2; accel tcg; kernels: baseline 6.12.117, mseal-off 6.12.117, mseal-prewalk unknown (kernel line 6.12)"

tap_case cycles_not_measured_on_one_line
contains "$WORK/r.txt" "== vmaops, seed 003, lines 400-417: 18 figures (baseline): not measured: no metric munmap/1/cycles of vmaops in this run, nor the other figures' metrics"
grep -qi nan "$WORK/r.txt" && fail "NaN in the text"

tap_case compared_on_the_figures_line
# 6.1 samples first (and first in plan.kernels), far off: the 6.12 figures must not see them
two=$WORK/two-lines
vmaops_set "$two" 6.1 "mseal-off baseline" 50000
cat "$set_dir/samples.jsonl" >> "$two/samples.jsonl"
echo '{"harness_version":"test","plan":{"kernels":["6.1","6.12"]}}' > "$two/meta.json"
"$HARNESS" report "$two" --against-seeds --workload vmaops > "$WORK/t.txt" 2>&1 || fail "report two lines"
grep -Eq '^  line 380 +munmap/1 +baseline +909 +1104 +944 +1114 ' "$WORK/t.txt" ||
	fail "6.12 figure compared on another line: $(grep 'line 380' "$WORK/t.txt")"

tap_case release_of_the_figures_line
# A run of two lines lists its first line's kernels as "kernels" and each line's in
# "kernels_by_line": the 6.12 figures name 6.12's release, not 6.1's or "unknown".
k61='"base":{"line":"6.1","release":"6.1.192"},"mseal-off":{"line":"6.1","release":"6.1.192"}'
k612='"base":{"line":"6.12","release":"6.12.118"},"mseal-off":{"line":"6.12","release":"6.12.118"},"mseal-prewalk":{"line":"6.12","release":"6.12.118"}'
echo '{"harness_version":"test","accel":"tcg","plan":{"kernels":["6.1","6.12"]},"variants":{"baseline":{"build":"base"},"mseal-off":{"build":"mseal-off"},"mseal-prewalk":{"build":"mseal-prewalk"}},"kernels":{'"$k61"'},"kernels_by_line":{"6.1":{'"$k61"'},"6.12":{'"$k612"'}}}' > "$two/meta.json"
"$HARNESS" report "$two" --against-seeds --workload vmaops > "$WORK/k.txt" 2>&1 || fail "report two lines with kernels"
contains "$WORK/k.txt" "measured:  cores 2; accel tcg; kernel 6.12.118 (kernel line 6.12)"
grep 'measured:  cores' "$WORK/k.txt" | grep -q '6\.1\.192\|unknown' &&
	fail "a 6.12 figure named another line's release: $(grep -m1 'measured:  cores' "$WORK/k.txt")"

tap_case run_without_the_line
old=$WORK/only61
vmaops_set "$old" 6.1 "mseal-off baseline"
echo '{"harness_version":"test"}' > "$old/meta.json"
"$HARNESS" report "$old" --against-seeds --workload vmaops > "$WORK/o.txt" 2>&1 || fail "report 6.1 set"
contains "$WORK/o.txt" "== vmaops, seed 003, lines 380-397: 36 figures (baseline, mseal-prewalk): not measured: no vmaops samples on kernel line 6.12 in this run (it has: 6.1)"

tap_case absent_arm_one_line
grep -v prewalk "$set_dir/samples.jsonl" > "$WORK/no-pre.jsonl"
mkdir -p "$WORK/nopre" && mv "$WORK/no-pre.jsonl" "$WORK/nopre/samples.jsonl" && cp "$set_dir/meta.json" "$WORK/nopre/"
"$HARNESS" report "$WORK/nopre" --against-seeds --workload vmaops > "$WORK/n.txt" 2>&1 || fail "report without prewalk"
contains "$WORK/n.txt" "  mseal-prewalk: 18 figures not measured: no such variant in this run"
grep -Eq '^  line 38[0-9] .* mseal-prewalk ' "$WORK/n.txt" && fail "rows of dashes for the absent arm"

tap_case json_csv_markdown
"$HARNESS" report "$set_dir" --against-seeds --workload vmaops --metric munmap/1 --format json > "$WORK/r.json" || fail "json"
grep -q '"kernel_line": "6.12"' "$WORK/r.json" || fail "json: kernel line"
grep -q '"delta_per": 35' "$WORK/r.json" || fail "json: published delta per VMA"
grep -Eq '"delta": 10(\.0)?,' "$WORK/r.json" || fail "json: measured delta: $(grep '"delta"' "$WORK/r.json")"
"$HARNESS" report "$set_dir" --against-seeds --workload vmaops --metric munmap/1 --format csv > "$WORK/r.csv" || fail "csv"
head -1 "$WORK/r.csv" | grep -q ',kernel_line$' || fail "csv header"
grep -q '^"003",380,.*,"6.12"$' "$WORK/r.csv" || fail "csv row: $(grep 380 "$WORK/r.csv")"
"$HARNESS" report "$set_dir" --against-seeds --workload vmaops --format markdown > "$WORK/r.md" || fail "markdown"
grep -Eq '^\| line 380 \| munmap/1 \| baseline \| 909 \| 1104 \| 944 \| 1114 \| \+35 \| \+10\.0 \(3\.3\) \|' "$WORK/r.md" ||
	fail "markdown row: $(grep 'line 380' "$WORK/r.md")"

tap_case captured_612_run
# A real run (tests/data/vmaops-612-icount: `harness run --kernels 6.12 --variants
# baseline,mseal-off --workloads vmaops --cores 1 --boots 3 --reps 3 --clock icount`, its
# mseal and per_vma rows left out): every row of the seed's time table is measured.
cap=$DATA/vmaops-612-icount
"$HARNESS" report "$cap" --against-seeds --workload vmaops > "$WORK/c.txt" 2>&1 || fail "captured: $(cat "$WORK/c.txt")"
contains "$WORK/c.txt" "measured:  cores 1; accel tcg; kernel 6.12.117 (kernel line 6.12)"
[ "$(grep -Ec '^  line (3[89][0-9]|4[234][0-9]) +[a-z]+/[0-9]+ +baseline +[0-9]+ +[0-9.]+ +[0-9]+ +[0-9.]+ +[-+][0-9]+ +[-+][0-9.]+ \([0-9.]+\) ' "$WORK/c.txt")" = 36 ] ||
	fail "36 measured rows (lines 380-397, 423-440): $(grep -c '^  line' "$WORK/c.txt")"
grep -Eq '^  line 385 +munmap/32 +baseline +11811 +79790 +12398 +79960 +\+587 +\+170\.7 \(156\.0\) +\+18 +\+5\.3 \(4\.9\) +105% +100\.2% ' \
	"$WORK/c.txt" || fail "captured munmap/32: $(grep 'line 385' "$WORK/c.txt")"
"$HARNESS" report "$cap" > /dev/null 2>&1 || fail "ordinary report of the captured set"

tap_case bad_new_keys_exit_2
bad=$WORK/bad.json
fig='"seed": "003", "line": 380, "quote": "munmap__ 1 909 944 35 35 104%", "workload": "vmaops", "metric": "munmap/1", "variant": "baseline", "baseline_variant": "mseal-off", "kind": "ratio", "value": 1.04, "conditions": {"cores": null, "machine": "m", "kernel": "6.8"}'
refused_figure "$set_dir" "$bad" "$bad" "$fig" ", \"kernel_line\": \"six\"" "$bad: figure 1: 'kernel_line' must be a kernel line such as \"6.12\", not \"six\""
refused_figure "$set_dir" "$bad" "$bad" "$fig" ", \"delta\": 35" "figure 1: 'delta' needs 'variant_value' and 'baseline_value'"
refused_figure "$set_dir" "$bad" "$bad" "$fig" ", \"variant_value\": 944, \"baseline_value\": 909, \"delta\": 35, \"per_count\": 1" "figure 1: 'per_count', 'per_item' and 'delta_per' go together"
refused_figure "$set_dir" "$bad" "$bad" "$fig" ", \"per_count\": 0" "figure 1: 'per_count' must be a whole number >= 1, not 0"
tap_finish
