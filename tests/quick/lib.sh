# Shared by the quick-matrix tests (sourced): HARNESS and SRC from the arguments, a scratch
# WORK removed on exit, fail/finish bookkeeping, and sample counting with jq.
set -u
HARNESS=$1
SRC=$2
WORK=$(mktemp -d /tmp/hardbench-quick-XXXXXX)
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

# The quick matrix's workload parameters: small, but each effect still shows under TCG.
QUICK_PARAMS=(
	--param hugetlb.pages=128
	--param hackbench.groups=2 --param hackbench.loops=50
	--param test_vmalloc.modes=performance --param test_vmalloc.run_test_mask=3
	--param test_vmalloc.test_loop_count=5000
)

# count SET FILTER: samples of SET matching the jq FILTER (a boolean expression on a sample).
count() {
	jq -c "select($2)" "$1/samples.jsonl" 2>/dev/null | wc -l
}

# meta SET PATH: a value from meta.json.
meta() {
	jq -r "$2" "$1/meta.json"
}
