#!/bin/bash
# `harness report RUN --against-seeds`: the seeds' raw numbers (tests/data/seed*.csv)
# imported as runs, compared with the figures in workloads/*/published.json. The runs
# reproduce the mails' own numbers, so every comparable row must agree; variants and
# workloads a run lacks are "not measured"; broken data files fail on one line naming
# file and key. Usage: test_against_seeds.sh HARNESS DATA_DIR
. "$(dirname "$0")/../common/cli-lib.sh"
. "$(dirname "$0")/lib.sh"

tap_case setup
import "$DATA/seed001-cook-kbuild.csv" "$WORK/cook"
import "$DATA/seed000-piccoli-hugetlb.csv" "$WORK/piccoli"
import "$DATA/seed004-axtens-test_vmalloc.csv" "$WORK/axtens"

tap_case cook_published_vs_measured
# Kees Cook's builds against his own published slowdowns: published vs measured, side by side
"$HARNESS" report "$WORK/cook" --against-seeds > "$WORK/cook.txt" || fail "report cook --against-seeds"
grep -Eq '^  line 267 +wall +init_on_free +baseline +\+4\.57% +\+4\.57% \(st\.err 0\.19%\) +\+4\.13% \.\. \+5\.02% +5/5 +4/4 +same sign, same order of magnitude, within 2x \(effect 1\.00x published\)$' \
	"$WORK/cook.txt" || fail "Cook init_on_free row: $(grep 'line 267' "$WORK/cook.txt")"
grep -Eq '^  line 262 +wall +init_on_alloc +baseline +-0\.25% \(noise\) +-0\.25% \(st\.err 0\.22%\) +-0\.76% \.\. \+0\.26% +5/5 +4/4 +both within noise: agree$' \
	"$WORK/cook.txt" || fail "Cook init_on_alloc row: $(grep 'line 262' "$WORK/cook.txt")"
grep -Eq '^  line 272 +wall +exclusions +baseline +\+3\.60% +\+3\.61% ' "$WORK/cook.txt" || fail "Cook exclusions row"
grep -qx 'summary: 9 rows compared: 9 agree in sign (or both within noise), 7 also in order of magnitude, 6 within 2x; 7 of the 7 with a published effect of at least 2% have a 95% CI that excludes no effect' \
	"$WORK/cook.txt" || fail "Cook summary: $(grep summary "$WORK/cook.txt")"
tap_case conditions_of_both_sides
# the conditions of both sides
contains "$WORK/cook.txt" "published: cores 4; machine: not stated; kernel: not stated (init_on_alloc/init_on_free series v2, May 2019)"
contains "$WORK/cook.txt" "measured:  cores 4; accel unknown; kernel unknown"
contains "$WORK/cook.txt" "measured: 20 samples; accel unknown; host unknown (imported set)"
tap_case per_core_nearest
# Potapenko's per-core sweep: each published cores compared with the nearest measured (4)
grep -Eq '^  line 636 +wall +init_on_free +baseline +\+9\.49% +\+4\.57% .* 4/24 +same sign' "$WORK/cook.txt" ||
	fail "per-core row at 24 published cores"
# ... and says so under the table, once per pair of counts; a row published at 4 does not
contains "$WORK/cook.txt" "  compared across vCPU counts: published at 24, measured at 4 (the run has no 24; --cores 24 measures it)"
contains "$WORK/cook.txt" "  compared across vCPU counts: published at 2, measured at 4 (the run has no 2; --cores 2 measures it)"
[ "$(grep -c 'compared across vCPU counts: published at 24, measured at 4' "$WORK/cook.txt")" = 1 ] ||
	fail "the 24/4 note is not said exactly once"
grep -q 'compared across vCPU counts: published at 4,' "$WORK/cook.txt" &&
	fail "a row measured at its own count is said to be compared across counts"
grep -Eq '^  line 15 +sys +init_on_free .*not measured: no metric sys of kbuild in this run' "$WORK/cook.txt" ||
	fail "sys figure without sys samples"
tap_case xpfo_not_measured
# Cook's set has no XPFO variant: seed 002's figures are not measured, never compared
contains "$WORK/cook.txt" "== kbuild, seed 002, cores 96, 96-core Intel Xeon Platinum 8160 CPU @ 2.10GHz, 768 GB RAM: 2 figures (xpfo, xpfo-deferred): not measured: no such variant in this run"
contains "$WORK/cook.txt" "== hackbench, seed 001: 3 figures (init_on_free, unix-noinit, init_on_alloc): not measured: no hackbench samples in this run"
grep -q "opposite sign" "$WORK/cook.txt" && fail "a seed's own numbers disagree with it"
grep -qi nan "$WORK/cook.txt" && fail "NaN in the text"

tap_case xpfo_measured_vs_published
# A small synthetic 2-vCPU set with seed 002's variant names: each XPFO figure gets the
# measured ratio next to the published one, the 4-core ones at the nearest cores (2/4),
# the 96-core ones too, with the note that they need many-core hardware.
cat > "$WORK/xpfo.csv" <<'EOF2'
variant,workload,metric,unit,cores,value
baseline,kbuild,sys,s,2,10
baseline,kbuild,sys,s,2,11
baseline,kbuild,sys,s,2,12
xpfo,kbuild,sys,s,2,30.8
xpfo,kbuild,sys,s,2,33
xpfo,kbuild,sys,s,2,35.2
xpfo-deferred,kbuild,sys,s,2,13.2
xpfo-deferred,kbuild,sys,s,2,14.3
xpfo-deferred,kbuild,sys,s,2,15.4
baseline,kbuild,ipi_call,IPIs,2,100
xpfo,kbuild,ipi_call,IPIs,2,5000
EOF2
import "$WORK/xpfo.csv" "$WORK/xpfo"
"$HARNESS" report "$WORK/xpfo" --against-seeds --workload kbuild > "$WORK/xpfo.txt" || fail "report xpfo --against-seeds"
grep -Eq '^  "4\.19\+XPFO 1588\.646s 2\.614x" +sys +xpfo +baseline +2\.614x +3\.00x \(st\.err 0\.2\) +2\.352x \.\. 3\.648x +3/3 +2/4 +same sign, same order of magnitude, within 2x \(effect 1\.24x published\)$' \
	"$WORK/xpfo.txt" || fail "4-core xpfo row: $(grep '2.614x' "$WORK/xpfo.txt")"
grep -Eq '^  "4\.19\+XPFO\+Deferred flush 794\.473s 1\.307xx" +sys +xpfo-deferred +baseline +1\.307x +1\.30x \(st\.err 0\.089\) +1\.051x \.\. 1\.549x +3/3 +2/4 +same sign, same order of magnitude, within 2x \(effect 0\.98x published\)$' \
	"$WORK/xpfo.txt" || fail "4-core xpfo-deferred row: $(grep '1.307x' "$WORK/xpfo.txt")"
grep -Eq '^  "4\.19\+XPFO 24129\.354s 26\.366x" +sys +xpfo +baseline +26\.37x +3\.00x .* 2/96 +same sign, another order of magnitude' \
	"$WORK/xpfo.txt" || fail "96-core xpfo row: $(grep '26.37x' "$WORK/xpfo.txt")"
grep -q "^  note, xpfo: needs many-core hardware" "$WORK/xpfo.txt" || fail "96-core note"
contains "$WORK/xpfo.txt" "measured:  cores 2; accel unknown; kernel unknown"
grep -q "not measured" <(sed -n '/seed 002/,$p' "$WORK/xpfo.txt") && fail "a seed 002 figure is not measured"

tap_case piccoli_hugetlb_with_meta
# Piccoli's hugetlb times, with the meta.json a run writes: ratios and measured conditions
cp "$WORK/piccoli/samples.jsonl" "$WORK/run.jsonl"
mkdir -p "$WORK/run" && mv "$WORK/run.jsonl" "$WORK/run/samples.jsonl"
cat > "$WORK/run/meta.json" <<'EOF'
{"accel": "tcg", "accel_reason": "KVM probe boot printed nothing in 10 s",
 "kernels": {"base": {"release": "6.1.192-hb"}, "hugetlb-noinit": {"release": "6.1.192-hb-noinit"}},
 "host": {"cpu": {"brand": "Example CPU"}, "topology": {"cores": 2}}}
EOF
"$HARNESS" report "$WORK/run" --against-seeds --workload hugetlb > "$WORK/run.txt" || fail "report run"
grep -Eq '^  "real 0m24\.189s" +wall +init_on_alloc +baseline +76\.55x \(derived\) +76\.55x +- +1/1 +-/- +n=1: no judgement \(effect 1\.00x published\)' \
	"$WORK/run.txt" || fail "hugetlb 76x row: $(grep 24.189 "$WORK/run.txt")"
contains "$WORK/run.txt" "measured: 6 samples; accel tcg (KVM probe boot printed nothing in 10 s); host Example CPU, 2 cores"
# one sample per side: no CI, so no row counts as "smaller here" (an unknown CI is too wide)
grep -Fq "(of the other 4, 0 exclude the published effect too: smaller here than published; 4 are too wide to tell)" \
	"$WORK/run.txt" || fail "rows without a CI counted as smaller: $(grep summary "$WORK/run.txt")"
# ... and listed as such by name, without cores where the samples name none
grep -Eq '^  hugetlb (wall|sys), [a-z_-]+ vs [a-z_-]+: [0-9.]+x for [0-9.]+x published: too wide to tell$' "$WORK/run.txt" ||
	fail "a row without cores or CI in the list: $(grep -A5 '^not resolved' "$WORK/run.txt")"
grep -q 'cores -1' "$WORK/run.txt" && fail "unknown cores printed as -1"
tap_case kernels_per_build
# baseline and init_on_alloc share the base build (kernel-configs/); hugetlb-noinit has its own
contains "$WORK/run.txt" "measured:  cores unknown; accel tcg; kernels: init_on_alloc 6.1.192-hb, baseline 6.1.192-hb, hugetlb-noinit 6.1.192-hb-noinit"
grep -q "^NOTE: guests ran under TCG" "$WORK/run.txt" || fail "TCG note"
"$HARNESS" report "$WORK/run" --against-seeds --workload hugetlb --metric wall --format json > "$WORK/run.json" ||
	fail "json"
grep -q '"kernel": "6.1.192-hb-noinit"' "$WORK/run.json" || fail "json: measured kernel"
grep -q '"baseline_kernel": "6.1.192-hb"' "$WORK/run.json" || fail "json: baseline kernel"
grep -q '"accel_reason": "KVM probe boot printed nothing in 10 s"' "$WORK/run.json" || fail "json: accel reason"
[ "$(grep -c '"status": "measured"' "$WORK/run.json")" = 3 ] || fail "json: 3 wall figures measured"

tap_case axtens_all_agree
# Axtens' table against itself: all 81 ratios compared; one sample a side gives no error
# estimate, so each says so instead of judging (the judging: test_seed_agree.c)
"$HARNESS" report "$WORK/axtens" --against-seeds --workload test_vmalloc > "$WORK/axtens.txt" || fail "axtens"
contains "$WORK/axtens.txt" "published: $HARDBENCH_SOURCE_DIR/workloads (81 figures from 5 files; 81 compared, 0 not measured)"
[ "$(grep -c 'n=1: no judgement (effect [01].[0-9]*x published)' "$WORK/axtens.txt")" = 81 ] || fail "81 rows of n=1"
grep -q '; 81 with n=1 on a side: no judgement' "$WORK/axtens.txt" || fail "summary: $(grep summary "$WORK/axtens.txt")"
grep -Eq '^  "Total Cycles 54181269392 .*" +worker0/total_cycles +kasan-vmalloc +kasan +2\.11x +2\.108x ' \
	"$WORK/axtens.txt" || fail "sequential total cycles x KASAN row"

tap_case formats_not_measured
# JSON, markdown, CSV of the Cook run: the absent variant is "not measured" there too
"$HARNESS" report "$WORK/cook" --against-seeds --format json > "$WORK/cook.json" || fail "cook json"
grep -q '"why": "no such variant in this run"' "$WORK/cook.json" || fail "json: no such variant"
grep -q '"sign": "same"' "$WORK/cook.json" || fail "json: agreement sign"
"$HARNESS" report "$WORK/cook" --against-seeds --format markdown > "$WORK/cook.md" || fail "cook markdown"
grep -Eq '^\| line 267 \| wall \| init_on_free \| baseline \| \+4\.57% \| \+4\.57% \(st\.err 0\.19%\) \| \+4\.13% \.\. \+5\.02% \| 5/5 \| 4/4 \| same sign' \
	"$WORK/cook.md" || fail "markdown row"
"$HARNESS" report "$WORK/cook" --against-seeds --format csv > "$WORK/cook.csv" || fail "cook csv"
grep -q '^"001",267,"kbuild","","wall","init_on_free","baseline","slowdown_pct",4.57,,4,"measured"' \
	"$WORK/cook.csv" || fail "csv row"
grep -q '"002",1,"kbuild","","sys","xpfo","baseline","ratio",26.366,,96,"not measured","no such variant in this run"' \
	"$WORK/cook.csv" || fail "csv: xpfo not measured"

tap_case bad_data_files_exit_2
# bad data files: one line naming the file, the figure and the key; exit 2
bad=$WORK/bad/hugetlb/published.json
mkdir -p "$(dirname "$bad")"
figure='"seed": "000", "line": 1, "quote": "real 0m24.189s", "workload": "hugetlb", "variant": "init_on_alloc", "baseline_variant": "baseline", "kind": "ratio", "value": 76.55, "conditions": {"cores": null, "machine": "VM", "kernel": "5.9"}'
refused_figure "$WORK/cook" "$bad" "$WORK/bad" "$figure" ", \"metric\": \"wall\"}, {$figure" "$bad: figure 2: missing key 'metric'"
refused_figure "$WORK/cook" "$bad" "$bad" "$figure" ", \"metric\": \"wall\", \"metirc\": 1" "$bad: figure 1: unknown key 'metirc' \(accepted: seed, line"
refused_figure "$WORK/cook" "$bad" "$bad" "$figure" ", \"metric\": \"wall\", \"line\": 0" "$bad: figure 1: 'line' must be a whole number >= 1, not 0"
refused_figure "$WORK/cook" "$bad" "$bad" "$figure" ", \"metric\": \"wall\", \"kind\": \"percent\"" "figure 1: 'kind' must be slowdown_pct or ratio"
refused_figure "$WORK/cook" "$bad" "$bad" "$figure" ", \"metric\": \"wall\", \"conditions\": {\"cores\": 4, \"kernel\": \"5.9\"}" "figure 1: conditions: missing key 'machine'"
refused_figure "$WORK/cook" "$bad" "$WORK/bad" "$figure" ", \"metric\": \"wall\", \"workload\": \"kbuild\"" "figure 1: workload 'kbuild' is not this folder's \(hugetlb\)"
echo '{"figures": [' > "$bad"
expect_exit 2 "$bad: not JSON at line 1: unexpected end of data" -- "$HARNESS" report "$WORK/cook" --against-seeds="$bad"
mkdir -p "$WORK/empty"
expect_exit 2 "$WORK/empty: no <workload>/published.json" -- "$HARNESS" report "$WORK/cook" --against-seeds="$WORK/empty"
expect_exit 2 "'$WORK/nope' not found" -- "$HARNESS" report "$WORK/cook" --against-seeds="$WORK/nope"
tap_case options_that_do_not_apply
# options that do not apply, and selections that select nothing
expect_exit 2 "--baseline does not apply with --against-seeds" -- "$HARNESS" report "$WORK/cook" --against-seeds --baseline init_on_free
expect_exit 2 "--ratio-to does not apply" -- "$HARNESS" report "$WORK/cook" --ratio-to kasan --against-seeds
expect_exit 2 "--workload: no published figure for 'fio' \(accepted: hackbench, hugetlb, kbuild" -- "$HARNESS" report "$WORK/cook" --against-seeds --workload fio
expect_exit 2 "--metric: no published figure for 'ops'" -- "$HARNESS" report "$WORK/cook" --against-seeds --metric ops
expect_exit 2 "a PATH goes as --against-seeds=PATH" -- "$HARNESS" report "$WORK/cook" --against-seeds "$WORK/bad"
tap_case ordinary_report_unchanged
# the ordinary report is unchanged by the option's existence
"$HARNESS" report "$WORK/cook" | grep -Fq "kbuild cores=4, init_on_free: +4.57% wall (st.err 0.19%, 95% CI [+4.13%, +5.02%], MDE 0.62%; Welch)" ||
	fail "ordinary report"
# A figure's icount_note is printed for a row measured under icount and not within 2x of it,
# not for the same numbers under the host clock, nor for a row within 2x.
tap_case icount_note_outside_2x
mkdir -p "$WORK/pub/hugetlb" "$WORK/ic" "$WORK/hc"
cat > "$WORK/pub/hugetlb/published.json" <<'EOF2'
{"figures": [
 {"seed": "000", "line": 1, "quote": "real 0m24.189s", "workload": "hugetlb", "metric": "wall",
  "variant": "init_on_alloc", "baseline_variant": "baseline", "kind": "ratio", "value": 76.55,
  "icount_note": "clearing counted per byte",
  "conditions": {"cores": null, "machine": "m", "kernel": "k"}},
 {"seed": "000", "line": 2, "quote": "real 0m0.2s", "workload": "hugetlb", "metric": "wall",
  "variant": "hugetlb-noinit", "baseline_variant": "baseline", "kind": "ratio", "value": 1.0,
  "icount_note": "never printed: within 2x",
  "conditions": {"cores": null, "machine": "m", "kernel": "k"}}]}
EOF2
for clock in icount host; do
	out=$WORK/${clock:0:1}c/samples.jsonl
	: > "$out"
	for b in 0 1 2; do
		for vv in baseline:0.0100 init_on_alloc:1.9$b hugetlb-noinit:0.010$b; do
			printf '{"variant":"%s","workload":"hugetlb","metric":"wall","unit":"s","cores":2,"boot":%d,"rep":0,"value":%s,"lower_is_better":true,"clock":"%s","kernel_line":"6.1"}\n' \
				"${vv%%:*}" "$b" "${vv#*:}" "$clock" >> "$out"
		done
	done
done
"$HARNESS" report "$WORK/ic" --against-seeds="$WORK/pub" > "$WORK/ic.txt" || fail "icount report: $(cat "$WORK/ic.txt")"
grep -q 'not within 2x under icount, init_on_alloc: clearing counted per byte' "$WORK/ic.txt" ||
	fail "no icount note: $(cat "$WORK/ic.txt")"
grep -q 'never printed' "$WORK/ic.txt" && fail "a row within 2x got its icount note"
"$HARNESS" report "$WORK/hc" --against-seeds="$WORK/pub" > "$WORK/hc.txt" || fail "host report"
grep -q 'under icount' "$WORK/hc.txt" && fail "a host-clock run got the icount note: $(cat "$WORK/hc.txt")"
# The file's icount_note is each figure's that has none of its own; a figure's own wins.
tap_case icount_note_of_the_file
mkdir -p "$WORK/pub2/hugetlb" "$WORK/pub3/hugetlb"
python3 - "$WORK/pub/hugetlb/published.json" "$WORK/pub2/hugetlb/published.json" "$WORK/pub3/hugetlb/published.json" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
del d["figures"][0]["icount_note"]
d["figures"][1]["icount_note"] = "the figure's own"
d["figures"][1]["value"] = 0.1
json.dump({"icount_note": "the file's note", "figures": d["figures"]}, open(sys.argv[2], "w"))
json.dump({"icount_note": 5, "figures": d["figures"]}, open(sys.argv[3], "w"))
EOF2
"$HARNESS" report "$WORK/ic" --against-seeds="$WORK/pub2" > "$WORK/ic2.txt" || fail "icount report: $(cat "$WORK/ic2.txt")"
grep -q "init_on_alloc: the file's note" "$WORK/ic2.txt" || fail "the file's note not inherited: $(cat "$WORK/ic2.txt")"
grep -q "hugetlb-noinit: the figure's own" "$WORK/ic2.txt" || fail "a figure's own note lost: $(cat "$WORK/ic2.txt")"
[ "$(grep -c "the file's note" "$WORK/ic2.txt")" = 1 ] || fail "the file's note went to a figure with its own"
expect_exit 2 "published.json: 'icount_note' must be a non-empty string" -- \
	"$HARNESS" report "$WORK/ic" --against-seeds="$WORK/pub3"

# A figure with expect_none is judged against no effect and counted apart from the effects
# to resolve; with "noise" as well, or as a non-string, the file is refused. Of the effects
# whose CI spans none, the summary tells those that exclude the published value (1.5x for
# a measured 1.01x [0.985, 1.035]) from those too wide to tell (1.02x).
tap_case expect_none_rows
mkdir -p "$WORK/pub4/hugetlb" "$WORK/pub5/hugetlb" "$WORK/pub6/hugetlb"
python3 - "$WORK/pub/hugetlb/published.json" "$WORK/pub4/hugetlb/published.json" "$WORK/pub5/hugetlb/published.json" "$WORK/pub6/hugetlb/published.json" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
none = dict(d["figures"][1], value=0.66, expect_none="the patch claims the same level")
other = dict(d["figures"][0], expect_none="claimed none, measured 191x")
smaller = dict(d["figures"][1], line=3, value=1.5)
too_wide = dict(d["figures"][1], line=4, value=1.02)
json.dump({"figures": [d["figures"][0], none, other, smaller, too_wide]}, open(sys.argv[2], "w"))
json.dump({"figures": [dict(none, noise=True)]}, open(sys.argv[3], "w"))
json.dump({"figures": [dict(none, expect_none=1)]}, open(sys.argv[4], "w"))
EOF2
"$HARNESS" report "$WORK/ic" --against-seeds="$WORK/pub4" > "$WORK/ic4.txt" || fail "expect_none report: $(cat "$WORK/ic4.txt")"
grep -Eq '^  line 2 +wall +hugetlb-noinit +baseline +0\.66x \(none expected\) +1\.01x .* +no effect expected, none measured: agree$' "$WORK/ic4.txt" ||
	fail "the expect_none row: $(cat "$WORK/ic4.txt")"
grep -Eq '^  "real 0m24\.189s" +wall +init_on_alloc +baseline +76\.55x \(none expected\) .* +no effect expected, measured one$' "$WORK/ic4.txt" ||
	fail "an expect_none row with an effect: $(cat "$WORK/ic4.txt")"
contains "$WORK/ic4.txt" "  no effect expected, hugetlb-noinit: the patch claims the same level"
grep -Eq '^summary: 5 rows compared: .*; 1 of the 3 with a published effect of at least 2% has a 95% CI that excludes no effect \(of the other 2, 1 excludes the published effect too: smaller here than published; 1 is too wide to tell\); 2 where no effect is expected: 1 with a 95% CI that includes none; their CIs reach a median [0-9.]+% from none \(widest [0-9.]+%\)$' \
	"$WORK/ic4.txt" || fail "summary with expect_none: $(grep summary "$WORK/ic4.txt")"
# the rows to resolve that did not, by name, each with what it is: smaller here, or too wide
grep -qx 'not resolved (a published effect of at least 2%, a 95% CI that includes none):' "$WORK/ic4.txt" ||
	fail "no list of the rows not resolved: $(cat "$WORK/ic4.txt")"
grep -Eqx '  hugetlb wall, hugetlb-noinit vs baseline, cores 2: 1\.01x \(0\.9[0-9]*x \.\. 1\.0[0-9]*x\) for 1\.50x published: smaller here than published' \
	"$WORK/ic4.txt" || fail "the smaller row: $(grep "for 1.50x" "$WORK/ic4.txt")"
grep -Eqx '  hugetlb wall, hugetlb-noinit vs baseline, cores 2: 1\.01x \(.*\) for 1\.02x published: too wide to tell' \
	"$WORK/ic4.txt" || fail "the too-wide row: $(grep 'for 1.02x' "$WORK/ic4.txt")"
[ "$(grep -c 'published: \(smaller here\|too wide\)' "$WORK/ic4.txt")" = 2 ] || fail "a resolved or expect_none row listed"
grep -q '^by seed:' "$WORK/ic4.txt" && fail "a by-seed table for one seed and workload"
"$HARNESS" report "$WORK/ic" --against-seeds="$WORK/pub4" --format json > "$WORK/ic4.json" || fail "expect_none json"
grep -q '"expect_none": "the patch claims the same level"' "$WORK/ic4.json" || fail "json: expect_none"
expect_exit 2 "figure 1: 'expect_none' and 'noise' exclude each other" -- \
	"$HARNESS" report "$WORK/ic" --against-seeds="$WORK/pub5"
expect_exit 2 "figure 1: 'expect_none' must be a non-empty string" -- \
	"$HARNESS" report "$WORK/ic" --against-seeds="$WORK/pub6"

tap_case one_row_summary_in_the_singular
# one compared row: the summary says "1 row", "1 agrees"; counts of one never read "1 have"
printf 'variant,workload,metric,unit,value\nbaseline,hugetlb,wall,s,0.316\ninit_on_alloc,hugetlb,wall,s,24.189\nbaseline,hugetlb,wall,s,0.317\ninit_on_alloc,hugetlb,wall,s,24.19\n' > "$WORK/one.csv"
import "$WORK/one.csv" "$WORK/one"
"$HARNESS" report "$WORK/one" --against-seeds > "$WORK/one.txt" || fail "report one --against-seeds"
grep -Eq '^summary: 1 row compared: 1 agrees in sign .*; 1 of the 1 with a published effect of at least 2% has a 95% CI' \
	"$WORK/one.txt" || fail "singular summary: $(grep summary "$WORK/one.txt")"

tap_case by_seed_table
# Two seeds' workloads in one run: one summary row each, their counts adding up to the run's
# (hugetlb: 2 rows of which 1 resolved; hackbench: 1 row, within noise, too wide)
printf 'variant,workload,metric,unit,cores,value\n' > "$WORK/two.csv"
for v in 0.316 0.317 0.318; do printf 'baseline,hugetlb,wall,s,2,%s\nbaseline,hugetlb,sys,s,2,%s\n' $v $v; done >> "$WORK/two.csv"
for v in 24.1 24.2 24.3; do printf 'init_on_alloc,hugetlb,wall,s,2,%s\n' $v; done >> "$WORK/two.csv"
for v in 0.30 0.33 0.36; do printf 'init_on_alloc,hugetlb,sys,s,2,%s\n' $v; done >> "$WORK/two.csv"
for v in 10 11 12; do printf 'baseline,hackbench,guest_sys,s,2,%s\ninit_on_free,hackbench,guest_sys,s,2,%s\n' $v $v; done >> "$WORK/two.csv"
import "$WORK/two.csv" "$WORK/two"
"$HARNESS" report "$WORK/two" --against-seeds > "$WORK/two.txt" || fail "report two"
grep -qx 'by seed:' "$WORK/two.txt" || fail "no by-seed table: $(cat "$WORK/two.txt")"
grep -Eqx '  001 +hackbench +1 +0 +0 +0 +0 of 1 +0 +1 +-' "$WORK/two.txt" ||
	fail "hackbench's by-seed row: $(grep -A3 '^by seed' "$WORK/two.txt")"
grep -Eqx '  000 +hugetlb +2 +[0-9] +[0-9] +[0-9] +1 of 2 +1 +0 +-' "$WORK/two.txt" ||
	fail "hugetlb's by-seed row: $(grep -A3 '^by seed' "$WORK/two.txt")"
grep -Eq '^summary: 3 rows compared: .*; 1 of the 3 with a published effect of at least 2% has' "$WORK/two.txt" ||
	fail "the run's summary: $(grep summary "$WORK/two.txt")"
"$HARNESS" report "$WORK/two" --against-seeds --format markdown > "$WORK/two.md" || fail "report two markdown"
grep -Fqx '| seed | workload | rows | same sign | same order | within 2x | CI excludes none (published >= 2%) | smaller here | too wide | none expected: CI includes none |' \
	"$WORK/two.md" || fail "markdown by-seed table: $(cat "$WORK/two.md")"
grep -Eq '^- hackbench guest_sys, init_on_free vs baseline, cores 2: \+0\.00% \(.*\) for \+7\.71% published: too wide to tell$' \
	"$WORK/two.md" || fail "markdown list of the rows not resolved: $(grep published: "$WORK/two.md")"

tap_finish
