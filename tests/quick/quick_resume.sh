#!/bin/bash
# Resume: SIGTERM a run once its first samples are in, check the set says incomplete and
# how to go on, resume it, and check every repetition is there exactly once.
# Usage: quick_resume.sh HARNESS SOURCE_DIR
. "$(dirname "$0")/lib.sh"
SET=$WORK/resume
REPS=3

"$HARNESS" run --variants baseline,init_on_alloc --workloads hugetlb --cores 2 --boots 1 --reps $REPS \
	--param hugetlb.pages=32 --out "$SET" --no-report > "$WORK/first.out" 2> "$WORK/first.err" &
pid=$!
for _ in $(seq 1200); do
	[ -s "$SET/samples.jsonl" ] && break
	kill -0 $pid 2> /dev/null || break
	sleep 0.5
done
[ -s "$SET/samples.jsonl" ] || fail "no sample arrived: $(tail -5 "$WORK/first.err")"
kill -TERM $pid
wait $pid
rc=$?
[ $rc = 130 ] || fail "an interrupted run exits 130, got $rc: $(tail -5 "$WORK/first.err")"
[ "$(meta "$SET" .status)" = incomplete ] || fail "status after SIGTERM: $(meta "$SET" .status)"
grep -q "harness run --resume $SET" "$WORK/first.err" || fail "the run does not say how to resume"
before=$(count "$SET" 'true')

"$HARNESS" run --resume "$SET" --no-report > "$WORK/second.out" 2> "$WORK/second.err" ||
	fail "resume failed: $(tail -5 "$WORK/second.err")"
[ "$(meta "$SET" .status)" = complete ] || fail "status after resume: $(meta "$SET" .status)"
after=$(count "$SET" 'true')
[ "$after" -gt "$before" ] || fail "resume added no samples ($before -> $after)"
# exactly once per (variant, rep, metric), every rep of both variants
metrics=$(jq -r '.metric' "$SET/samples.jsonl" | sort -u | wc -l)
[ "$after" = $((2 * REPS * metrics)) ] || fail "$after samples, want 2 variants x $REPS reps x $metrics metrics"
wall_once_per "$SET" rep "$REPS"
# resuming a complete set runs nothing and still succeeds
"$HARNESS" run --resume "$SET" --no-report > /dev/null 2> "$WORK/third.err" || fail "resume of a complete set"
[ "$(count "$SET" 'true')" = "$after" ] || fail "resuming a complete set changed it"
# plan options next to --resume are refused
"$HARNESS" run --resume "$SET" --reps 5 > "$WORK/bad.out" 2>&1
[ $? = 2 ] || fail "--reps with --resume must exit 2"
grep -q -- '--reps' "$WORK/bad.out" || fail "the refused option is named"
finish
