#!/bin/bash
# Every bad input exits 2 with one line naming the bad value; corrupt sample lines are
# skipped with a warning naming file and line. Usage: test_cli.sh HARNESS DATA_DIR
. "$(dirname "$0")/../common/cli-lib.sh"

tap_case setup
import "$DATA/seed001-cook-kbuild.csv" "$WORK/cook"
set_=$WORK/cook

tap_case report_usage_errors
# report
expect_exit 2 "missing RUN" -- "$HARNESS" report
expect_exit 2 "'$WORK/nope'" -- "$HARNESS" report "$WORK/nope"
expect_exit 2 "'xml'.*text, markdown, csv, json" -- "$HARNESS" report "$set_" --format xml
expect_exit 2 "'nobody'.*baseline, exclusions, init_on_alloc, init_on_free" -- "$HARNESS" report "$set_" --baseline nobody # canonical order: kernel-configs
expect_exit 2 "'nobody'.*accepted" -- "$HARNESS" report "$set_" --ratio-to nobody
expect_exit 2 "'ops'.*accepted: wall" -- "$HARNESS" report "$set_" --metric ops
expect_exit 2 "'hackbench'.*accepted: kbuild" -- "$HARNESS" report "$set_" --workload hackbench
expect_exit 2 "'sideways'.*auto, long, wide" -- "$HARNESS" report "$set_" --layout sideways
expect_exit 2 "'--bogus'" -- "$HARNESS" report "$set_" --bogus
expect_exit 2 "'--format' needs a value" -- "$HARNESS" report "$set_" --format
expect_exit 2 "'extra'" -- "$HARNESS" report "$set_" extra

tap_case plot_usage_errors
# plot
expect_exit 2 "'gif'.*png, svg, both" -- "$HARNESS" plot "$set_" --format gif
expect_exit 2 "'$WORK/nope'" -- "$HARNESS" plot "$WORK/nope"
expect_exit 2 "'nobody'" -- "$HARNESS" plot "$set_" --baseline nobody --out "$WORK/p"

tap_case gate_usage_errors
# gate
expect_exit 2 "missing --against" -- "$HARNESS" gate "$set_"
expect_exit 2 "'$WORK/nope'" -- "$HARNESS" gate "$set_" --against "$WORK/nope"
expect_exit 2 "'1.5'.*0 to 1" -- "$HARNESS" gate "$set_" --against "$set_" --alpha 1.5
expect_exit 2 "'-3'.*0 to 1000" -- "$HARNESS" gate "$set_" --against "$set_" --max-slowdown -3
expect_exit 2 "'ten'" -- "$HARNESS" gate "$set_" --against "$set_" --max-slowdown ten

tap_case import_errors_name_line_and_column
# import: errors name the line and the column
csv() { printf "$2" > "$WORK/$1.csv"; echo "$WORK/$1.csv"; }
expect_exit 2 "missing FILE" -- "$HARNESS" import
expect_exit 2 "'$WORK/none.csv'" -- "$HARNESS" import "$WORK/none.csv"
expect_exit 2 "empty.csv: empty file" -- "$HARNESS" import "$(csv empty '')"
expect_exit 2 "nohead.csv:1: missing column 'metric'" -- "$HARNESS" import "$(csv nohead 'variant,workload,value\n')"
expect_exit 2 "norows.csv: no data rows" -- "$HARNESS" import "$(csv norows 'variant,workload,metric,value\n')"
expect_exit 2 "badnum.csv:3: column 4 \(value\): bad value '12x'" -- \
	"$HARNESS" import "$(csv badnum 'variant,workload,metric,value\na,w,m,1\na,w,m,12x\n')"
expect_exit 2 "short.csv:2: 3 fields, but the header has 4" -- \
	"$HARNESS" import "$(csv short 'variant,workload,metric,value\na,w,m\n')"
expect_exit 2 "long.csv:2: 5 fields, but the header has 4" -- \
	"$HARNESS" import "$(csv long 'variant,workload,metric,value\na,w,m,1,2\n')"
expect_exit 2 "novalue.csv:1: missing column 'value'" -- "$HARNESS" import "$(csv novalue 'variant,workload,metric\n')"
expect_exit 2 "cores.csv:2: column 5 \(cores\): bad value '0'" -- \
	"$HARNESS" import "$(csv cores 'variant,workload,metric,value,cores\na,w,m,1,0\n')"
expect_exit 2 "dir.csv:2: column 3 \(lower_is_better\): bad value 'maybe'" -- \
	"$HARNESS" import "$(csv dir 'variant,workload,lower_is_better,metric,value\na,w,maybe,m,1\n')"
expect_exit 2 "emptyname.csv:2: column 1 \(variant\): bad value ''" -- \
	"$HARNESS" import "$(csv emptyname 'variant,workload,metric,value\n,w,m,1\n')"
expect_exit 2 "quote.csv:2: malformed CSV" -- \
	"$HARNESS" import "$(csv quote 'variant,workload,metric,value\na,w\"x,m,1\n')"
expect_exit 2 "open.csv:3: a quoted field is never closed" -- \
	"$HARNESS" import "$(csv open 'variant,workload,metric,value\na,\"w,m,1\nb,w,m,2\n')"
expect_exit 2 "twice.csv:1: column 3: 'value' appears twice" -- \
	"$HARNESS" import "$(csv twice 'variant,value,value,workload,metric\n')"
expect_exit 2 "'$set_' already holds samples" -- "$HARNESS" import "$DATA/seed001-cook-kbuild.csv" --out "$set_"
[ ! -e "$WORK/badnum" ] || fail "a rejected import must not leave a result set"

tap_case hostinfo_and_help
# hostinfo, help
expect_exit 2 "'--jsn'" -- "$HARNESS" hostinfo --jsn
expect_exit 0 "usage: harness report" -- "$HARNESS" report --help
expect_exit 0 "usage: harness gate" -- "$HARNESS" help gate

tap_case corrupt_line_warns_with_file_and_line
# a corrupt line is skipped with a warning naming file and line; the report goes on
cp -r "$set_" "$WORK/torn"
sed -i '3s/.*/{"variant":"baseline","workload":"kbuild","met/' "$WORK/torn/samples.jsonl"
out=$("$HARNESS" report "$WORK/torn" 2>"$WORK/torn.err") || fail "report with a torn line failed"
grep -Fq "harness: warning: $WORK/torn/samples.jsonl:3: skipped corrupt line (cut short)" "$WORK/torn.err" ||
	fail "no warning for the torn line: $(cat "$WORK/torn.err")"
echo "$out" | grep -q "19 samples, 1 corrupt lines skipped" || fail "report header does not count it: $out"

tap_case all_lines_corrupt_is_an_error
# a set whose every line is corrupt: an error, not a crash or an empty table
mkdir -p "$WORK/garbage" && printf 'garbage\n{"x":1}\n' > "$WORK/garbage/samples.jsonl"
expect_exit 1 "holds no samples \(all lines were corrupt\)" -- "$HARNESS" report "$WORK/garbage"
tap_finish
