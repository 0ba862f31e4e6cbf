#!/usr/bin/env bash
# Runs one libFuzzer target from its seeds:
#   run.sh TARGET ARTIFACT_DIR (--runs N | --time SECONDS) SEED...
# SEED: files or folders of real captured inputs, copied into a scratch seed corpus (the
# repository is never written; what the run finds is kept in a scratch corpus and thrown
# away). Fails (exit 1, the end of the fuzzer's log printed) on a crash, a sanitizer report,
# a leak or a timeout; the input that did it is saved in ARTIFACT_DIR. Prints one line:
# executions, edges covered (libFuzzer's cov), corpus size.
set -euo pipefail
target=$1 artifacts=$2 mode=$3 amount=$4
shift 4
case $mode in
--runs) limit=(-runs="$amount") ;;
--time) limit=(-max_total_time="$amount") ;;
*) echo "run.sh: $mode: accepted: --runs N or --time SECONDS" >&2; exit 2 ;;
esac
work=$(mktemp -d /tmp/hardbench-fuzzrun-XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/seeds" "$work/corpus" "$artifacts"
n=0
for s in "$@"; do
	while IFS= read -r -d '' f; do
		n=$((n + 1))
		cp "$f" "$work/seeds/$n-$(basename "$f")"
	done < <(find "$s" -type f -print0)
done
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:halt_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:abort_on_error=1}
log=$artifacts/fuzz.log
status=0
"$target" "${limit[@]}" -seed=1 -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
	-print_final_stats=1 -artifact_prefix="$artifacts/" "$work/corpus" "$work/seeds" \
	>"$log" 2>&1 || status=$?
name=$(basename "$target")
if [ "$status" -ne 0 ]; then
	tail -n 60 "$log"
	echo "$name: FAILED (libFuzzer exit $status; $n seeds; input saved in $artifacts; log $log)"
	exit 1
fi
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
corp=$(ls "$work/corpus" | wc -l)
echo "$name: $execs executions, $cov edges covered, $n seeds, $corp new corpus inputs"
