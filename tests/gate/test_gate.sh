#!/bin/bash
# The regression gate on made-up result sets: one variant 10% slower with small noise is
# a regression (exit 1); 0.5% slower is tolerated (exit 0); 10% slower but noisy with n=2
# is not significant (exit 0). The reference works as a set and as a JSON report, and
# --junit writes one testcase per comparison. Usage: test_gate.sh HARNESS DATA_DIR
. "$(dirname "$0")/../common/cli-lib.sh"

# make_set NAME FACTOR NOISE N: hackbench time for baseline (10 s) and init_on_free
# (10.8 s x FACTOR); NOISE scales a fixed pattern of deviations, so nothing is random.
make_set() {
	awk -v f="$2" -v noise="$3" -v n="$4" 'BEGIN {
		split("1 -1.2 0.4 -0.3 1.1 -0.8 0.2 -0.4", dev, " ")
		print "variant,workload,metric,unit,cores,rep,value"
		for (i = 1; i <= n; i++) {
			printf "baseline,hackbench,time,s,2,%d,%.6f\n", i, 10 * (1 + noise * dev[i])
			printf "init_on_free,hackbench,time,s,2,%d,%.6f\n", i, 10.8 * f * (1 + noise * dev[9 - i])
		}
	}' > "$WORK/$1.csv"
	import "$WORK/$1.csv" "$WORK/$1"
}

make_set ref 1 0.003 8
make_set slow10 1.10 0.003 8
make_set slow05 1.005 0.003 8
make_set noisy10 1.10 0.30 2

gate() { # NAME [args]: run the gate, keep its output, return its exit status
	local name=$1
	shift
	"$HARNESS" gate "$WORK/$name" --against "$WORK/ref" "$@" > "$WORK/$name.out" 2>&1
}

tap_case slow10_is_regression
gate slow10 --junit "$WORK/slow10.xml"
[ $? = 1 ] || fail "10% slower with small noise must exit 1: $(cat "$WORK/slow10.out")"
grep -Eq '^regression +hackbench time cores=2 init_on_free: \+10\.00% \(p<0\.0001; ' "$WORK/slow10.out" ||
	fail "regression line: $(cat "$WORK/slow10.out")"
grep -Eq '^ok +hackbench time cores=2 baseline: \+0\.00% \(p=1\.00; ' "$WORK/slow10.out" ||
	fail "unchanged baseline is ok"
grep -q '^gate: 2 compared: 1 regression, 0 improvements, 1 ok, 0 not comparable' "$WORK/slow10.out" ||
	fail "summary line"
cp "$WORK/slow10.out" "$WORK/slow10.first"

tap_case slow05_tolerated
gate slow05
[ $? = 0 ] || fail "0.5% slower must exit 0: $(cat "$WORK/slow05.out")"
grep -Eq '^ok +hackbench time cores=2 init_on_free: \+0\.50% \(p' "$WORK/slow05.out" || fail "0.5% line"

tap_case noisy10_not_significant
gate noisy10
[ $? = 0 ] || fail "noisy 10% with n=2 must exit 0: $(cat "$WORK/noisy10.out")"
grep -Eq '^ok +hackbench time cores=2 init_on_free: \+[0-9.]+% \(p=0\.[1-9]' "$WORK/noisy10.out" ||
	fail "noisy line is not significant: $(cat "$WORK/noisy10.out")"

tap_case alpha_and_limits
# a tighter alpha or a looser limit lets the 10% through; a tighter limit catches 0.5%
gate slow10 --max-slowdown 15 || fail "10% under a 15% limit must pass"
gate slow05 --max-slowdown 0.1
[ $? = 1 ] || fail "0.5% over a 0.1% limit (significant with this noise) must fail: $(cat "$WORK/slow05.out")"

tap_case json_reference
# the reference as a JSON report gives the same verdict
"$HARNESS" report "$WORK/ref" --format json > "$WORK/ref.json" || fail "report json"
"$HARNESS" gate "$WORK/slow10" --against "$WORK/ref.json" > "$WORK/json.out" 2>&1
[ $? = 1 ] || fail "JSON reference: $(cat "$WORK/json.out")"
diff <(sed 's/;.*//' "$WORK/slow10.first") <(sed 's/;.*//' "$WORK/json.out") > /dev/null ||
	fail "a JSON reference must judge like the set: $(diff "$WORK/slow10.first" "$WORK/json.out")"

tap_case n1_not_comparable
# n=1 on one side: not comparable, and not a failure
make_set single 1.10 0 1
gate single
[ $? = 0 ] || fail "n=1 must not fail the gate"
grep -Eq '^not comparable +hackbench time cores=2 init_on_free: \+10\.00% \(needs n >= 2' "$WORK/single.out" ||
	fail "not comparable line: $(cat "$WORK/single.out")"

tap_case higher_is_better
# higher-is-better metrics: a drop is the regression
printf 'variant,workload,metric,value,lower_is_better\n' > "$WORK/tput.csv"
for v in 100 101 99 100.5; do echo "base,io,ops,$v,false" >> "$WORK/tput.csv"; done
printf 'variant,workload,metric,value,lower_is_better\n' > "$WORK/tput-drop.csv"
for v in 90 91 89 90.5; do echo "base,io,ops,$v,false" >> "$WORK/tput-drop.csv"; done
import "$WORK/tput.csv" "$WORK/tput"
import "$WORK/tput-drop.csv" "$WORK/tput-drop"
"$HARNESS" gate "$WORK/tput-drop" --against "$WORK/tput" > "$WORK/tput.out" 2>&1
[ $? = 1 ] || fail "a 10% throughput drop is a regression: $(cat "$WORK/tput.out")"
"$HARNESS" gate "$WORK/tput" --against "$WORK/tput-drop" > "$WORK/tput2.out" 2>&1 || fail "a rise is not"
grep -q '^improvement' "$WORK/tput2.out" || fail "a throughput rise is an improvement"

tap_case relative
# --relative: a reference from a host twice as slow, with the same 8% cost of init_on_free,
# is ok; the same host with that cost grown to 18.8% is a regression; the baseline itself is
# not judged (it is the yardstick)
make_rel() { # NAME BASE COST [NOISE]: baseline BASE s, init_on_free BASE*COST s, fixed noise
	awk -v b="$2" -v c="$3" -v noise="${4:-0.004}" 'BEGIN {
		split("1 -1.2 0.4 -0.3 1.1 -0.8", dev, " ")
		print "variant,workload,metric,unit,cores,rep,value"
		for (i = 1; i <= 6; i++) {
			printf "baseline,hugetlb,wall,s,2,%d,%.6f\n", i, b * (1 + noise * dev[i])
			printf "init_on_free,hugetlb,wall,s,2,%d,%.6f\n", i, b * c * (1 + noise * dev[7 - i])
		}
	}' > "$WORK/$1.csv"
	import "$WORK/$1.csv" "$WORK/$1"
}
make_rel rel-ref 20 1.08
make_rel rel-same 10 1.08
make_rel rel-worse 10 1.188
"$HARNESS" gate "$WORK/rel-same" --against "$WORK/rel-ref" --relative baseline > "$WORK/rel-same.out" 2>&1 ||
	fail "same cost on a faster host must pass --relative: $(cat "$WORK/rel-same.out")"
grep -Eq '^ok +hugetlb wall cores=2 init_on_free: \+0\.00% cost \(p=1\.00; 1\.08x baseline vs 1\.08x in the reference' "$WORK/rel-same.out" ||
	fail "relative ok line: $(cat "$WORK/rel-same.out")"
grep -q 'baseline:' "$WORK/rel-same.out" && fail "the baseline must not be judged in --relative"
"$HARNESS" gate "$WORK/rel-same" --against "$WORK/rel-ref" > "$WORK/rel-abs.out" 2>&1
[ $? = 0 ] || fail "absolute mode against a twice-slower host sees only improvements: $(cat "$WORK/rel-abs.out")"
[ "$(grep -c '^improvement' "$WORK/rel-abs.out")" = 2 ] || fail "absolute mode: two improvements expected"
"$HARNESS" gate "$WORK/rel-worse" --against "$WORK/rel-ref" --relative baseline > "$WORK/rel-worse.out" 2>&1
[ $? = 1 ] || fail "a cost grown from 8% to 18.8% must fail --relative: $(cat "$WORK/rel-worse.out")"
grep -Eq '^regression +hugetlb wall cores=2 init_on_free: \+10\.00% cost \(p<0\.0001; 1\.188x baseline vs 1\.08x' "$WORK/rel-worse.out" ||
	fail "relative regression line: $(cat "$WORK/rel-worse.out")"
# the same +10% cost change within noise: of the run (15% spread), or of the reference
# alone (the change's error holds both sides'): ok, not a regression
make_rel rel-noisy-worse 10 1.188 0.15
make_rel rel-noisy-ref 20 1.08 0.15
"$HARNESS" gate "$WORK/rel-noisy-worse" --against "$WORK/rel-ref" --relative baseline > "$WORK/rel-nw.out" 2>&1 ||
	fail "a cost change within the run's noise must pass --relative: $(cat "$WORK/rel-nw.out")"
"$HARNESS" gate "$WORK/rel-worse" --against "$WORK/rel-noisy-ref" --relative baseline > "$WORK/rel-nr.out" 2>&1 ||
	fail "a cost change within the reference's noise must pass --relative: $(cat "$WORK/rel-nr.out")"
grep -Eq '^ok +hugetlb wall cores=2 init_on_free: \+10\.00% cost \(p=0\.[0-9]+;' "$WORK/rel-nr.out" ||
	fail "relative ok line within the reference's noise: $(cat "$WORK/rel-nr.out")"
# higher-is-better: throughput 8% below the baseline in the reference, 17% in the run is a
# cost that grew (a regression); the other way round it shrank (an improvement)
make_tput() { # NAME RATIO: baseline 100 ops, init_on_free 100*RATIO ops, small fixed noise
	awk -v r="$2" 'BEGIN {
		split("1 -1.2 0.4 -0.3 1.1 -0.8", dev, " ")
		print "variant,workload,metric,unit,cores,rep,value,lower_is_better"
		for (i = 1; i <= 6; i++) {
			printf "baseline,io,ops,op/s,2,%d,%.6f,false\n", i, 100 * (1 + 0.004 * dev[i])
			printf "init_on_free,io,ops,op/s,2,%d,%.6f,false\n", i, 100 * r * (1 + 0.004 * dev[7 - i])
		}
	}' > "$WORK/$1.csv"
	import "$WORK/$1.csv" "$WORK/$1"
}
make_tput tput-rel-ref 0.92
make_tput tput-rel-worse 0.83
"$HARNESS" gate "$WORK/tput-rel-worse" --against "$WORK/tput-rel-ref" --relative baseline > "$WORK/tr.out" 2>&1
[ $? = 1 ] || fail "throughput's cost grown from 8% to 17% must fail --relative: $(cat "$WORK/tr.out")"
grep -Eq '^regression +io ops cores=2 init_on_free: \+10\.84% cost' "$WORK/tr.out" ||
	fail "relative higher-is-better regression line: $(cat "$WORK/tr.out")"
"$HARNESS" gate "$WORK/tput-rel-ref" --against "$WORK/tput-rel-worse" --relative baseline > "$WORK/tr2.out" 2>&1 ||
	fail "throughput's cost shrunk must pass --relative: $(cat "$WORK/tr2.out")"
grep -q '^improvement' "$WORK/tr2.out" || fail "a shrunk throughput cost is an improvement: $(cat "$WORK/tr2.out")"
"$HARNESS" gate "$WORK/rel-same" --against "$WORK/rel-ref" --relative nosuch > "$WORK/rel-bad.out" 2>&1
[ $? = 2 ] || fail "--relative with a variant the run lacks must exit 2: $(cat "$WORK/rel-bad.out")"
grep -q "nosuch" "$WORK/rel-bad.out" || fail "the bad --relative value is named"

tap_case clocks_never_mixed
# an icount run against a host reference (and back): one line naming both clocks, exit 2;
# icount against icount compares absolutely, each line with its 95% CI
mkdir -p "$WORK/icount-ref" "$WORK/icount-slow"
sed 's/}$/,"clock":"icount"}/' "$WORK/ref/samples.jsonl" > "$WORK/icount-ref/samples.jsonl"
sed 's/}$/,"clock":"icount"}/' "$WORK/slow10/samples.jsonl" > "$WORK/icount-slow/samples.jsonl"
echo '{"clock":{"name":"icount","shift":0}}' > "$WORK/icount-ref/meta.json"
expect_exit 2 'run was measured with the icount clock, the reference with the host clock' -- \
	"$HARNESS" gate "$WORK/icount-slow" --against "$WORK/ref"
expect_exit 2 'run was measured with the host clock, the reference with the icount clock' -- \
	"$HARNESS" gate "$WORK/slow10" --against "$WORK/icount-ref" --relative baseline
"$HARNESS" gate "$WORK/icount-slow" --against "$WORK/icount-ref" --max-slowdown 5 > "$WORK/icount.out" 2>&1
[ $? = 1 ] || fail "icount 10% slower against icount, absolute, limit 5%: exit 1: $(cat "$WORK/icount.out")"
grep -Eq '^regression +hackbench time cores=2 clock=icount init_on_free: \+10\.00% \(p<0\.0001; .*; 95% CI \[\+9\.[0-9]+%, \+10\.[0-9]+%\]\)$' \
	"$WORK/icount.out" || fail "icount regression line with its CI: $(cat "$WORK/icount.out")"

tap_case model_clock_never_mixed
# a modelled run (--clock model) against an icount reference and back: refused like any two
# clocks, each side named; model against model compares
mkdir -p "$WORK/model-ref" "$WORK/model-slow"
sed 's/}$/,"clock":"model"}/' "$WORK/ref/samples.jsonl" > "$WORK/model-ref/samples.jsonl"
sed 's/}$/,"clock":"model"}/' "$WORK/slow10/samples.jsonl" > "$WORK/model-slow/samples.jsonl"
expect_exit 2 'run was measured with the model clock, the reference with the icount clock' -- \
	"$HARNESS" gate "$WORK/model-slow" --against "$WORK/icount-ref"
expect_exit 2 'run was measured with the icount clock, the reference with the model clock' -- \
	"$HARNESS" gate "$WORK/icount-slow" --against "$WORK/model-ref" --relative baseline
"$HARNESS" gate "$WORK/model-slow" --against "$WORK/model-ref" --max-slowdown 5 > "$WORK/model.out" 2>&1
[ $? = 1 ] || fail "model 10% slower against model, limit 5%: exit 1: $(cat "$WORK/model.out")"
grep -q 'clock=model init_on_free' "$WORK/model.out" || fail "model regression line: $(cat "$WORK/model.out")"

tap_case junit
# JUnit: one testcase per comparison, the regression as a failure
[ "$(grep -c '<testcase ' "$WORK/slow10.xml")" = 2 ] || fail "two testcases"
grep -q 'tests="2" failures="1"' "$WORK/slow10.xml" || fail "suite counts"
grep -q '<failure type="regression" message="slowdown +10.00% vs reference (p&lt;0.0001' "$WORK/slow10.xml" ||
	fail "failure element: $(cat "$WORK/slow10.xml")"

tap_case junit_well_formed
if command -v xmllint > /dev/null; then
	xmllint --noout "$WORK/slow10.xml" || fail "JUnit XML is not well-formed"
else
	tap_skip "xmllint is not installed (ci/packages.txt: libxml2-utils)"
fi
tap_finish
