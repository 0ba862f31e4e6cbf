#!/usr/bin/env bash
# The libFuzzer targets (tests/fuzz/): builds DIR (default build-fuzz) with clang,
# ASan+UBSan and libFuzzer's coverage, then runs every target from its seeds:
#   ci/fuzz.sh [DIR]                  a fixed number of executions each (the suite's)
#   ci/fuzz.sh [DIR] --time SECONDS   each target for that long instead (a longer hunt)
# Fails on a crash, a sanitizer report, a leak or a timeout, naming the saved input.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build-fuzz
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then
	dir=$1
	shift
fi
CC=clang ci/setup.sh "$dir" -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false
if [ $# -eq 0 ]; then
	exec meson test -C "$dir" --suite fuzz --print-errorlogs
fi
[ "$1" = --time ] && [ $# -eq 2 ] || { echo "ci/fuzz.sh: accepted: [DIR] [--time SECONDS]" >&2; exit 2; }
for exe in "$dir"/tests/fuzz/fuzz_*; do
	[ -f "$exe" ] && [ -x "$exe" ] || continue
	name=${exe##*/fuzz_}
	# The suite's own seeds for this target, from its registration.
	seeds=$(meson introspect "$dir" --tests | python3 -c '
import json, sys
for t in json.load(sys.stdin):
    if t["name"] == "fuzz " + sys.argv[1]:
        print("\n".join(t["cmd"][5:]))' "$name")
	mapfile -t seed_list <<<"$seeds"
	tests/fuzz/run.sh "$exe" "$dir/tests/fuzz/artifacts/$name" --time "$2" "${seed_list[@]}"
done
