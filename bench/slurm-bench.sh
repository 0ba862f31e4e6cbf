#!/bin/bash
# The Slurm executor against the local one, on a real single-node cluster (root; started
# and stopped by tests/executor/cluster.sh):
#  - time from submission (the harness command starting) to the first sample on disk;
#  - the harness's overhead per shard: the job's run time less its cells' boot time
#    (from RUN/meta.json "shards" and each shard's cells.jsonl), and queue wait;
#  - the wall time of a small matrix both ways.
# Usage: bench/slurm-bench.sh [BUILD_DIR]   (env MATRIX=quick: the quick matrix;
#        ORDER=slurm-first: Slurm before local; KEEP=1: keep the scratch folder)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
harness=$(cd "${1:-$src/build}" && pwd)/harness
work=$(mktemp -d /tmp/slurm-bench-XXXXXX)
chmod 0755 "$work"
trap '"$src/tests/executor/cluster.sh" stop "$work/cluster"; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
eval "$("$src/tests/executor/cluster.sh" start "$work/cluster")"

if [ "${MATRIX:-small}" = quick ]; then
	plan=(--variants baseline,init_on_alloc,init_on_free --workloads hugetlb,hackbench,test_vmalloc --cores 2
		--boots 1 --reps 2 --param hugetlb.pages=128 --param hackbench.groups=2 --param hackbench.loops=50
		--param test_vmalloc.modes=performance --param test_vmalloc.run_test_mask=3
		--param test_vmalloc.test_loop_count=5000)
else
	plan=(--variants baseline,init_on_alloc --workloads hugetlb,hackbench --cores 1 --boots 2
		--param hugetlb.pages=128 --param hackbench.groups=2 --param hackbench.loops=50)
fi

now() { date +%s.%N; }

# timed NAME GLOB ARGS...: runs harness run ARGS, prints seconds to the first file matching
# GLOB with data, and the total wall time.
timed() {
	local name=$1 glob=$2 t0 first= rc
	shift 2
	t0=$(now)
	"$harness" run "${plan[@]}" --no-report "$@" > "$work/$name.out" 2> "$work/$name.err" &
	local pid=$!
	while kill -0 $pid 2> /dev/null; do
		if [ -z "$first" ] && compgen -G "$glob" > /dev/null && [ -n "$(cat $glob 2> /dev/null)" ]; then
			first=$(echo "$(now) - $t0" | bc)
		fi
		sleep 0.05
	done
	wait $pid && rc=0 || rc=$?
	printf '%-6s first sample %6.2f s   wall %7.2f s   exit %d\n' "$name" "${first:-0}" "$(echo "$(now) - $t0" | bc)" $rc
}

echo "matrix: ${plan[*]}"
echo "scratch: $work"
echo "host: $(nproc) CPUs, $(uptime | sed 's/.*load/load/')"
# ORDER=slurm-first swaps the two, to see how much the host's load moved between them.
if [ "${ORDER:-local-first}" = slurm-first ]; then
	timed slurm "$work/slurm/shards/*/samples.jsonl" --executor slurm --poll-ms 250 --out "$work/slurm"
	timed local "$work/local/samples.jsonl" --out "$work/local"
else
	timed local "$work/local/samples.jsonl" --out "$work/local"
	timed slurm "$work/slurm/shards/*/samples.jsonl" --executor slurm --poll-ms 250 --out "$work/slurm"
fi

echo "per shard (seconds): queued = start seen - submitted; overhead = job run time - its cells' time"
for id in $(jq -r '.shards | keys[]' "$work/slurm/meta.json"); do
	cells=$(jq -s 'map(.seconds) | add' "$work/slurm/shards/$id/cells.jsonl")
	jq -r --arg id "$id" --argjson cells "$cells" '.shards[$id] |
		"  \($id): queued \(.started_s - .submitted_s | . * 100 | round / 100)  run \(.ended_s - .started_s | . * 100 | round / 100)  cells \($cells * 100 | round / 100)  overhead \((.ended_s - .started_s - $cells) * 100 | round / 100)"' \
		"$work/slurm/meta.json"
done
lc=$(jq -s 'map(.seconds) | add' "$work/local/cells.jsonl")
echo "local: cells $(printf %.2f "$lc") s of guest time"
jq -r '[.shards[] | .ended_s - .started_s] | add' "$work/slurm/meta.json" > "$work/jobs"
echo "slurm: jobs ran $(printf %.2f "$(cat "$work/jobs")") s in total; the rest of the wall time is submission, queue ticks between exclusive jobs, kernel lookup and the merge"
