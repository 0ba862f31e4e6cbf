#!/bin/bash
# The canonical variant order (analysis/variant_order.h): every table, chart and JSON list
# puts the baseline first, then the run's plan (--variants), then kernel-configs/, whatever
# order the samples arrived in. Real sets: ci/reference (a quick-matrix run) with its
# samples shuffled, and seed 004's CSV with its variants in the mail's order.
# Usage: test_variant_order.sh HARNESS DATA_DIR
. "$(dirname "$0")/../common/cli-lib.sh"
REFERENCE=$DATA/../../ci/reference

# shuffled DIR PLAN_JSON: ci/reference with init_on_free's samples first and baseline's
# last, and meta.json's plan.variants replaced by PLAN_JSON.
shuffled() {
	mkdir -p "$1"
	{ grep '"init_on_free"' "$REFERENCE/samples.jsonl"; grep '"init_on_alloc"' "$REFERENCE/samples.jsonl"
	  grep '"baseline"' "$REFERENCE/samples.jsonl"; } > "$1/samples.jsonl"
	jq -c --argjson plan "$2" '.plan.variants = $plan' "$REFERENCE/meta.json" > "$1/meta.json"
}

# json_order DIR [ARGS]: the variants of the JSON report's rows of hackbench time, in order.
json_order() {
	local dir=$1
	shift
	"$HARNESS" report "$dir" --format json "$@" 2>/dev/null |
		jq -r '[.rows[] | select(.workload == "hackbench" and .metric == "time") | .variant] | join(",")'
}

tap_case shuffled_samples_follow_the_plan
shuffled "$WORK/shuf" '["baseline","init_on_alloc","init_on_free"]'
order=$(json_order "$WORK/shuf")
[ "$order" = baseline,init_on_alloc,init_on_free ] || fail "json rows: $order"
"$HARNESS" report "$WORK/shuf" > "$WORK/shuf.txt" 2>&1 || fail "report: $(cat "$WORK/shuf.txt")"
got=$(awk '/^== hackbench: time/ { on = 1; next } on && /^  (baseline|init_on)/ { print $1 } on && /^$/ { exit }' \
	"$WORK/shuf.txt" | paste -sd,)
[ "$got" = baseline,init_on_alloc,init_on_free ] || fail "text table: $got"
got=$(grep -o '^hackbench cores=1 clock=icount, [a-z_]*: [^ ]* time ' "$WORK/shuf.txt" | cut -d' ' -f4 | paste -sd,)
[ "$got" = init_on_alloc:,init_on_free: ] || fail "one-liners: $got"
# test_vmalloc's wide table: the variant columns in the same order
got=$(grep -m1 '^  metric ' "$WORK/shuf.txt" | tr -s ' ' | cut -d' ' -f4,5,8 | tr ' ' ,)
[ "$got" = baseline,init_on_alloc,init_on_free ] || fail "wide table header: $got"

tap_case chart_follows_kernel_configs
if command -v gnuplot > /dev/null; then
	"$HARNESS" plot "$WORK/shuf" --format svg > /dev/null 2>&1 || fail "plot"
	got=$(grep -v '^#' "$WORK/shuf/plots/slowdown-hackbench-time-icount.dat" | cut -f1 | paste -sd,)
	[ "$got" = init_on_alloc,init_on_free ] || fail "chart data: $got"
else
	tap_skip "gnuplot is not installed (ci/packages.txt: gnuplot-nox)"
fi

tap_case plan_order_wins_over_names
# --variants init_on_free,baseline,init_on_alloc: the plan's order, the baseline first
shuffled "$WORK/plan" '["init_on_free","baseline","init_on_alloc"]'
order=$(json_order "$WORK/plan")
[ "$order" = baseline,init_on_free,init_on_alloc ] || fail "plan order: $order"
# --baseline moves that variant first
order=$(json_order "$WORK/plan" --baseline init_on_alloc)
[ "$order" = init_on_alloc,init_on_free,baseline ] || fail "--baseline first: $order"

tap_case imported_set_follows_kernel_configs
# Seed 004's CSV lists baseline, kasan-vmalloc, kasan (the mail's columns); its samples
# are reversed here too. kernel-configs/ sorts kasan before kasan-vmalloc; a name no
# definition knows keeps its place after them.
import "$DATA/seed004-axtens-test_vmalloc.csv" "$WORK/axtens"
tac "$WORK/axtens/samples.jsonl" > "$WORK/rev"
sed -n '1,3p' "$WORK/axtens/samples.jsonl" | sed 's/"variant":"[^"]*"/"variant":"zz-mine"/' >> "$WORK/rev"
mv "$WORK/rev" "$WORK/axtens/samples.jsonl"
order=$("$HARNESS" report "$WORK/axtens" --format json 2>/dev/null |
	jq -r '[.rows[].variant] | reduce .[] as $v ([]; if index([$v]) then . else . + [$v] end) | join(",")')
[ "$order" = baseline,kasan,kasan-vmalloc,zz-mine ] || fail "imported order: $order"

tap_finish
