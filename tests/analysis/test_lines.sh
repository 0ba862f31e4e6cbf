#!/bin/bash
# Kernel lines in report, plot and gate: a set with samples of two lines (the 6.1 ones
# with no "kernel_line" key, as sets from before lines are written, plus one with
# "kernel_line":"6.1", which must land in the same group) compares each variant with
# its own line's baseline, shows both lines side by side, and keeps the lines apart in
# plot file names and gate entries. Usage: test_lines.sh HARNESS DATA_DIR
. "$(dirname "$0")/../common/cli-lib.sh"

set_dir=$WORK/lines
mkdir -p "$set_dir"
echo '{"harness_version":"test"}' > "$set_dir/meta.json"
sample() { # LINE VARIANT BOOT VALUE (LINE "-": no key)
	local line=""
	[ "$1" = - ] || line=",\"kernel_line\":\"$1\""
	printf '{"variant":"%s","workload":"hackbench","metric":"time","unit":"s","cores":1,"boot":%d,"rep":0,"value":%s,"lower_is_better":true%s}\n' \
		"$2" "$3" "$4" "$line" >> "$set_dir/samples.jsonl"
}
for b in 0 1 2; do
	f=$(echo "1 + $b / 100" | bc -l)
	sample - baseline "$b" "$(echo "10 * $f" | bc -l)"
	[ "$b" = 2 ] && sample 6.1 init_on_alloc "$b" "$(echo "11 * $f" | bc -l)" ||
		sample - init_on_alloc "$b" "$(echo "11 * $f" | bc -l)"
	sample 6.12 baseline "$b" "$(echo "20 * $f" | bc -l)"
	sample 6.12 init_on_alloc "$b" "$(echo "30 * $f" | bc -l)"
done

tap_case report_compares_within_a_line
"$HARNESS" report "$set_dir" > "$WORK/r.txt" 2>&1 || fail "report: $(cat "$WORK/r.txt")"
grep -q '^== hackbench: time \[s\], cores=1, kernel=6.1, lower is better' "$WORK/r.txt" || fail "no 6.1 group: $(cat "$WORK/r.txt")"
grep -q '^== hackbench: time \[s\], cores=1, kernel=6.12, lower is better' "$WORK/r.txt" || fail "no 6.12 group"
grep -q '^hackbench cores=1 kernel=6.1, init_on_alloc: +10.00% time .*paired, 3 rounds' "$WORK/r.txt" ||
	fail "6.1 cost (old and explicit 6.1 samples together, 3 rounds): $(grep init_on_alloc: "$WORK/r.txt")"
grep -q '^hackbench cores=1 kernel=6.12, init_on_alloc: +50.00% time' "$WORK/r.txt" || fail "6.12 cost not against 6.12's baseline"

tap_case report_lines_side_by_side
grep -q '^== kernel lines side by side' "$WORK/r.txt" || fail "no side-by-side section"
grep -Eq '^  hackbench cores=1 time +baseline +10\.1 s +20\.2 s \(x2\.000\)$' "$WORK/r.txt" || fail "baselines row: $(grep -A3 'side by side' "$WORK/r.txt")"
grep -Eq '^  hackbench cores=1 time +init_on_alloc +\+10\.00% .* +\+50\.00% ' "$WORK/r.txt" || fail "costs row"
"$HARNESS" report "$set_dir" --format json > "$WORK/r.json" || fail "json report"
[ "$(grep -o '"kernel_line": *"6.12"' "$WORK/r.json" | wc -l)" -eq 2 ] || fail "json rows lack kernel_line 6.12"

tap_case one_line_set_unchanged
grep -v kernel_line "$set_dir/samples.jsonl" > "$WORK/old.jsonl"
mkdir -p "$WORK/old" && cp "$set_dir/meta.json" "$WORK/old/" && mv "$WORK/old.jsonl" "$WORK/old/samples.jsonl"
"$HARNESS" report "$WORK/old" > "$WORK/o.txt" 2>&1 || fail "old report"
grep -q 'kernel' "$WORK/o.txt" && fail "an old set's report names kernel lines: $(grep kernel "$WORK/o.txt")"
grep -q '^== hackbench: time \[s\], cores=1, lower is better' "$WORK/o.txt" || fail "old heading changed"

tap_case plot_and_gate_keep_lines_apart
"$HARNESS" plot "$set_dir" --out "$WORK/plots" > /dev/null 2>&1 || fail "plot"
[ -e "$WORK/plots/slowdown-hackbench-time.dat" ] && [ -e "$WORK/plots/slowdown-hackbench-time-6.12.dat" ] ||
	fail "chart data per line: $(ls "$WORK/plots")"
"$HARNESS" gate "$set_dir" --against "$set_dir" > "$WORK/g.txt" 2>&1 || fail "gate: $(cat "$WORK/g.txt")"
grep -q 'hackbench time cores=1 kernel=6.12 init_on_alloc: +0.00%' "$WORK/g.txt" || fail "gate 6.12 entry: $(cat "$WORK/g.txt")"
grep -q '4 compared' "$WORK/g.txt" || fail "gate did not compare 4 entries"

tap_case against_seeds_compares_the_first_line
# seed 001's hackbench sys figure for init_on_free: the run's first line (plan.kernels[0],
# here 6.12) is compared, never a mix of lines.
sd=$WORK/seeds
mkdir -p "$sd"
echo '{"harness_version":"test","plan":{"kernels":["6.12","6.1"]}}' > "$sd/meta.json"
sys_sample() { # LINE VARIANT BOOT VALUE
	printf '{"variant":"%s","workload":"hackbench","metric":"sys","unit":"s","cores":2,"boot":%d,"rep":0,"value":%s,"lower_is_better":true,"kernel_line":"%s"}\n' \
		"$2" "$3" "$4" "$1" >> "$sd/samples.jsonl"
}
for b in 0 1 2; do
	f=$(echo "1 + $b / 100" | bc -l)
	sys_sample 6.1 baseline "$b" "$(echo "10 * $f" | bc -l)"
	sys_sample 6.1 init_on_free "$b" "$(echo "11 * $f" | bc -l)"
	sys_sample 6.12 baseline "$b" "$(echo "20 * $f" | bc -l)"
	sys_sample 6.12 init_on_free "$b" "$(echo "30 * $f" | bc -l)"
done
"$HARNESS" report "$sd" --against-seeds > "$WORK/s.txt" 2>&1 || fail "against-seeds: $(cat "$WORK/s.txt")"
grep -q '^measured:  cores 2; .*(kernel line 6.12)$' "$WORK/s.txt" || fail "measured line: $(grep measured "$WORK/s.txt")"
grep -Eq 'sys +init_on_free +baseline +\+7\.71% .* +\+50\.00% ' "$WORK/s.txt" || fail "6.12 not the compared line: $(grep init_on_free "$WORK/s.txt")"

tap_finish
