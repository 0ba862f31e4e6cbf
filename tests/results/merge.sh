#!/bin/bash
# harness merge on hand-made result sets: host identity added to every sample, every
# host's hostinfo in meta.json, colliding rounds renumbered, and the sets that cannot be
# pooled (other kernel key, workload parameters, clock; a missing clock is "host")
# refused with one line naming the difference, exit 2, OUT left untouched.
# Usage: merge.sh HARNESS
. "$(dirname "$0")/../common/lib.sh"
HARNESS=$1

# mkset DIR HOST KEY PAGES CLOCK BOOTS [CORES [BASE]]: a set measured on HOST with kernel
# key KEY, hugetlb.pages=PAGES, clock CLOCK ("" = none), rounds 0..BOOTS-1 of two
# variants: baseline's wall in round b is BASE + b/10 (BASE default 1.0), init_on_alloc's
# 1.5 times that, so every value is distinct within a set and the means are known.
mkset() {
	local dir=$1 host=$2 key=$3 pages=$4 clock=$5 boots=$6 cores=${7:-2} base=${8:-1.0} value
	mkdir -p "$dir"
	cat > "$dir/meta.json" <<JSON
{ "host": { "hostname": "$host", "cpu": { "brand": "CPU-$cores" }, "topology": { "cores": $cores } },
  ${clock:+\"clock\": \"$clock\",}
  "accel": "tcg",
  "kernels": { "base": { "key": "$key", "release": "6.1" } },
  "variants": { "baseline": { "build": "base", "cmdline": "" } },
  "workloads": { "hugetlb": { "pages": $pages } } }
JSON
	: > "$dir/samples.jsonl"
	for b in $(seq 0 $((boots - 1))); do
		for v in baseline init_on_alloc; do
			value=$(awk -v base="$base" -v b="$b" -v v="$v" \
				'BEGIN { x = base + b / 10; printf "%.4f", v == "baseline" ? x : 1.5 * x }')
			echo "{\"variant\":\"$v\",\"workload\":\"hugetlb\",\"metric\":\"wall\",\"unit\":\"s\",\"cores\":2,\"boot\":$b,\"rep\":0,\"value\":$value,\"lower_is_better\":true}" >> "$dir/samples.jsonl"
		done
	done
}

tap_case "two hosts merge, each sample names its host"
mkset "$WORK/a" nodeA aaaa 32 "" 2
mkset "$WORK/b" nodeB aaaa 32 host 3 4 1.2
"$HARNESS" merge "$WORK/m" "$WORK/a" "$WORK/b" > "$WORK/out" 2>&1 || fail "merge failed: $(cat "$WORK/out")"
[ "$(wc -l < "$WORK/m/samples.jsonl")" = 10 ] || fail "merged set holds $(wc -l < "$WORK/m/samples.jsonl") samples, want 10"
[ "$(jq -c 'select(.host == null)' "$WORK/m/samples.jsonl" | wc -l)" = 0 ] || fail "samples without host"
[ "$(jq -c 'select(.host == "nodeB")' "$WORK/m/samples.jsonl" | wc -l)" = 6 ] || fail "nodeB's samples"
[ "$(jq -r '.hosts | map(.name) | join(",")' "$WORK/m/meta.json")" = nodeA,nodeB ] || fail "meta hosts: $(jq -c .hosts "$WORK/m/meta.json")"
jq -e '.hosts[1].hostinfo.topology.cores == 4' "$WORK/m/meta.json" > /dev/null || fail "nodeB's hostinfo kept"

tap_case "every value survives the merge, on its variant and host"
# (host, variant, value) of each input sample, sorted, against the merged set's
for s in a:nodeA b:nodeB; do
	jq -r --arg h "${s#*:}" '[$h, .variant, .value] | @tsv' "$WORK/${s%%:*}/samples.jsonl"
done | sort > "$WORK/in.tsv"
jq -r '[.host, .variant, .value] | @tsv' "$WORK/m/samples.jsonl" | sort > "$WORK/merged.tsv"
diff "$WORK/in.tsv" "$WORK/merged.tsv" > "$WORK/values.diff" ||
	fail "merged values differ from the inputs': $(head -6 "$WORK/values.diff" | tr '\n' ' ')"
# By hand: baseline 1.0 1.1 (nodeA) 1.2 1.3 1.4 (nodeB), mean 1.2; init_on_alloc 1.5 times
# each, mean 1.8; every round's ratio 1.5, so +50% paired over the 5 rounds.
"$HARNESS" report "$WORK/m" --format json > "$WORK/m.json" 2> "$WORK/err" || fail "report json: $(cat "$WORK/err")"
jq -e '[.rows[] | select(.variant == "baseline")][0] | (.mean - 1.2 | fabs) < 1e-9 and .n == 5' "$WORK/m.json" > /dev/null ||
	fail "baseline of the merged set: $(jq -c '.rows[] | select(.variant == "baseline") | {n, mean}' "$WORK/m.json"), want n 5, mean 1.2"
jq -e '[.rows[] | select(.variant == "init_on_alloc")][0] | (.mean - 1.8 | fabs) < 1e-9 and .n == 5 and
       (.slowdown_pct - 50 | fabs) < 1e-6 and .paired and .n_pairs == 5' "$WORK/m.json" > /dev/null ||
	fail "init_on_alloc of the merged set: $(jq -c '.rows[] | select(.variant == "init_on_alloc") | {n, mean, slowdown_pct, paired, n_pairs}' "$WORK/m.json"), want n 5, mean 1.8, +50% paired over 5 rounds"

tap_case "colliding rounds are renumbered, pairs stay on one host"
dups=$(jq -r '[.variant, .boot] | @tsv' "$WORK/m/samples.jsonl" | sort | uniq -d | wc -l)
[ "$dups" = 0 ] || fail "$dups (variant, boot) pairs repeat across hosts"
for b in $(jq -r '.boot' "$WORK/m/samples.jsonl" | sort -u); do
	n=$(jq -r "select(.boot == $b) | .host" "$WORK/m/samples.jsonl" | sort -u | wc -l)
	[ "$n" = 1 ] || fail "round $b spans $n hosts"
done
jq -e '.merged_from[1].boot_offset == 2' "$WORK/m/meta.json" > /dev/null || fail "boot_offset of the second set"

tap_case "the report shows hosts and warns that they differ"
"$HARNESS" report "$WORK/m" > "$WORK/rep" 2>&1 || fail "report failed: $(tail -3 "$WORK/rep")"
grep -q "warning: the hosts differ" "$WORK/rep" || fail "no warning on differing core counts"
grep -q "host nodeB" "$WORK/rep" || fail "no per-host breakdown"

# refused MSG SETS...: exit 2, one line naming MSG, OUT not created
refused() {
	local msg=$1 out=$WORK/refused-$RANDOM
	shift
	"$HARNESS" merge "$out" "$@" > "$WORK/err" 2>&1
	local rc=$?
	[ $rc = 2 ] || fail "merge of $* exits $rc, want 2"
	[ "$(wc -l < "$WORK/err")" = 1 ] || fail "not one line: $(cat "$WORK/err")"
	grep -q -- "$msg" "$WORK/err" || fail "error does not name '$msg': $(cat "$WORK/err")"
	[ ! -e "$out/samples.jsonl" ] || fail "a refused merge wrote samples"
}

tap_case "other kernel cache key refused"
mkset "$WORK/k" nodeC bbbb 32 "" 1
refused "kernel 'base'" "$WORK/a" "$WORK/k"

tap_case "other workload parameters refused"
mkset "$WORK/p" nodeC aaaa 64 "" 1
refused "workload 'hugetlb'" "$WORK/a" "$WORK/p"

tap_case "other clock refused (missing clock is host)"
mkset "$WORK/c" nodeC aaaa 32 tsc 1
refused "clock ('host' vs 'tsc')" "$WORK/a" "$WORK/c"

tap_case "halves by workload pool across clocks; one workload under two clocks is refused"
# clockset DIR CLOCK-JSON: set a's samples with meta.json "clock" as run writes it.
clockset() {
	mkset "$1" nodeD aaaa 32 "" 1
	jq --argjson c "$2" '. + {clock: $c}' "$1/meta.json" > "$1/m" && mv "$1/m" "$1/meta.json"
}
clockset "$WORK/ci" '{"name":"icount","asked":"auto","workloads":{"hugetlb":{"name":"icount"}}}'
clockset "$WORK/ch" '{"name":"host","asked":"auto","workloads":{"kbuild":{"name":"host"}}}'
clockset "$WORK/cx" '{"name":"host","asked":"auto","workloads":{"hugetlb":{"name":"host"}}}'
"$HARNESS" merge "$WORK/mc" "$WORK/ci" "$WORK/ch" > "$WORK/out" 2>&1 ||
	fail "halves of other workloads refused: $(cat "$WORK/out")"
refused "the clock of workload 'hugetlb' ('icount' vs 'host')" "$WORK/ci" "$WORK/cx"
jq -e '.clock.workloads | has("hugetlb") and has("kbuild")' "$WORK/mc/meta.json" > /dev/null ||
	fail "merged clock lists one half's workloads: $(jq -c .clock "$WORK/mc/meta.json")"

tap_case "halves with other kernels and variants: meta.json lists every one"
mkset "$WORK/ka" nodeE aaaa 32 "" 1
mkset "$WORK/kb" nodeE aaaa 32 "" 1
jq '.kernels.kasan = {key: "kkkk", release: "6.1-kasan"} | .variants.kasan = {build: "kasan", cmdline: ""}
    | .workloads = {test_vmalloc: {}}' "$WORK/kb/meta.json" > "$WORK/kb/m" && mv "$WORK/kb/m" "$WORK/kb/meta.json"
"$HARNESS" merge "$WORK/mk" "$WORK/ka" "$WORK/kb" > "$WORK/out" 2>&1 || fail "halves: $(cat "$WORK/out")"
jq -e '(.kernels | has("base") and has("kasan")) and (.variants | has("kasan")) and
       (.workloads | has("hugetlb") and has("test_vmalloc"))' "$WORK/mk/meta.json" > /dev/null ||
	fail "merged meta lacks the second half's definitions: $(jq -c '{kernels, variants, workloads}' "$WORK/mk/meta.json")"

tap_case "kernel lines: each line's kernels compared, other lines' may differ"
# lineset DIR HOST LINE KEY: a one-line set of another line, kernels listed per line.
lineset() {
	mkset "$1" "$2" "$4" 32 "" 1
	jq --arg l "$3" --arg k "$4" '.plan = {kernels: [$l]} | .kernels_by_line = {($l): {base: {key: $k}}}' \
		"$1/meta.json" > "$1/m" && mv "$1/m" "$1/meta.json"
}
lineset "$WORK/l61" nodeA 6.1 aaaa
lineset "$WORK/l612" nodeB 6.12 cccc
lineset "$WORK/l612b" nodeC 6.12 dddd
"$HARNESS" merge "$WORK/ml" "$WORK/l61" "$WORK/l612" > "$WORK/out" 2>&1 || fail "a 6.1 and a 6.12 set: $(cat "$WORK/out")"
jq -e '.kernels_by_line | has("6.1") and has("6.12")' "$WORK/ml/meta.json" > /dev/null ||
	fail "merged kernels_by_line lacks a line: $(jq -c .kernels_by_line "$WORK/ml/meta.json")"
refused "kernel 'base' on line 6.12 (cccc vs dddd)" "$WORK/l612" "$WORK/l612b"

tap_case "OUT holding samples, a missing set and a repeated set refused"
"$HARNESS" merge "$WORK/m" "$WORK/a" > "$WORK/err" 2>&1
[ $? = 2 ] || fail "merge into a set with samples must exit 2"
"$HARNESS" merge "$WORK/n" "$WORK/nosuch" > "$WORK/err" 2>&1
[ $? = 2 ] || fail "merge of a missing set must exit 2"
"$HARNESS" merge "$WORK/n" "$WORK/a" "$WORK/a/" > "$WORK/err" 2>&1
[ $? = 2 ] || fail "a set given twice must exit 2"
grep -q "given twice" "$WORK/err" || fail "the repeated set is not named: $(cat "$WORK/err")"
tap_finish
