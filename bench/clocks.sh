#!/bin/bash
# Host clock against the instruction-count clock on the same cells.
# Prints, per clock: the coefficient of variation of every workload's primary metric per
# variant, host seconds per boot, and the cost of each variant with its paired and
# unpaired 95% intervals (from `harness report --format json`).
#
# Usage: bench/clocks.sh HARNESS OUTDIR [BOOTS] [WORKLOADS]
#   defaults: 5 boots; hackbench,hugetlb,test_vmalloc (add kbuild for the slow one).
# Costs about BOOTS x 3 variants x 3 workloads boots per clock (2-10 s each under TCG).
set -euo pipefail
HARNESS=${1:?usage: clocks.sh HARNESS OUTDIR [BOOTS] [WORKLOADS]}
OUT=${2:?usage: clocks.sh HARNESS OUTDIR [BOOTS] [WORKLOADS]}
BOOTS=${3:-5}
WORKLOADS=${4:-hackbench,hugetlb,test_vmalloc}
PARAMS=(--param hugetlb.pages=128 --param hackbench.groups=2 --param hackbench.loops=50
	--param test_vmalloc.modes=performance --param test_vmalloc.run_test_mask=3
	--param test_vmalloc.test_loop_count=5000)
mkdir -p "$OUT"

for clock in host icount; do
	set_dir=$OUT/$clock
	[ -f "$set_dir/meta.json" ] && [ "$(jq -r .status "$set_dir/meta.json")" = complete ] ||
		"$HARNESS" run --clock "$clock" --cores 1 --variants baseline,init_on_alloc,init_on_free \
			--workloads "$WORKLOADS" --boots "$BOOTS" "${PARAMS[@]}" --out "$set_dir" \
			--no-report > "$OUT/$clock.log" 2>&1
	"$HARNESS" report "$set_dir" --format json > "$OUT/$clock.json"
	echo "== clock $clock: $BOOTS boots, 1 vCPU"
	jq -r '"host seconds per boot: mean " + (([.[] | .seconds] | add / length) | tostring)' \
		-s "$set_dir/cells.jsonl"
	for w in ${WORKLOADS//,/ }; do
		primary=$(sed -n 's/^primary = //p' "$(dirname "$0")/../workloads/$w/workload.ini")
		jq -r --arg w "$w" --arg m "$primary" '.rows[] |
			select((.workload == $w or (.workload | startswith($w + "-"))) and .metric == $m) |
			"\(.workload) \(.metric) \(.variant): n \(.n) mean \(.mean) cv \(.cv * 100 | tostring | .[0:6])%" +
			(if .variant == "baseline" then "" else
			 "  cost \(.slowdown_pct | tostring | .[0:7])% CI [\(.ci95_low_pct // "-" | tostring | .[0:7]), \(.ci95_high_pct // "-" | tostring | .[0:7])] paired \(.paired // false) n_pairs \(.n_pairs // 0) mde \(.mde_pct // "-" | tostring | .[0:6])%" +
			 "  unpaired CI [\(.welch_ci95_low_pct // "-" | tostring | .[0:7]), \(.welch_ci95_high_pct // "-" | tostring | .[0:7])]" end)' \
			"$OUT/$clock.json"
	done
done
