#!/bin/bash
# Which QEMU counted (results/provenance.h): two copies of a real icount set
# (tests/data/quick-xeon-icount) that differ only in meta.json's QEMU version are refused
# by gate (against the set and against its JSON report), merge and report --compare: exit
# 2, one line naming both versions, nothing written. The same version passes; host-clock
# sets of two QEMUs (seed 001's imported set) and an icount set without the record only
# warn.
# Usage: qemu_provenance.sh HARNESS DATA_DIR
. "$(dirname "$0")/../common/cli-lib.sh"
QUICK=$DATA/quick-xeon-icount
V7="7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)"
V10="10.0.2 (Debian 1:10.0.2+ds-2)"

# withqemu SRC DIR VERSION: a copy of set SRC whose meta.json says QEMU VERSION ran it.
withqemu() {
	mkdir -p "$2"
	cp "$1/samples.jsonl" "$2/"
	jq --arg v "$3" '. + {qemu: {version: $v, binary: "qemu-system-x86_64", cpu: "max", plugins: []}}' \
		"$1/meta.json" > "$2/meta.json" || fail "jq on $1/meta.json"
}
# both OUTPUT: the message names both versions
both() {
	echo "$1" | grep -qF "$V7" && echo "$1" | grep -qF "$V10" || fail "does not name both versions: $1"
}

withqemu "$QUICK" "$WORK/q7" "$V7"
withqemu "$QUICK" "$WORK/q7b" "$V7"
withqemu "$QUICK" "$WORK/q10" "$V10"
cmp -s <(jq -S 'del(.qemu)' "$WORK/q7/meta.json") <(jq -S 'del(.qemu)' "$WORK/q10/meta.json") ||
	fail "the copies differ in more than their QEMU"

tap_case icount_sets_of_two_qemus_refused_by_gate
expect_exit 2 "the run was measured with QEMU 7\.2\.22.*the reference with QEMU 10\.0\.2.*do not compare" -- \
	"$HARNESS" gate "$WORK/q7" --against "$WORK/q10"
both "$("$HARNESS" gate "$WORK/q7" --against "$WORK/q10" 2>&1)"
expect_exit 2 "QEMU 10\.0\.2.*QEMU 7\.2\.22" -- "$HARNESS" gate "$WORK/q10" --against "$WORK/q7" --relative baseline
"$HARNESS" report "$WORK/q10" --format json > "$WORK/q10.json" 2> "$WORK/err" || fail "report json: $(cat "$WORK/err")"
jq -e --arg v "$V10" '.meta.qemu.version == $v' "$WORK/q10.json" > /dev/null || fail "the JSON report lacks meta.qemu"
expect_exit 2 "QEMU 7\.2\.22.*QEMU 10\.0\.2" -- "$HARNESS" gate "$WORK/q7" --against "$WORK/q10.json"

tap_case icount_sets_of_two_qemus_refused_by_merge
expect_exit 2 "merge: .*q7 was measured with QEMU 7\.2\.22.*q10 with QEMU 10\.0\.2" -- \
	"$HARNESS" merge "$WORK/m" "$WORK/q7" "$WORK/q10"
both "$("$HARNESS" merge "$WORK/m" "$WORK/q7" "$WORK/q10" 2>&1)"
[ ! -e "$WORK/m/samples.jsonl" ] || fail "a refused merge wrote samples"

tap_case icount_sets_of_two_qemus_refused_by_compare
expect_exit 2 "report: --compare: .*q7 was measured with QEMU 7\.2\.22.*q10 with QEMU 10\.0\.2" -- \
	"$HARNESS" report "$WORK/q7" "$WORK/q10" --compare
both "$("$HARNESS" report "$WORK/q7" "$WORK/q10" --compare 2>&1)"
# a third run of the first's QEMU does not hide the second's
expect_exit 2 "QEMU 10\.0\.2" -- "$HARNESS" report "$WORK/q7" "$WORK/q7b" "$WORK/q10" --compare

tap_case same_qemu_passes_silently
"$HARNESS" gate "$WORK/q7" --against "$WORK/q7b" > "$WORK/out" 2> "$WORK/err" || fail "gate: $(cat "$WORK/err")"
"$HARNESS" merge "$WORK/m7" "$WORK/q7" "$WORK/q7b" > "$WORK/out" 2>> "$WORK/err" || fail "merge: $(cat "$WORK/err")"
"$HARNESS" report "$WORK/q7" "$WORK/q7b" --compare > "$WORK/out" 2>> "$WORK/err" || fail "compare: $(cat "$WORK/err")"
! grep -qi qemu "$WORK/err" || fail "a warning about one QEMU: $(cat "$WORK/err")"
jq -e --arg v "$V7" '.qemu.version == $v' "$WORK/m7/meta.json" > /dev/null || fail "the merged set lost its QEMU"

tap_case the_report_header_names_the_qemu
"$HARNESS" report "$WORK/q7" > "$WORK/rep" 2>&1 || fail "report: $(head -3 "$WORK/rep")"
grep -qxF "qemu: $V7, -cpu max, TCG plugins: none" "$WORK/rep" || fail "no qemu line: $(head -8 "$WORK/rep")"

tap_case host_clock_sets_of_two_qemus_warn
import "$DATA/seed001-cook-kbuild.csv" "$WORK/cook"
withqemu "$WORK/cook" "$WORK/h7" "$V7"
withqemu "$WORK/cook" "$WORK/h10" "$V10"
"$HARNESS" gate "$WORK/h7" --against "$WORK/h10" > "$WORK/out" 2> "$WORK/err" || fail "gate refused: $(cat "$WORK/err")"
grep -q "warning: gate: .*host clock" "$WORK/err" || fail "gate: no warning: $(cat "$WORK/err")"
both "$(cat "$WORK/err")"
"$HARNESS" merge "$WORK/mh" "$WORK/h7" "$WORK/h10" > "$WORK/out" 2> "$WORK/err" || fail "merge refused: $(cat "$WORK/err")"
[ "$(grep -c "warning: merge: .*QEMU 10" "$WORK/err")" = 1 ] || fail "merge: not one warning: $(cat "$WORK/err")"

tap_case icount_set_without_the_record_warns
"$HARNESS" gate "$WORK/q7" --against "$QUICK" > "$WORK/out" 2> "$WORK/err" || fail "gate refused: $(cat "$WORK/err")"
grep -q "warning: gate: the reference does not record which QEMU ran it (the run: QEMU 7\.2\.22" "$WORK/err" ||
	fail "no warning: $(cat "$WORK/err")"
tap_finish
