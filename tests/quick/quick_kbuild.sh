#!/bin/bash
# kbuild end to end, the main job's longest workload: the host makes the source image and
# the prepared objects (cached; a few minutes once), then one boot of baseline at 1 vCPU
# under the icount clock builds one object twice, in memory (memroot.h). Checks that each
# rep has the make's wall, user and sys, that the timed make waited on nothing (guest_idle
# and disk_read 0: what makes kbuild deterministic under icount), that the two reps' walls
# agree, and that the report has the kbuild rows. It also leaves the prepared tree that
# `workloads kbuild memroot` needs, so that test runs on a fresh machine too.
# Usage: quick_kbuild.sh HARNESS SOURCE_DIR
. "$(dirname "$0")/lib.sh"
SET=$WORK/kbuild
# One object of lib/ that every config builds: the make is seconds of guest time, and still
# a real gcc, as and ld chrooted in the guest's tmpfs root.
TARGET=lib/sort.o

"$HARNESS" run --variants baseline --workloads kbuild --clock icount --cores 1 --boots 1 --reps 2 \
	--param kbuild.target=$TARGET --out "$SET" > "$WORK/run.out" 2> "$WORK/run.err"
rc=$?
[ $rc = 0 ] || { fail "harness run exited $rc"; tail -30 "$WORK/run.err" >&2; finish; }
[ "$(meta "$SET" .status)" = complete ] || fail "meta.json status is $(meta "$SET" .status)"

value() { # value REP METRIC: the sample's value, or empty
	jq -r "select(.workload==\"kbuild\" and .rep==$1 and .metric==\"$2\") | .value" "$SET/samples.jsonl"
}
for rep in 0 1; do
	for m in wall user sys; do
		v=$(value $rep $m)
		awk -v v="$v" 'BEGIN { exit !(v + 0 > 0) }' || fail "rep $rep: $m is '$v', want > 0"
	done
	for m in guest_idle disk_read; do
		v=$(value $rep $m)
		[ -n "$v" ] && awk -v v="$v" 'BEGIN { exit !(v + 0 == 0) }' ||
			fail "rep $rep: $m is '$v', want 0 (the timed make waited)"
	done
done
# Under icount two makes of the same object in one boot run nearly the same instructions.
w0=$(value 0 wall)
w1=$(value 1 wall)
awk -v a="$w0" -v b="$w1" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d / a < 0.05) }' ||
	fail "the two reps' walls differ by 5% or more: $w0 s and $w1 s"
echo "kbuild $TARGET under icount, 1 vCPU: wall $w0 s, $w1 s"

"$HARNESS" report "$SET" > "$WORK/report.txt" 2>&1 || fail "report: $(tail -3 "$WORK/report.txt")"
grep -q 'kbuild' "$WORK/report.txt" || fail "the report has no kbuild row: $(head -20 "$WORK/report.txt")"
finish
