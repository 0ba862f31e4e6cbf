#!/bin/sh
# 30,000 variants (an imported set) must not crash `harness plot` or `harness report`:
# per-variant arrays on the stack overflowed it (issue 19). Both must also still say
# something right: every variant's row, and v29999's mean and slowdown as computed here
# from the CSV's values. About 30 s here.
#   many_variants.sh HARNESS
set -u
HARNESS=$(realpath "$1")
T=$(mktemp -d /tmp/hardbench-many-XXXXXX)
trap 'rm -rf "$T"' EXIT
echo 1..2
python3 -c '
print("variant,workload,metric,value")
for v in range(30000):
    for r in range(2):
        print(f"v{v:05d},hackbench,time,{1 + 0.01 * ((v * 7 + r) % 13)}")
' > "$T/many.csv"
# By hand, from the same values: v00000 (the baseline, first in the file) and v29999.
set -- $(python3 -c '
mean = lambda v: sum(1 + 0.01 * ((v * 7 + r) % 13) for r in range(2)) / 2
print(f"{mean(29999):.3f} {(mean(29999) / mean(0) - 1) * 100:.2f}")')
want_mean=$1 want_pct=$2
"$HARNESS" import "$T/many.csv" --out "$T/set" > /dev/null 2>&1 || { echo "Bail out! import failed"; exit 1; }

"$HARNESS" plot "$T/set" > "$T/plot.out" 2>&1
rc=$?
dat=$T/set/plots/slowdown-hackbench-time.dat
why=
if [ "$rc" -ne 0 ]; then
	why="exited $rc: $(tail -1 "$T/plot.out")"
elif [ "$(grep -vc '^#' "$dat" 2>/dev/null)" != 29999 ]; then
	why="$dat holds $(grep -vc '^#' "$dat" 2>/dev/null) rows, want 29999 (every variant but the baseline)"
elif ! awk -v want="$want_pct" '$1 == "v29999" { found = 1; ok = ($2 - want) ^ 2 < 0.0001 } END { exit !(found && ok) }' "$dat"; then
	why="v29999's slowdown in $dat: $(grep '^v29999' "$dat"), want $want_pct%"
elif [ ! -s "$T/set/plots/slowdown-hackbench-time.png" ] && [ ! -s "$T/set/plots/slowdown-hackbench-time.svg" ]; then
	why="no chart next to $dat"
fi
if [ -z "$why" ]; then echo "ok 1 - plot of 30,000 variants"; else echo "not ok 1 - plot of 30,000 variants $why"; fi

"$HARNESS" report "$T/set" > "$T/report.out" 2>&1
rc=$?
why=
if [ "$rc" -ne 0 ]; then
	why="exited $rc: $(tail -1 "$T/report.out")"
elif [ "$(grep -Ec '^  v[0-9]{5} ' "$T/report.out")" != 30000 ]; then
	why="$(grep -Ec '^  v[0-9]{5} ' "$T/report.out") table rows, want 30000"
elif ! grep -Eq "^  v29999 +2 +$want_mean " "$T/report.out"; then
	why="v29999's row: $(grep '^  v29999 ' "$T/report.out"), want n 2, mean $want_mean"
elif ! grep -q "^hackbench, v29999: +$want_pct% time" "$T/report.out"; then
	why="v29999's line: $(grep '^hackbench, v29999' "$T/report.out"), want +$want_pct%"
fi
if [ -z "$why" ]; then echo "ok 2 - report of 30,000 variants"; else echo "not ok 2 - report of 30,000 variants $why"; fi
