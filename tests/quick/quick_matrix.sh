#!/bin/bash
# The quick matrix: real boots of baseline, init_on_alloc and init_on_free at 1 vCPU under
# the instruction-count clock, running hugetlb, hackbench and test_vmalloc twice each.
# Checks every cell has its samples, that init_on_alloc makes nr_hugepages slower (190x
# under icount, 85x under the host clock here, 76x on hardware in seed 000: a robust
# effect), that report, plot and gate work on the set,
# that the gate passes against ci/reference (absolute icount values, --max-slowdown
# $QUICK_MAX_SLOWDOWN), that the same plan's next dry run is estimated at this run's pace,
# and that a corrupt line is skipped with a warning. TAP: the page's check in headless
# Chromium is a case of its own (SKIP without chromium).
# Usage: quick_matrix.sh HARNESS SOURCE_DIR
. "$(dirname "$0")/lib.sh"
SET=$WORK/quick
VARIANTS=(baseline init_on_alloc init_on_free)
WORKLOADS=(hugetlb hackbench test_vmalloc)

tap_case "the matrix runs; every cell has its samples; report, plot and gate against ci/reference"
"$HARNESS" run --variants baseline,init_on_alloc,init_on_free --workloads hugetlb,hackbench,test_vmalloc \
	"${QUICK_VM[@]}" --boots 1 --reps 2 "${QUICK_PARAMS[@]}" --out "$SET" > "$WORK/run.out" 2> "$WORK/run.err"
rc=$?
[ $rc = 0 ] || { fail "harness run exited $rc"; tail -30 "$WORK/run.err" >&2; tap_finish; }
[ "$(meta "$SET" .status)" = complete ] || fail "meta.json status is $(meta "$SET" .status)"
[ -n "$(meta "$SET" .accel)" ] || fail "meta.json names no accel"
[ "$(meta "$SET" .clock.name)" = icount ] || fail "meta.json clock is $(meta "$SET" .clock.name), want icount"
[ "$(meta "$SET" .estimate.cells)" = 9 ] || fail "meta.json estimate.cells is $(meta "$SET" .estimate.cells), want 9"
[ -n "$(meta "$SET" '.finished // empty')" ] || fail "meta.json has no finished time"
# which QEMU counted: the version its binary says, the TCG CPU model, no plugin
qv=$(qemu-system-x86_64 --version | sed -n '1s/.*version //p')
[ "$(meta "$SET" .qemu.version)" = "$qv" ] || fail "meta.json qemu.version is '$(meta "$SET" .qemu.version)', want '$qv'"
[ "$(meta "$SET" .qemu.cpu)" = max ] && [ "$(meta "$SET" '.qemu.plugins | length')" = 0 ] ||
	fail "meta.json qemu: $(jq -c .qemu "$SET/meta.json")"

# this host's pace: the same plan again, dry, is estimated from these 9 cells' real seconds
"$HARNESS" run --dry-run --variants baseline,init_on_alloc,init_on_free --workloads hugetlb,hackbench,test_vmalloc \
	"${QUICK_VM[@]}" --boots 1 --reps 2 "${QUICK_PARAMS[@]}" --out "$WORK/again" > "$WORK/again.out" 2>&1 ||
	fail "dry run after the run: $(tail -1 "$WORK/again.out")"
grep -q "^pace: this host's latest runs (pace.json): 9 of 9 cells of the same kind" "$WORK/again.out" ||
	fail "the next dry run did not use this run's pace: $(grep '^pace:' "$WORK/again.out")"

# every cell: both repetitions of its workload-specific metric and of the init's wall time
for v in "${VARIANTS[@]}"; do
	for rep in 0 1; do
		n=$(count "$SET" ".variant==\"$v\" and .workload==\"hugetlb\" and .metric==\"wall\" and .rep==$rep and .cores==1 and .clock==\"icount\"")
		[ "$n" = 1 ] || fail "$v hugetlb wall rep $rep: $n samples, want 1"
		n=$(count "$SET" ".variant==\"$v\" and .workload==\"hackbench\" and .metric==\"time\" and .rep==$rep")
		[ "$n" = 1 ] || fail "$v hackbench time rep $rep: $n samples, want 1"
		n=$(count "$SET" ".variant==\"$v\" and (.workload|startswith(\"test_vmalloc\")) and .metric==\"fix_size_alloc_test\" and .rep==$rep")
		[ "$n" = 1 ] || fail "$v test_vmalloc fix_size_alloc_test rep $rep: $n samples, want 1"
	done
done

# the robust effect: init_on_alloc clears every hugetlb page at allocation
"$HARNESS" report "$SET" --format json > "$WORK/report.json" || fail "report --format json"
ratio=$(jq -r '.rows[] | select(.workload=="hugetlb" and .metric=="wall" and .variant=="init_on_alloc") | .ratio' "$WORK/report.json")
awk -v r="$ratio" 'BEGIN { exit !(r > 3) }' || fail "hugetlb wall init_on_alloc/baseline = $ratio, want > 3"
echo "# hugetlb wall init_on_alloc/baseline = $ratio"

for f in text markdown csv; do
	"$HARNESS" report "$SET" --format $f > "$WORK/report.$f" || fail "report --format $f"
	[ -s "$WORK/report.$f" ] || fail "report --format $f is empty"
done
grep -q 'tcg\|kvm' "$WORK/report.text" || fail "the report header names the accel"
grep -q 'icount' "$WORK/report.text" || fail "the report header names the icount clock"
"$HARNESS" plot "$SET" --format png > "$WORK/plot.out" 2>&1 || fail "plot: $(cat "$WORK/plot.out")"
ls "$SET"/plots/slowdown-hugetlb-wall-icount.png > /dev/null 2>&1 || fail "no hugetlb slowdown chart (icount: the clock is in its name)"
"$HARNESS" gate "$SET" --against "$SET" > "$WORK/self.out" 2>&1 || fail "gate against itself: $(cat "$WORK/self.out")"
"$HARNESS" gate "$SET" --against "$SRC/ci/reference" --max-slowdown $QUICK_MAX_SLOWDOWN \
	--alpha $QUICK_ALPHA --junit "$WORK/gate.xml" > "$WORK/gate.out" 2>&1 ||
	fail "gate against ci/reference: $(cat "$WORK/gate.out")"
sed "s/^/# /" "$WORK/gate.out"

# the page written at the end of the run, opened in headless Chromium: a table and a chart
# per workload, the CI cells equal to the JSON report's, no console error; its screenshot
# stays next to it, and both are kept in the build folder for a look
. "$(dirname "$0")/../common/browser.sh"
tap_case "report.html in headless Chromium"
[ -s "$SET/report.html" ] || fail "harness run wrote no $SET/report.html"
charts=
command -v gnuplot > /dev/null && charts=--charts
browser_check "$SET/report.html" "$WORK/report.json" $charts
case $? in
77) tap_skip "$BROWSER_SKIP" ;;
*) if [ -n "${HARDBENCH_BUILD_DIR:-}" ] && [ -s "$SET/report.html.png" ]; then
	mkdir -p "$HARDBENCH_BUILD_DIR/quick-report/run"
	cp "$SET/report.html" "$SET/report.html.png" "$HARDBENCH_BUILD_DIR/quick-report/"
	cp "$SET/meta.json" "$SET/samples.jsonl" "$SET/cells.jsonl" "$HARDBENCH_BUILD_DIR/quick-report/run/"
	echo "# page, screenshot and result set kept in $HARDBENCH_BUILD_DIR/quick-report"
   fi ;;
esac

tap_case "compared with ci/reference; a torn line is skipped with a warning"
# two real quick runs compared (this one and ci/reference): a row per workload, metric and
# variant with both runs' costs and the change judged as the gate judges it; an imported
# seed set (host clock) among them is refused like the gate refuses it
"$HARNESS" report "$SRC/ci/reference" "$SET" --compare --format json --max-slowdown $QUICK_MAX_SLOWDOWN \
	--alpha $QUICK_ALPHA > "$WORK/compare.json" 2> "$WORK/compare.err" || fail "report --compare: $(cat "$WORK/compare.err")"
want=$(jq '[.rows[] | select(.variant != "baseline" and .error == null)] | length' "$WORK/report.json")
got=$(jq '[.rows[] | select(.costs[0] != null and .costs[1] != null and (.changes | length) == 1)] | length' "$WORK/compare.json")
[ "$got" = "$want" ] && [ "$want" -gt 0 ] || fail "compare: $got rows with both costs and a change, want $want"
flag=$(jq -r '.rows[] | select(.workload == "hugetlb" and .metric == "wall" and .variant == "init_on_alloc") | .changes[0].flag' "$WORK/compare.json")
[ "$flag" = ok ] || fail "compare: hugetlb wall init_on_alloc's cost changed from ci/reference (flag '$flag')"
"$HARNESS" report "$SRC/ci/reference" "$SET" --compare > "$WORK/compare.txt" 2>&1 || fail "report --compare (text)"
grep -Eq '^hugetlb +wall \[s\] +1 +init_on_alloc .* ok' "$WORK/compare.txt" || fail "compare text lacks the hugetlb row: $(head -12 "$WORK/compare.txt")"
"$HARNESS" import "$SRC/tests/data/seed001-cook-kbuild.csv" --out "$WORK/cook" > /dev/null 2>&1 || fail "import seed 001"
out=$("$HARNESS" report "$SRC/ci/reference" "$SET" "$WORK/cook" --compare 2>&1)
rc=$?
[ $rc = 2 ] || fail "compare with a host-clock seed set exited $rc, want 2"
[ "$(echo "$out" | grep -c .)" = 1 ] && echo "$out" | grep -q 'icount clock.*host clock' || fail "compare refusal: $out"

# a torn line in the middle is skipped with a warning naming file and line
cp -r "$SET" "$WORK/torn"
sed -i '3s/.*/{"variant":"baseline","workload":"hug/' "$WORK/torn/samples.jsonl"
"$HARNESS" report "$WORK/torn" > "$WORK/torn.out" 2> "$WORK/torn.err" || fail "report of a set with a torn line"
grep -q 'samples.jsonl:3: skipped corrupt line' "$WORK/torn.err" || fail "no warning for line 3: $(cat "$WORK/torn.err")"
tap_finish
