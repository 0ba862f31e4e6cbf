#!/bin/sh
# A given relative --out is read against the current folder, as every Unix tool does (the
# default stays under results/): harness import FILE --out rel, run from another folder.
#   relative_out.sh HARNESS DATA_DIR
set -u
HARNESS=$(realpath "$1")
CSV=$(realpath "$2")/seed001-cook-kbuild.csv
T=$(mktemp -d /tmp/hardbench-relout-XXXXXX)
trap 'rm -rf "$T"' EXIT
echo 1..2
mkdir -p "$T/cwd" "$T/results"
if (cd "$T/cwd" && HARDBENCH_RESULTS="$T/results" "$HARNESS" import "$CSV" --out rel > /dev/null 2>&1) &&
	[ -f "$T/cwd/rel/samples.jsonl" ] && [ -z "$(ls "$T/results")" ]; then
	echo "ok 1 - import --out rel writes ./rel"
else
	echo "not ok 1 - import --out rel: $(ls -R "$T" | head -20)"
fi
if (cd "$T/cwd" && HARDBENCH_RESULTS="$T/results" "$HARNESS" import "$CSV" > /dev/null 2>&1) &&
	[ -n "$(ls "$T/results")" ]; then
	echo "ok 2 - import without --out writes under the results root"
else
	echo "not ok 2 - import without --out: results root $(ls "$T/results")"
fi
