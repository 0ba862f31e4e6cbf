#!/bin/bash
# "Too few events" (analysis/rows.h): a real icount set (tests/data/quick-xeon-icount)
# whose IPI counts are set as a 2-vCPU run gives them: ipi_tlb one IPI in baseline's
# samples and none in the others' (a side all zeros), ipi_call 3 and 4 IPIs in baseline's
# two samples against 20-31 in the variants' (7 in all: fewer than 10). Text, JSON, mail
# and page give those rows no estimate and no verdict and say "too few events"; the same
# ipi_call with 30 and 40 in baseline is estimated as before, and so are the times.
# Usage: test_too_few_events.sh HARNESS DATA_DIR
. "$(dirname "$0")/../common/cli-lib.sh"
QUICK=$DATA/quick-xeon-icount

# counts DIR BASE0 BASE1: the set with ipi_call's baseline samples BASE0, BASE1 (reps 0, 1)
counts() {
	mkdir -p "$1"
	cp "$QUICK/meta.json" "$1/"
	jq -c --argjson b0 "$2" --argjson b1 "$3" '
		if .metric == "ipi_tlb" then .value = (if .variant == "baseline" and .rep == 0 then 1 else 0 end)
		elif .metric == "ipi_call" then .value = (if .variant == "baseline" then (if .rep == 0 then $b0 else $b1 end)
			elif .variant == "init_on_alloc" then 20 + .rep * 2 else 30 + .rep end)
		else . end' "$QUICK/samples.jsonl" > "$1/samples.jsonl" || fail "jq"
}
counts "$WORK/few" 3 4
counts "$WORK/enough" 30 40

tap_case a_real_main_job_hackbench
# tests/data/hackbench-main-icount: ipi_tlb 1 IPI in baseline's 8 boots, 0 in init_on_free's
# (a side all zeros), 2 in init_on_alloc's and 3 in unix-noinit's (fewer than 10); ipi_call
# 458-620 a variant: estimated
REAL=$DATA/hackbench-main-icount
"$HARNESS" report "$REAL" --format json > "$WORK/real.json" 2> "$WORK/err" || fail "report: $(cat "$WORK/err")"
got=$(jq -r '[.rows[] | select(.metric == "ipi_tlb" and .variant != "baseline") | "\(.variant):\(.error):\(.slowdown_pct)"] | join(" ")' "$WORK/real.json")
[ "$got" = "init_on_alloc:too few events: no ratio to judge:null init_on_free:too few events: no ratio to judge:null unix-noinit:too few events: no ratio to judge:null" ] ||
	fail "ipi_tlb rows: $got"
[ "$(jq '[.rows[] | select(.metric == "ipi_call" and .variant != "baseline" and .error == null and .slowdown_pct != null)] | length' "$WORK/real.json")" = 3 ] ||
	fail "ipi_call rows lost their estimates"
"$HARNESS" report "$REAL" --format html > "$WORK/real.html" || fail "html"
grep -c 'data-metric="ipi_tlb" data-variant="init_on_free".*<td class="verdict">too few events: no ratio to judge</td>' "$WORK/real.html" > /dev/null ||
	fail "the page judges ipi_tlb init_on_free"
! grep -q -- '-100.00%' "$WORK/real.html" || fail "the page says -100.00% somewhere"

tap_case json_rows_have_no_estimate
"$HARNESS" report "$WORK/few" --format json > "$WORK/few.json" 2> "$WORK/err" || fail "report: $(cat "$WORK/err")"
sel='.rows[] | select(.workload == "hackbench" and (.metric == "ipi_tlb" or .metric == "ipi_call") and .variant != "baseline")'
[ "$(jq -c "[$sel] | length" "$WORK/few.json")" = 4 ] || fail "not 4 IPI rows"
bad=$(jq -c "[$sel | select(.error != \"too few events: no ratio to judge\" or .slowdown_pct != null or .ci95_low_pct != null or .ratio != null or .p_value != null)]" "$WORK/few.json")
[ "$bad" = "[]" ] || fail "rows with an estimate or without the reason: $bad"
t=$(jq -r '.rows[] | select(.workload == "hackbench" and .metric == "time" and .variant == "init_on_alloc") | .slowdown_pct' "$WORK/few.json")
awk -v t="$t" 'BEGIN { exit !(t > 10) }' || fail "hackbench time lost its estimate: $t"

tap_case enough_events_are_estimated
"$HARNESS" report "$WORK/enough" --format json > "$WORK/enough.json" 2> "$WORK/err" || fail "report: $(cat "$WORK/err")"
# baseline 35 IPIs a sample on average, init_on_alloc 21: -40%
got=$(jq -r '.rows[] | select(.metric == "ipi_call" and .variant == "init_on_alloc") | "\(.error) \(.slowdown_pct)"' "$WORK/enough.json")
awk -v g="${got#* }" 'BEGIN { exit !(g > -41 && g < -39) }' && [ "${got%% *}" = null ] ||
	fail "ipi_call with 70 baseline IPIs: $got, want an estimate of -40%"
[ "$(jq -r '.rows[] | select(.metric == "ipi_tlb" and .variant == "init_on_alloc") | .error' "$WORK/enough.json")" = \
	"too few events: no ratio to judge" ] || fail "ipi_tlb (a side all zeros) was estimated"

tap_case text_says_too_few_events
"$HARNESS" report "$WORK/few" > "$WORK/few.txt" 2>&1 || fail "report"
contains "$WORK/few.txt" "hackbench cores=1 clock=icount, init_on_free: too few events: no ratio to judge"
[ "$(grep -c "too few events" "$WORK/few.txt")" = 4 ] || fail "$(grep -c "too few events" "$WORK/few.txt") rows say so, want 4"
! grep -v "is better" "$WORK/few.txt" | grep -E "ipi_(tlb|call).*(better|worse|-100)" || fail "a verdict on too few events"

tap_case mail_says_too_few_events
"$HARNESS" report "$WORK/few" --format mail --workload hackbench --metric ipi_tlb > "$WORK/few.mail" 2>&1 || fail "mail"
contains "$WORK/few.mail" "hackbench, init_on_free: ipi_tlb: too few events: no ratio to judge"
grep -Eq '^  init_on_free +0 +too few events +-$' "$WORK/few.mail" || fail "mail table: $(grep -A4 'ipi_tlb \[' "$WORK/few.mail")"

tap_case page_says_too_few_events
"$HARNESS" report "$WORK/few" --format html > "$WORK/few.html" 2>&1 || fail "html"
rows=$(grep -o '<tr class="[a-z]*" data-workload="hackbench"[^>]*data-metric="ipi_[a-z]*" data-variant="init_on_[a-z]*"[^>]*>.*</tr>' "$WORK/few.html")
[ "$(echo "$rows" | grep -c .)" = 4 ] || fail "page: $(echo "$rows" | grep -c .) IPI rows, want 4"
[ "$(echo "$rows" | grep -c '^<tr class="unknown".*<td class="verdict">too few events: no ratio to judge</td></tr>$')" = 4 ] ||
	fail "page rows: $rows"
tap_finish
