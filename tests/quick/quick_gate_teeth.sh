#!/bin/bash
# The gate has teeth: under the instruction-count clock, a run whose measured work grows by
# a known 3.9% (hugetlb grows its pool by 133 pages instead of 128: the pool's growth time is
# linear in the pages cleared) fails the gate at the quick matrix's threshold, and a
# repeat of the reference run passes it. Three small runs of baseline x hugetlb, 2 boots.
# Usage: quick_gate_teeth.sh HARNESS SOURCE_DIR
. "$(dirname "$0")/lib.sh"

# run_pages NAME PAGES: one small run into $WORK/NAME.
run_pages() {
	"$HARNESS" run --variants baseline --workloads hugetlb "${QUICK_VM[@]}" --boots 2 --reps 2 \
		--param hugetlb.pages="$2" --out "$WORK/$1" --no-report > "$WORK/$1.out" 2> "$WORK/$1.err" ||
		fail "run $1 (pages $2) failed: $(tail -5 "$WORK/$1.err")"
}

run_pages ref 128
run_pages same 128
run_pages more 133

"$HARNESS" gate "$WORK/same" --against "$WORK/ref" --max-slowdown $QUICK_MAX_SLOWDOWN \
	--alpha $QUICK_ALPHA > "$WORK/same.gate" 2>&1
rc=$?
[ $rc = 0 ] || fail "the unchanged run fails the gate (exit $rc): $(cat "$WORK/same.gate")"

"$HARNESS" gate "$WORK/more" --against "$WORK/ref" --max-slowdown $QUICK_MAX_SLOWDOWN \
	--alpha $QUICK_ALPHA > "$WORK/more.gate" 2>&1
rc=$?
[ $rc = 1 ] || fail "3.9% more work passes the gate (exit $rc, want 1): $(cat "$WORK/more.gate")"
grep -q 'hugetlb' "$WORK/more.gate" || fail "the gate does not name hugetlb: $(cat "$WORK/more.gate")"

# the measured growth, for the log: the wall time per page stays the same
jq -s -r --slurpfile m <(jq -c 'select(.metric=="wall")' "$WORK/more/samples.jsonl") \
	'[.[] | select(.metric=="wall") | .value] | add / length as $a |
	 ([$m[] | .value] | add / length) as $b | "hugetlb wall: \($a) s -> \($b) s (\(($b / $a - 1) * 100)%)"' \
	"$WORK/ref/samples.jsonl" || true
cat "$WORK/more.gate"
finish
