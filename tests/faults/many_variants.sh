#!/bin/sh
# 30,000 variants (an imported set) must not crash `harness plot` or `harness report`:
# per-variant arrays on the stack overflowed it (issue 19). About 30 s here.
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
"$HARNESS" import "$T/many.csv" --out "$T/set" > /dev/null 2>&1 || { echo "Bail out! import failed"; exit 1; }
"$HARNESS" plot "$T/set" > "$T/plot.out" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then echo "ok 1 - plot of 30,000 variants"; else echo "not ok 1 - plot of 30,000 variants exited $rc: $(tail -1 "$T/plot.out")"; fi
"$HARNESS" report "$T/set" > "$T/report.out" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then echo "ok 2 - report of 30,000 variants"; else echo "not ok 2 - report of 30,000 variants exited $rc"; fi
