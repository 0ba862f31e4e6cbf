#!/usr/bin/env bash
# The libFuzzer targets (tests/fuzz/): builds DIR (default build-fuzz) with clang,
# ASan+UBSan and libFuzzer's coverage, then runs every target from its seeds:
#   ci/fuzz.sh [DIR]                  a fixed number of executions each (the suite's)
#   ci/fuzz.sh [DIR] --time SECONDS   each target for that long instead (a longer hunt)
# Fails on a crash, a sanitizer report, a leak or a timeout, naming the saved input.
set -euo pipefail
usage() {
	sed -n '2,6s/^# \{0,1\}//p' "$0"
}
# Before anything is built: --help answers at once, a bad argument is refused at once.
for a in "$@"; do
	case $a in
	-h | --help) usage; exit 0 ;;
	esac
done
cd "$(dirname "$0")/.."
dir=build-fuzz
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then
	dir=$1
	shift
fi
if [ $# -gt 0 ] && { [ "$1" != --time ] || [ $# -ne 2 ] || [ -z "${2##*[!0-9]*}" ]; }; then
	echo "ci/fuzz.sh: bad arguments '$*' (accepted: [DIR] [--time SECONDS])" >&2
	exit 2
fi
CC=clang ci/setup.sh "$dir" -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false
if [ $# -eq 0 ]; then
	exec meson test -C "$dir" --suite fuzz --print-errorlogs
fi
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
