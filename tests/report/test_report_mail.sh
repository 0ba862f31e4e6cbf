#!/bin/bash
# harness report --format mail on real sets, compared with files in the repository: the
# quick matrix's reference run (one round: Welch) and seed 003's 6.12 vmaops run (three
# rounds: paired); every table's mean, cost and CI also derived again from the samples by
# mail_numbers.py, so a wrong number cannot pass by being in the expected file. Every line within 72 columns; the TCG sentence and the rerun line.
# Regenerate the expected files with tests/data/mail/regen.sh after a deliberate change.
# Usage: test_report_mail.sh HARNESS DATA_DIR
. "$(dirname "$0")/../common/cli-lib.sh"

# check_mail SET EXPECTED
check_mail() {
	"$HARNESS" report "$1" --format mail > "$WORK/mail.txt" 2> "$WORK/err" || fail "mail of $1: $(cat "$WORK/err")"
	awk 'length > 72 { print FILENAME ":" FNR ": " length " columns" }' "$WORK/mail.txt" | grep . && fail "lines over 72 columns"
	diff -u "$2" "$WORK/mail.txt" > "$WORK/diff" || fail "mail of $1 differs from $2: $(head -30 "$WORK/diff")"
	# the expected file is the harness's own earlier output: its numbers are derived again
	# from the raw samples, independently of the harness (mail_numbers.py)
	python3 "$(dirname "$0")/mail_numbers.py" "$1" "$WORK/mail.txt" > "$WORK/numbers" 2>&1 ||
		fail "mail of $1: numbers differ from the samples': $(head -10 "$WORK/numbers")"
	grep -q '^To reproduce it:' "$WORK/mail.txt" || fail "no rerun line"
	grep -q '^The guests ran under TCG' "$WORK/mail.txt" || fail "no sentence on the TCG clock"
}

tap_case quick_reference_run
check_mail "$DATA/../../ci/reference" "$DATA/mail/ci-reference.txt"
# an effect above +100% reads as the ratio it is, as --against-seeds gives it
grep -q '^hugetlb, init_on_alloc: 193.5x wall (st.err 0.0068, 95% CI \[193.5x,$' "$WORK/mail.txt" ||
	fail "hugetlb's one-liner: not a ratio"
grep -q '^  init_on_alloc   0.27193  193.5x  \[193.5x, 193.6x\]$' "$WORK/mail.txt" ||
	fail "hugetlb's compact table: not a ratio"
# the conditions name the guests' vCPUs and memory
tr '\n' ' ' <"$WORK/mail.txt" | grep -q 'guests of 1 vCPU and 1024M of memory;' ||
	fail "the conditions do not name the guests' vCPUs and memory"
grep -q '^hackbench, init_on_alloc: time within noise (95% CI \[' "$WORK/mail.txt" || fail "within noise form"

tap_case paired_vmaops_run
check_mail "$DATA/vmaops-612-icount" "$DATA/mail/vmaops-612-icount.txt"
grep -q 'paired, 3 rounds' "$WORK/mail.txt" || fail "no paired estimate named"

tap_case host_load_stated
# a run records the host's load as each boot ends (run/meta.c); the conditions say it
mkdir -p "$WORK/loaded"
cp "$DATA/../../ci/reference/samples.jsonl" "$WORK/loaded/"
jq '.host_load = {"readings": 9, "mean": 1.5, "max": 2.25}' "$DATA/../../ci/reference/meta.json" > "$WORK/loaded/meta.json"
"$HARNESS" report "$WORK/loaded" --format mail | tr '\n' ' ' > "$WORK/loaded.txt"
grep -q 'host load during the run: 1-minute load average 1.50 on average, 2.25 at most, over 9 boots' "$WORK/loaded.txt" ||
	fail "conditions lack the host load: $(cat "$WORK/loaded.txt")"

tap_case guests_per_workload
# workloads at different vCPU counts: the conditions say which ran at which
mkdir -p "$WORK/mix"
cp "$DATA/../../ci/reference/meta.json" "$DATA/../../ci/reference/cells.jsonl" "$WORK/mix/"
jq -c 'if .workload == "hackbench" then .cores = 2 else . end' "$DATA/../../ci/reference/samples.jsonl" \
	> "$WORK/mix/samples.jsonl"
"$HARNESS" report "$WORK/mix" --format mail | tr '\n' ' ' > "$WORK/mix.txt"
grep -q 'guests of 1,2 vCPUs (hugetlb 1, hackbench 2, test_vmalloc-performance 1) and 1024M of memory;' \
	"$WORK/mix.txt" || fail "conditions lack the vCPUs per workload: $(cat "$WORK/mix.txt")"

tap_case real_main_job_hackbench_says_8_rounds
# tests/data/hackbench-main-icount: the main job's hackbench (workload.ini icount_boots = 8,
# the plan's --boots 3)
"$HARNESS" report "$DATA/hackbench-main-icount" --format mail | tr '\n' ' ' | tr -s ' ' > "$WORK/hbmain.txt"
grep -q '; 8 rounds of every variant, interleaved, 1 rep per boot;' "$WORK/hbmain.txt" || fail "mail: $(cat "$WORK/hbmain.txt")"
grep -q 'paired, 8 rounds' "$WORK/hbmain.txt" || fail "the one-liners lost their 8 rounds"
grep -q '; clock icount; QEMU 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3);' "$WORK/hbmain.txt" || fail "mail: no QEMU"
"$HARNESS" report "$DATA/hackbench-main-icount" --format html > "$WORK/hbmain.html"
grep -q '8 rounds of every variant, interleaved, 1 rep per boot' "$WORK/hbmain.html" || fail "page lacks 8 rounds"
grep -q '<dt>QEMU</dt><dd>7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3) (an instruction count' "$WORK/hbmain.html" || fail "page: no QEMU"
! grep -q '3 rounds' "$WORK/hbmain.html" "$WORK/hbmain.txt" || fail "3 rounds somewhere"

tap_case workloads_own_rounds_stated
# the main job runs some workloads for rounds of their own (plan.workload_boots: workload.ini
# icount_boots): the conditions of mail and page give them, not only the plan's boots.
# rounds SET WORKLOADS OWN: the quick reference with plan.workloads and workload_boots set
rounds() {
	mkdir -p "$WORK/$1"
	cp "$DATA/../../ci/reference/samples.jsonl" "$WORK/$1/"
	jq --argjson w "$2" --argjson o "$3" '.plan.workloads = $w | .plan.workload_boots = $o' \
		"$DATA/../../ci/reference/meta.json" > "$WORK/$1/meta.json"
	"$HARNESS" report "$WORK/$1" --format mail | tr '\n' ' ' | tr -s ' ' > "$WORK/$1.txt"
	"$HARNESS" report "$WORK/$1" --format html > "$WORK/$1.html"
}
rounds hb '["hackbench"]' '["hackbench=8"]'
grep -q '; 8 rounds of every variant, interleaved, 3 reps per boot;' "$WORK/hb.txt" || fail "mail: $(cat "$WORK/hb.txt")"
grep -q '8 rounds of every variant, interleaved, 3 reps per boot' "$WORK/hb.html" || fail "page lacks 8 rounds"
rounds mixed '["hugetlb","hackbench","test_vmalloc"]' '["hackbench=8"]'
grep -q '; 1 round of every variant (hackbench 8), interleaved,' "$WORK/mixed.txt" || fail "mail: $(cat "$WORK/mixed.txt")"
grep -q '1 round of every variant (hackbench 8), interleaved' "$WORK/mixed.html" || fail "page lacks hackbench's 8"
rounds owns '["hackbench","kbuild"]' '["hackbench=8","kbuild=4"]'
grep -q '; rounds of every variant: hackbench 8, kbuild 4, interleaved,' "$WORK/owns.txt" || fail "mail: $(cat "$WORK/owns.txt")"

tap_case imported_set
import "$DATA/seed001-cook-kbuild.csv" "$WORK/cook"
"$HARNESS" report "$WORK/cook" --format mail > "$WORK/cook.txt" 2>&1 || fail "mail of an import"
grep -q 'init_on_free: +4.57% wall' "$WORK/cook.txt" || fail "seed 001's kbuild line: $(head -5 "$WORK/cook.txt")"
grep -q 'no `harness run` line reproduces it' "$WORK/cook.txt" || fail "an import has no rerun line"
awk 'length > 72' "$WORK/cook.txt" | grep -q . && fail "import: lines over 72 columns"

tap_finish
