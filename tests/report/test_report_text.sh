#!/bin/bash
# The text, markdown and CSV reports of the seeds: the list mails' one-liners, the
# aligned per-variant table, and seed 004's per-test table with its published ratios.
# Usage: test_report_text.sh HARNESS DATA_DIR
. "$(dirname "$0")/../common/cli-lib.sh"

tap_case cook_one_liners_and_table
import "$DATA/seed001-cook-kbuild.csv" "$WORK/cook"
import "$DATA/seed004-axtens-test_vmalloc.csv" "$WORK/axtens"
import "$DATA/seed002-aziz-xpfo-kbuild.csv" "$WORK/aziz"

"$HARNESS" report "$WORK/cook" > "$WORK/cook.txt" || fail "report cook"
contains "$WORK/cook.txt" "kbuild cores=4, init_on_alloc: -0.25% wall (st.err 0.22%, 95% CI [-0.76%, +0.26%], MDE 0.70%; Welch)"
contains "$WORK/cook.txt" "kbuild cores=4, init_on_free: +4.57% wall (st.err 0.19%, 95% CI [+4.13%, +5.02%], MDE 0.62%; Welch)"
contains "$WORK/cook.txt" "kbuild cores=4, exclusions: +3.61% wall (st.err 0.17%, 95% CI [+3.21%, +4.01%], MDE 0.55%; Welch)"
contains "$WORK/cook.txt" "== kbuild: wall [s], cores=4, lower is better"
grep -Eq '^  init_on_free +5 +301\.77 +0\.8453 +0\.75606 +0\.37803 +301\.19 +303\.26 +0\.28% +1\.0457 +\+4\.57% \(0\.19%\) +\[\+4\.13%, \+5\.02%\] +0\.62% +<0\.0001 +Welch$' \
	"$WORK/cook.txt" || fail "init_on_free table row: $(grep init_on_free "$WORK/cook.txt")"
grep -q "imported from $DATA/seed001-cook-kbuild.csv" "$WORK/cook.txt" || fail "header names the CSV"
grep -qi nan "$WORK/cook.txt" && fail "NaN in the text report"

tap_case baseline_by_name
# baseline chosen by name: everything relative to init_on_free
"$HARNESS" report "$WORK/cook" --baseline init_on_free > "$WORK/cook-free.txt" || fail "report --baseline"
contains "$WORK/cook-free.txt" "kbuild cores=4, baseline: -4.37% wall (st.err 0.18%, 95% CI [-4.78%, -3.97%], MDE 0.57%; Welch)"

tap_case axtens_table_ratio_to_kasan
# seed 004: Axtens' table, row by row (his truncated name aside), with --ratio-to kasan
"$HARNESS" report "$WORK/axtens" --ratio-to kasan > "$WORK/axtens.txt" || fail "report axtens"
row() { grep -Eq "^  $1 +usec +$2 +$3 +$4 +$5 +$6 +$7$" "$WORK/axtens.txt" || fail "axtens row $1"; }
row fix_size_alloc_test 662004 11404956 17.23 19144610 28.92 1.68
row align_shift_alloc_test 147 830 5.65 5692 38.72 6.86
row worker0/random_size_alloc_test 5989020 26735276 4.46 68885923 11.50 2.58
row worker1/align_shift_alloc_test 472 3760 7.97 9656 20.46 2.57
grep -Eq '^  total_cycles +cycles +119240774314 +763211341128 +6\.40 +1390338696894 +11\.66 +1\.82$' \
	"$WORK/axtens.txt" || fail "total cycles row"
grep -Eq '^  metric +unit +baseline +kasan +x baseline +kasan-vmalloc +x baseline +x kasan$' \
	"$WORK/axtens.txt" || fail "wide header"
[ "$(grep -c 'per-test table' "$WORK/axtens.txt")" = 2 ] || fail "two per-test tables (performance, sequential)"
"$HARNESS" report "$WORK/axtens" --layout long --metric total_cycles > "$WORK/axtens-long.txt" ||
	fail "report --layout long"
# above +100% a cost reads as the ratio it is (11.66x, not +1065.99%)
contains "$WORK/axtens-long.txt" "test_vmalloc-performance cores=2, kasan-vmalloc: 11.66x total_cycles (n=1, no st.err)"

tap_case n1_spread_is_dash
# n=1 cells print "-" for the spread, never NaN
"$HARNESS" report "$WORK/aziz" > "$WORK/aziz.txt" || fail "report aziz"
grep -Eq '^  xpfo +1 +24129 +- +0 +- +24129 +24129 +- +26\.3656 +26\.37x +- +- +- +Welch$' "$WORK/aziz.txt" ||
	fail "n=1 row: $(grep '^  xpfo ' "$WORK/aziz.txt")"

tap_case markdown_and_csv
# markdown and CSV
"$HARNESS" report "$WORK/cook" --format markdown > "$WORK/cook.md" || fail "markdown"
contains "$WORK/cook.md" "| init_on_free | 5 | 301.77 | 0.8453 | 0.75606 | 0.37803 | 301.19 | 303.26 | 0.28% | 1.0457 | +4.57% (0.19%) | [+4.13%, +5.02%] | 0.62% | <0.0001 | Welch |"
contains "$WORK/cook.md" "- kbuild cores=4, init_on_free: +4.57% wall (st.err 0.19%, 95% CI [+4.13%, +5.02%], MDE 0.62%; Welch)"
"$HARNESS" report "$WORK/cook" --format csv > "$WORK/cook.csv" || fail "csv"
contains "$WORK/cook.csv" "workload,metric,unit,cores,variant,n,mean,stddev,stddev_pop,stderr,min,max,cv,ratio,slowdown_pct,slowdown_stderr_pct,p_value,ci95_low_pct,ci95_high_pct,mde_pct,paired,n_pairs,rounds_unpaired,welch_slowdown_pct,welch_slowdown_stderr_pct,welch_p_value,welch_ci95_low_pct,welch_ci95_high_pct,welch_mde_pct,lower_is_better,clock,error"
[ "$(wc -l < "$WORK/cook.csv")" = 5 ] || fail "csv: header + 4 rows"
grep -q '^"kbuild","wall","s",4,"init_on_alloc",5,287.846,' "$WORK/cook.csv" || fail "csv row"

tap_case imported_pairs_only_with_paired
# a CSV with a boot column: Welch's headline unless --paired; --paired where there are no
# rounds (Cook's CSV has none) is refused, naming the set. The paired figures, by hand:
# logs of 1.04 1.06 1.05 1.05, mean -> +5.00%, se 0.41%, t(0.975, 3) = 3.1824 -> CI
# [+3.71%, +6.30%], MDE exp((3.1824 + t(0.8, 3) = 0.9785) * se_log) - 1 = 1.63%.
printf 'variant,workload,metric,unit,boot,value\n' > "$WORK/rounds.csv"
awk 'BEGIN { split("100 110 95 120", d, " "); split("1.04 1.06 1.05 1.05", c, " ")
	for (b = 1; b <= 4; b++) printf "baseline,hackbench,time,s,%d,%g\ninit_on_alloc,hackbench,time,s,%d,%.6f\n", b - 1, d[b], b - 1, d[b] * c[b] }' \
	>> "$WORK/rounds.csv"
import "$WORK/rounds.csv" "$WORK/rounds"
"$HARNESS" report "$WORK/rounds" > "$WORK/rounds.txt" || fail "report rounds"
grep -q '^headline: Welch (ratio of means, unpaired): an imported set' "$WORK/rounds.txt" || fail "Welch headline"
grep -Eq '^  init_on_alloc .* Welch$' "$WORK/rounds.txt" || fail "est column Welch: $(cat "$WORK/rounds.txt")"
"$HARNESS" report "$WORK/rounds" --paired > "$WORK/rounds-paired.txt" || fail "report --paired"
contains "$WORK/rounds-paired.txt" "hackbench, init_on_alloc: +5.00% time (st.err 0.41%, 95% CI [+3.71%, +6.30%], MDE 1.63%; paired, 4 rounds; Welch +5.02% [-14.24%, +24.29%])"
grep -Eq '^  init_on_alloc .* paired 4$' "$WORK/rounds-paired.txt" || fail "est column paired 4"
expect_exit 2 "--paired: .*cook has no boot rounds" -- "$HARNESS" report "$WORK/cook" --paired

tap_case header_accel_and_tcg_warning
# the header shows the accel recorded by a run, and warns under TCG
mkdir -p "$WORK/tcg" && cp "$WORK/cook/samples.jsonl" "$WORK/tcg/"
echo '{"accel":"tcg","accel_reason":"KVM probe boot printed nothing in 10 s","overcommit":true,"shared_core_boots":2}' > "$WORK/tcg/meta.json"
"$HARNESS" report "$WORK/tcg" > "$WORK/tcg.txt" || fail "report tcg"
contains "$WORK/tcg.txt" "accel: tcg (KVM probe boot printed nothing in 10 s)"
grep -q "^WARNING: guests ran under TCG.*only ratios" "$WORK/tcg.txt" || fail "TCG warning"
grep -q "^NOTE: .*overcommit" "$WORK/tcg.txt" || fail "overcommit note"
contains "$WORK/tcg.txt" "NOTE: 2 boots had vCPUs on cores another hardbench guest held: expect more noise"
contains "$WORK/tcg.txt" "clock: host (guest time is host time: host load lands in every sample)"
# under icount every vCPU runs in one host thread: no overcommit noise to warn of
mkdir -p "$WORK/tcg-icount" && cp "$WORK/cook/samples.jsonl" "$WORK/tcg-icount/"
echo '{"accel":"tcg","overcommit":true,"clock":{"name":"icount","asked":"icount","why":"asked for"}}' > "$WORK/tcg-icount/meta.json"
"$HARNESS" report "$WORK/tcg-icount" > "$WORK/tcg-icount.txt" || fail "report tcg icount"
grep -q "overcommit" "$WORK/tcg-icount.txt" && fail "an overcommit note under icount"
"$HARNESS" report "$WORK/tcg" --format json | grep -q '"accel": "tcg"' || fail "json meta accel"

tap_case header_says_how_the_clock_was_chosen
# meta.json "clock" as run writes it under --clock auto: the answer, and the workload
# that got another clock with its reason (one line each, text and markdown).
mkdir -p "$WORK/auto" && cp "$WORK/cook/samples.jsonl" "$WORK/auto/"
cat > "$WORK/auto/meta.json" <<'JSON'
{"accel": "tcg", "clock": {"name": "mixed", "asked": "auto", "why": "auto: TCG",
 "workloads": {"hackbench": {"name": "icount", "why": "auto: TCG"},
               "kbuild": {"name": "host", "why": "auto: kbuild is not deterministic under icount: I/O"}}}}
JSON
"$HARNESS" report "$WORK/auto" > "$WORK/auto.txt" || fail "report auto"
contains "$WORK/auto.txt" "clock chosen: --clock auto: auto: TCG"
contains "$WORK/auto.txt" "clock chosen for kbuild: host (auto: kbuild is not deterministic under icount: I/O)"
grep -q "clock chosen for hackbench" "$WORK/auto.txt" && fail "a workload that follows the run is listed"
"$HARNESS" report "$WORK/auto" --format markdown | grep -q '^- clock chosen: --clock auto: auto: TCG$' ||
	fail "markdown header without the clock choice"
tap_finish
