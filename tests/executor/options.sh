#!/bin/bash
# harness run's executor options without a cluster: bad values exit 2 with one line
# naming them; --dry-run on slurm prints one sbatch line per shard, with the partition and
# every --slurm-opt, and creates nothing.
# Usage: options.sh HARNESS
. "$(dirname "$0")/../common/lib.sh"
HARNESS=$1
PLAN=(--variants baseline,init_on_alloc --workloads hugetlb --cores 1 --boots 3)

# bad WORD ARGS...: exit 2 and one line containing WORD
bad() {
	local word=$1
	shift
	"$HARNESS" run "$@" > "$WORK/err" 2>&1
	local rc=$?
	[ $rc = 2 ] || fail "run $* exits $rc, want 2"
	[ "$(wc -l < "$WORK/err")" = 1 ] || fail "run $*: not one line: $(cat "$WORK/err")"
	grep -q -- "$word" "$WORK/err" || fail "run $*: '$word' not named: $(cat "$WORK/err")"
}

tap_case "bad executor options exit 2"
bad "local, slurm" "${PLAN[@]}" --executor pbs --dry-run
bad "needs --shard-of" "${PLAN[@]}" --shard hugetlb-c1-b0 --dry-run
bad "not a result set" --shard-of "$WORK/none" --shard hugetlb-c1-b0
bad "--cache" "${PLAN[@]}" --cache /proc/none/cache --dry-run
bad "--poll-ms" "${PLAN[@]}" --poll-ms 5 --dry-run

tap_case "--dry-run prints one sbatch line per shard and creates nothing"
"$HARNESS" run "${PLAN[@]}" --executor slurm --partition bench --slurm-opt=--time=1:00:00 \
	--slurm-opt "--constraint=a b" --out "$WORK/set" --dry-run > "$WORK/dry" 2>&1 || fail "dry-run: $(cat "$WORK/dry")"
[ "$(grep -c '^sbatch ' "$WORK/dry")" = 3 ] || fail "want 3 sbatch lines (one per round): $(cat "$WORK/dry")"
grep '^sbatch ' "$WORK/dry" | grep -v -- '--partition=bench --time=1:00:00 '"'"'--constraint=a b'"'" > /dev/null &&
	fail "partition and --slurm-opt not on every line: $(cat "$WORK/dry")"
grep -q -- "--shard=hugetlb-c1-b2" "$WORK/dry" || fail "shard ids"
[ ! -e "$WORK/set" ] || fail "dry-run created the result set"
tap_finish
