# Shared by every shell test (sourced): a scratch directory WORK removed on exit, and
# failure bookkeeping: fail records a failed check and goes on, finish exits 1 if any failed.
set -u
WORK=$(mktemp -d /tmp/hardbench-test-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
failures=0

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

finish() {
	if [ "$failures" -gt 0 ]; then
		echo "$failures checks failed" >&2
		exit 1
	fi
	echo "all checks passed"
	exit 0
}

# TAP output, for tests registered with protocol: 'tap' (one line per case, by name):
#   tap_case NAME; ...checks calling fail...; tap_case NAME2; ...; tap_finish
# A case fails when a check in it failed; the plan line comes last, as TAP allows.
# tap_skip REASON marks the current case as not run ("ok N - NAME # SKIP REASON") unless a
# check in it failed.
tap_cases=0
tap_name=
tap_failures_at=0
tap_skip_reason=

tap_end_case() {
	[ -n "$tap_name" ] || return 0
	tap_cases=$((tap_cases + 1))
	if [ "$failures" -gt "$tap_failures_at" ]; then
		echo "not ok $tap_cases - $tap_name"
	elif [ -n "$tap_skip_reason" ]; then
		echo "ok $tap_cases - $tap_name # SKIP $tap_skip_reason"
	else
		echo "ok $tap_cases - $tap_name"
	fi
	tap_name=
}

tap_case() {
	tap_end_case
	tap_name=$1
	tap_failures_at=$failures
	tap_skip_reason=
}

tap_skip() {
	tap_skip_reason=$*
}

tap_finish() {
	tap_end_case
	echo "1..$tap_cases"
	[ "$failures" -eq 0 ]
	exit $?
}

# count SET FILTER: samples of SET matching the jq FILTER (a boolean expression on a sample).
count() {
	jq -c "select($2)" "$1/samples.jsonl" 2>/dev/null | wc -l
}

# wall_once_per SET FIELD N: baseline and init_on_alloc each have exactly one wall sample
# for every FIELD (boot or rep) from 0 to N-1, and no sample repeats (a resume or a
# shard measured nothing twice).
wall_once_per() {
	local set=$1 field=$2 n=$3 v i dups
	for v in baseline init_on_alloc; do
		for i in $(seq 0 $((n - 1))); do
			[ "$(count "$set" ".variant==\"$v\" and .metric==\"wall\" and .$field==$i")" = 1 ] ||
				fail "$v $field $i: $(count "$set" ".variant==\"$v\" and .metric==\"wall\" and .$field==$i") wall samples, want 1"
		done
	done
	dups=$(jq -r '[.variant, .workload, .metric, .cores, .boot, .rep] | @tsv' "$set/samples.jsonl" | sort | uniq -d | wc -l)
	[ "$dups" = 0 ] || fail "$dups repeated samples"
}
