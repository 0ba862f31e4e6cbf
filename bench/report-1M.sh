#!/bin/bash
# Benchmark (not a test): `harness report` over a result set of N samples (default
# 1,000,000) in 4 workloads x 3 metrics x 2 cores x 4 variants = 96 groups, then the
# same with a tenth of the samples. Prints wall time and peak memory of each run: the
# report streams samples.jsonl, so memory should not grow with the sample count.
# Usage: bench/report-1M.sh [BUILD_DIR] [N]
set -euo pipefail
build=${1:-build}
n=${2:-1000000}
harness=$(realpath "$build/harness")
work=$(mktemp -d /tmp/hardbench-bench-XXXXXX)
trap 'rm -rf "$work"' EXIT

make_set() { # dir count
	mkdir -p "$1"
	echo '{"harness_version":"bench"}' > "$1/meta.json"
	awk -v n="$2" 'BEGIN {
		split("baseline init_on_alloc init_on_free exclusions", v, " ")
		split("hackbench kbuild hugetlb vmaops", w, " ")
		split("wall sys user", m, " ")
		srand(1)
		for (i = 0; i < n; i++) {
			vi = i % 4 + 1; wi = int(i / 4) % 4 + 1; mi = int(i / 16) % 3 + 1
			c = (int(i / 48) % 2) ? 4 : 2
			x = 10 * wi * (1 + 0.05 * (vi - 1)) * (1 + 0.01 * (rand() - 0.5))
			printf "{\"variant\":\"%s\",\"workload\":\"%s\",\"metric\":\"%s\",\"unit\":\"s\",\"cores\":%d,\"boot\":0,\"rep\":%d,\"value\":%.6f,\"lower_is_better\":true}\n", v[vi], w[wi], m[mi], c, int(i / 96), x
		}
	}' > "$1/samples.jsonl"
}

measure() { # label dir format
	local t0 t1 rss
	t0=$(date +%s.%N)
	if [ -x /usr/bin/time ]; then
		rss=$( { /usr/bin/time -f '%M' "$harness" report "$2" --format "$3" > /dev/null; } 2>&1 | tail -1)
	else
		"$harness" report "$2" --format "$3" > /dev/null
		rss="?"
	fi
	t1=$(date +%s.%N)
	printf '%-28s %-5s %8.2f s  peak RSS %s KiB\n' "$1" "$3" "$(echo "$t1 - $t0" | bc)" "$rss"
}

echo "generating $n samples..."
make_set "$work/big" "$n"
make_set "$work/small" "$((n / 10))"
ls -l "$work/big/samples.jsonl" | awk '{ printf "samples.jsonl: %.1f MiB\n", $5 / 1048576 }'
measure "$((n / 10)) samples" "$work/small" text
measure "$n samples" "$work/big" text
measure "$n samples" "$work/big" json
