#!/bin/bash
# Charts: gnuplot draws a PNG and an SVG per chart, and the .gp and .dat that made them
# stay beside them and redraw the same chart when rerun. Skipped without gnuplot.
# Usage: test_plot.sh HARNESS DATA_DIR
. "$(dirname "$0")/../common/cli-lib.sh"

if ! command -v gnuplot > /dev/null; then
	echo "1..0 # SKIP gnuplot is not installed (Debian: gnuplot-nox)"
	exit 0
fi

tap_case slowdown_chart
import "$DATA/seed001-cook-kbuild.csv" "$WORK/cook"
import "$DATA/seed002-aziz-xpfo-kbuild.csv" "$WORK/aziz"
import "$DATA/seed004-axtens-test_vmalloc.csv" "$WORK/axtens"

is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
is_svg() { grep -q '<svg' "$1"; }

check_chart() { # DIR BASE
	for ext in png svg gp dat; do
		[ -s "$1/$2.$ext" ] || fail "missing or empty $1/$2.$ext"
	done
	is_png "$1/$2.png" || fail "$1/$2.png is not a PNG"
	is_svg "$1/$2.svg" || fail "$1/$2.svg is not an SVG"
}

"$HARNESS" plot "$WORK/cook" > "$WORK/cook.out" 2>&1 || fail "plot cook: $(cat "$WORK/cook.out")"
check_chart "$WORK/cook/plots" slowdown-kbuild-wall
grep -Eq '^init_on_free	4\.574' "$WORK/cook/plots/slowdown-kbuild-wall.dat" || fail "slowdown data"
[ ! -e "$WORK/cook/plots/cores-kbuild-wall.png" ] || fail "one cores value: no cores chart"

tap_case error_bars_are_the_headline_ci
# the bars' ends are the report's 95% CI (Welch's here: an import), and the axis says so
"$HARNESS" report "$WORK/cook" --format json > "$WORK/cook.json" 2>/dev/null
want=$(jq -r '.rows[] | select(.variant == "init_on_free") | "\(.ci95_low_pct) \(.ci95_high_pct)"' "$WORK/cook.json")
got=$(awk -F'\t' '$1 == "init_on_free" { print $3, $4 }' "$WORK/cook/plots/slowdown-kbuild-wall.dat")
awk -v w="$want" -v g="$got" 'BEGIN { split(w, a, " "); split(g, b, " ");
	exit !(b[1] != "" && (a[1] - b[1])^2 < 1e-6 && (a[2] - b[2])^2 < 1e-6) }' || fail "bar ends $got, CI $want"
grep -q "ylabel_text = 'slowdown of wall vs baseline \[%\] (bars: 95% CI, Welch)'" "$WORK/cook/plots/slowdown-kbuild-wall.gp" ||
	fail "the y label does not name the interval and estimate"

tap_case cores_chart
# several cores values: the vCPU chart too
"$HARNESS" plot "$WORK/aziz" --out "$WORK/aziz-plots" > /dev/null 2>&1 || fail "plot aziz"
check_chart "$WORK/aziz-plots" slowdown-kbuild-sys
check_chart "$WORK/aziz-plots" cores-kbuild-sys
grep -Eq '^96	2536\.5' "$WORK/aziz-plots/cores-kbuild-sys.dat" || fail "cores data"

tap_case per_test_ratio_bars
# per-test workloads: ratio bars, no slowdown chart per test
"$HARNESS" plot "$WORK/axtens" --format png > /dev/null 2>&1 || fail "plot axtens"
is_png "$WORK/axtens/plots/ratios-test_vmalloc-performance-c2.png" || fail "performance ratios png"
is_png "$WORK/axtens/plots/ratios-test_vmalloc-sequential-c2.png" || fail "sequential ratios png"
[ ! -e "$WORK/axtens/plots/ratios-test_vmalloc-sequential-c2.svg" ] || fail "--format png drew an svg"
[ "$(ls "$WORK/axtens/plots" | grep -c '^slowdown-')" = 0 ] || fail "per-test metrics got slowdown charts"
grep -Eq '^fix_size_alloc_test	17\.22[0-9]*	28\.91[0-9]*$' \
	"$WORK/axtens/plots/ratios-test_vmalloc-performance-c2.dat" || fail "ratio data"

tap_case clocks_apart
# the same cells under the host clock and icount: one chart each, never one mixing them
mkdir -p "$WORK/mixed"
cp "$WORK/cook/samples.jsonl" "$WORK/mixed/"
sed 's/}$/,"clock":"icount"}/' "$WORK/cook/samples.jsonl" >> "$WORK/mixed/samples.jsonl"
"$HARNESS" plot "$WORK/mixed" --format png > "$WORK/mixed.out" 2>&1 || fail "plot mixed: $(cat "$WORK/mixed.out")"
is_png "$WORK/mixed/plots/slowdown-kbuild-wall.png" || fail "host chart"
is_png "$WORK/mixed/plots/slowdown-kbuild-wall-icount.png" || fail "icount chart"
grep -q 'icount' "$WORK/mixed/plots/slowdown-kbuild-wall-icount.gp" || fail "icount chart title names the clock"
[ "$(grep -c '^init_on_free' "$WORK/mixed/plots/slowdown-kbuild-wall.dat")" = 1 ] || fail "host data: one row per variant"

tap_case zero_baseline_is_no_chart
# a metric the baseline never moves (0 TLB shootdowns): no finite slowdown, so no chart and
# no gnuplot failure; the other metrics still draw and the exit status is 0
mkdir -p "$WORK/zero"
cp "$WORK/cook/samples.jsonl" "$WORK/zero/"
grep '"metric":"wall"' "$WORK/cook/samples.jsonl" | sed 's/"metric":"wall"/"metric":"ipi_tlb"/;
	s/"value":[0-9.e+-]*/"value":0/' >> "$WORK/zero/samples.jsonl"
"$HARNESS" plot "$WORK/zero" --format png > "$WORK/zero.out" 2>&1 || fail "plot zero: $(cat "$WORK/zero.out")"
grep -q 'slowdown-kbuild-ipi_tlb: no finite value to draw' "$WORK/zero.out" || fail "no note: $(cat "$WORK/zero.out")"
[ ! -e "$WORK/zero/plots/slowdown-kbuild-ipi_tlb.png" ] || fail "drew an empty chart"
is_png "$WORK/zero/plots/slowdown-kbuild-wall.png" || fail "the wall chart was not drawn"

tap_case kept_script_redraws
# the kept script redraws the chart on its own
rm "$WORK/cook/plots/slowdown-kbuild-wall.png"
(cd "$WORK/cook/plots" && gnuplot slowdown-kbuild-wall.gp) || fail "rerunning the kept script"
is_png "$WORK/cook/plots/slowdown-kbuild-wall.png" || fail "rerun drew no PNG"
tap_finish
