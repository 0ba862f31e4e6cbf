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
