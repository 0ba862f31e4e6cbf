#!/bin/bash
# Through a real single-node cluster: baseline and init_on_alloc x hugetlb x 2 rounds
# (--cores 1). The merged set holds every repetition once, each with its host, the
# hugetlb cost of init_on_alloc shows (wall > 3x baseline), report and gate work on it;
# --dry-run prints the sbatch lines and submits nothing.
# Usage: slurm_run.sh HARNESS SOURCE_DIR
. "$(dirname "$0")/lib.sh"
SET=$WORK/set
RUN=(run --executor slurm --variants baseline,init_on_alloc --workloads hugetlb --boots 2 --cores 1
	"${PARAMS[@]}" --poll-ms 500 --out "$SET")

tap_case "--dry-run prints the sbatch command lines"
"$HARNESS" "${RUN[@]}" --dry-run > "$WORK/dry.out" 2>&1 || fail "dry-run: $(tail -3 "$WORK/dry.out")"
[ "$(grep -c '^sbatch --parsable --no-requeue --exclusive --nodes=1' "$WORK/dry.out")" = 2 ] ||
	fail "want 2 sbatch lines: $(cat "$WORK/dry.out")"
grep -q -- "--output=$SET/shards/hugetlb-c1-b1.log" "$WORK/dry.out" || fail "absolute --output"
[ -z "$(squeue -h)" ] || fail "dry-run submitted jobs"

tap_case "the run completes through Slurm"
"$HARNESS" "${RUN[@]}" > "$WORK/run.out" 2> "$WORK/run.err"
rc=$?
[ $rc = 0 ] || fail "harness run --executor slurm exited $rc: $(tail -20 "$WORK/run.err")"
[ "$(jq -r .status "$SET/meta.json")" = complete ] || fail "status $(jq -r .status "$SET/meta.json")"
grep -q 'running on' "$WORK/run.err" || fail "no per-shard progress"
grep -q 'ETA' "$WORK/run.err" || fail "no ETA"
grep "^slurm:" "$WORK/run.err" | sed "s/^/# /"

tap_case "the merged set has every repetition exactly once, with its host"
wall_once_per "$SET" boot 2
[ "$(count "$SET" '.host == null')" = 0 ] || fail "samples without host"
[ "$(jq -r '.hosts | length' "$SET/meta.json")" = 1 ] || fail "meta hosts: $(jq -c '.hosts | map(.name)' "$SET/meta.json")"
[ "$(jq -r '[.shards[] | .state] | unique | join(",")' "$SET/meta.json")" = complete ] ||
	fail "shards: $(jq -c .shards "$SET/meta.json")"

tap_case "the hugetlb cost of init_on_alloc is there"
"$HARNESS" report "$SET" --format json > "$WORK/report.json" || fail "report --format json"
ratio=$(jq -r '.rows[] | select(.workload=="hugetlb" and .metric=="wall" and .variant=="init_on_alloc") | .ratio' "$WORK/report.json")
awk -v r="$ratio" 'BEGIN { exit !(r > 3) }' || fail "hugetlb wall init_on_alloc/baseline = $ratio, want > 3"
echo "# hugetlb wall init_on_alloc/baseline = $ratio"

tap_case "report and gate work on the merged set"
"$HARNESS" report "$SET" > "$WORK/report.txt" 2>&1 || fail "report: $(tail -3 "$WORK/report.txt")"
grep -q init_on_alloc "$WORK/report.txt" || fail "report lacks init_on_alloc"
"$HARNESS" gate "$SET" --against "$SET" > "$WORK/gate.out" 2>&1 || fail "gate against itself: $(cat "$WORK/gate.out")"
"$HARNESS" gate "$SET" --against "$SET" --relative baseline --max-slowdown 10 > "$WORK/gate2.out" 2>&1 ||
	fail "gate --relative baseline: $(tail -5 "$WORK/gate2.out")"

tap_case "a finished run resumes to nothing"
"$HARNESS" run --resume "$SET" --no-report > /dev/null 2> "$WORK/again.err" || fail "resume of a complete run: $(tail -3 "$WORK/again.err")"
grep -q "submitted 0 shards" "$WORK/again.err" || fail "resume submitted shards: $(grep slurm: "$WORK/again.err")"
wall_once_per "$SET" boot 2
tap_finish
