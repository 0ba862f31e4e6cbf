#!/usr/bin/env bash
# `harness run --dry-run`: the plan is printed, nothing is booted or written, exit 0;
# bad values exit 2 with one line naming them; --resume --dry-run shows which cells the
# journal already confirms. Usage: dry_run.sh HARNESS (TAP output).
. "$(dirname "$0")/../common/lib.sh"
harness=$1
set_dir=$WORK/set

tap_case dry_run_prints_the_plan
out=$("$harness" run --dry-run --variants baseline,init_on_alloc --workloads hackbench --cores 2 \
	--boots 2 --out "$set_dir" 2>"$WORK/err")
rc=$?
[ "$rc" -eq 0 ] || fail "dry run exited $rc: $(cat "$WORK/err")"
grep -q '^plan: 1 kernel line x 2 variants x 1 workloads x 1 vCPU counts x 2 boots = 4 cells, 1 repetition each, interleaved order (shuffled: --seed 1)' <<<"$out" ||
	fail "no plan line in: $out"
[ "$(grep -c 'hackbench .* 2 vCPUs  boot [01]  to run' <<<"$out")" -eq 4 ] || fail "not 4 cells to run: $out"
grep -q '^estimate: 4 cells to run' <<<"$out" || fail "no estimate line: $out"

tap_case dry_run_boots_and_writes_nothing
[ ! -e "$set_dir" ] || fail "dry run created $set_dir"
grep -q 'accel:' "$WORK/err" && fail "dry run resolved an accelerator (it booted?)"

tap_case dry_run_order_repeats_with_seed
a=$("$harness" run --dry-run --variants baseline,init_on_alloc,init_on_free --workloads hackbench \
	--cores 2 --boots 4 --seed 9 --out "$set_dir" 2>/dev/null)
b=$("$harness" run --dry-run --variants baseline,init_on_alloc,init_on_free --workloads hackbench \
	--cores 2 --boots 4 --seed 9 --out "$set_dir" 2>/dev/null)
[ -n "$a" ] && [ "$a" = "$b" ] || fail "--seed 9 gave two orders"

# A bad value: exit 2, one line on stderr that names it, nothing on stdout.
bad() {
	local want=$1 out rc
	shift
	out=$("$harness" run --dry-run --workloads hackbench --out "$set_dir" "$@" 2>"$WORK/err")
	rc=$?
	[ "$rc" -eq 2 ] || fail "$*: exit $rc, want 2"
	[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "$*: stderr is not one line: $(cat "$WORK/err")"
	grep -q -- "$want" "$WORK/err" || fail "$*: stderr does not name '$want': $(cat "$WORK/err")"
	[ -z "$out" ] || fail "$*: printed a plan: $out"
}

tap_case dry_run_bad_values_exit_2
bad nosuch --variants baseline,nosuch
bad 9999 --cores 9999
bad 0 --boots 0
bad x --reps x
bad baseline --variants baseline,baseline
bad nosuch --workloads nosuch
bad "--cores" --cores 2,2

# vCPU counts are filtered to the host's physical cores (at most the CPUs online) under the
# host clock, unless --overcommit; under icount every vCPU runs in one host thread, so any
# count is accepted and the plan says why.
tap_case dry_run_cores_fit_the_host
over=$(($(nproc --all) + 1))
bad "$over" --cores "$over" --clock host
"$harness" run --dry-run --workloads hackbench --variants baseline --cores "$over" --overcommit \
	--clock host --out "$set_dir" >/dev/null 2>"$WORK/err" ||
	fail "--cores $over --overcommit: $(cat "$WORK/err")"

tap_case dry_run_icount_takes_any_vcpu_count
mkdir -m 700 "$WORK/nopace" # no pace.json: workload.ini's seconds alone
out=$(HARDBENCH_CACHE=$WORK/nopace "$harness" run --dry-run --workloads hackbench --variants baseline --cores 2,6,12,24,$over \
	--clock icount --out "$set_dir" 2>"$WORK/err") || fail "--cores 2,6,12,24 under icount: $(cat "$WORK/err")"
grep -q "^vCPUs: up to $((over > 24 ? over : 24)) on this .*-core host: icount runs every vCPU of a guest in one host thread" \
	<<<"$out" || fail "no vCPUs line saying why: $out"
grep -q "overcommit" "$WORK/err" && fail "an overcommit warning under icount: $(cat "$WORK/err")"
# The estimate grows with the vCPUs as measured (run/estimate.c: 2.51x at 24 vCPUs).
s2=$(grep -m1 'hackbench .*  2 vCPUs' <<<"$out" | sed 's/.*~//')
s24=$(grep -m1 'hackbench .* 24 vCPUs' <<<"$out" | sed 's/.*~//')
secs() { awk '{ t = 0; n = split($0, p, /[hms]/); v = $0; if (v ~ /h/) { t += p[1] * 3600; v = substr(v, index(v, "h") + 1) } if (v ~ /m/) { t += substr(v, 1, index(v, "m") - 1) * 60; v = substr(v, index(v, "m") + 1) } t += v + 0; print t }' <<<"$1"; }
awk -v a="$(secs "$s2")" -v b="$(secs "$s24")" 'BEGIN { exit !(a > 0 && b / a > 2.4 && b / a < 2.6) }' ||
	fail "the 24-vCPU cell ($s24) is not 2.51x the 2-vCPU one ($s2)"

tap_case dry_run_resume_shows_done_cells
mkdir -p "$set_dir"
cat >"$set_dir/meta.json" <<'JSON'
{ "plan": { "variants": ["baseline", "init_on_alloc"], "workloads": ["hackbench"], "params": [],
  "cores": [2], "reps": 2, "boots": 2, "order": "interleaved", "seed": 1, "mem_mib": 0 } }
JSON
cat >"$set_dir/cells.jsonl" <<'JSON'
{"cell":"baseline/hackbench/2/0","status":"ok","reps_done":[0,1],"seconds":30}
{"cell":"init_on_alloc/hackbench/2/1","status":"failed","reps_done":[1],"reason":"x"}
{"cell":"init_on_alloc/hackbench/2/0","status":"ok","reps_d
JSON
out=$("$harness" run --resume "$set_dir" --dry-run 2>"$WORK/err")
rc=$?
[ "$rc" -eq 0 ] || fail "resume dry run exited $rc: $(cat "$WORK/err")"
grep -q 'baseline .*hackbench .* boot 0  done' <<<"$out" || fail "baseline boot 0 not done: $out"
[ "$(grep -c 'boot [01]  to run' <<<"$out")" -eq 3 ] || fail "not 3 cells to run: $out"
grep -q '^estimate: 3 cells to run' <<<"$out" || fail "no estimate of 3 cells: $out"
[ ! -e "$set_dir/.run.lock" ] || fail "resume dry run locked the set"

# Kernel lines: each variant on each line, the line in every cell row; the 6.12 cells
# resume by their own key ("6.12:variant/...") and the 6.1 ones by the old one.
tap_case dry_run_kernel_lines
out=$("$harness" run --dry-run --kernels 6.1,6.12 --variants baseline,init_on_alloc --workloads hackbench \
	--cores 2 --boots 2 --out "$WORK/lines" 2>"$WORK/err") || fail "lines dry run: $(cat "$WORK/err")"
grep -q '^plan: 2 kernel lines x 2 variants x 1 workloads x 1 vCPU counts x 2 boots = 8 cells' <<<"$out" ||
	fail "no lines plan line: $out"
[ "$(grep -c ' 6\.12  *\(baseline\|init_on_alloc\) .*hackbench' <<<"$out")" -eq 4 ] || fail "not 4 cells of 6.12: $out"
[ "$(grep -c ' 6\.1  *\(baseline\|init_on_alloc\) .*hackbench' <<<"$out")" -eq 4 ] || fail "not 4 cells of 6.1: $out"
"$harness" run --dry-run --kernels 6.12 --variants baseline,mseal-off --workloads hackbench --cores 2 \
	--out "$WORK/lines" >/dev/null 2>"$WORK/err" || fail "mseal-off on 6.12: $(cat "$WORK/err")"
bad "no patch series for kernel line 6.1" --variants baseline,mseal-off
bad "variant 'mseal-off' on kernel line 6.1" --kernels 6.12,6.1 --variants mseal-off
bad "unknown kernel line '7.0' (accepted: 6.1, 6.12)" --kernels 6.1,7.0
bad "'6.12' appears twice" --kernels 6.12,6.12
bad "unknown kernel line '7.0'" --source 7.0=/usr/src
bad "'/usr/src' is for kernel line 6.1, which this command does not build" --kernels 6.12 --source /usr/src
mkdir -p "$WORK/lset"
cat >"$WORK/lset/meta.json" <<'JSON'
{ "plan": { "kernels": ["6.1", "6.12"], "variants": ["baseline"], "workloads": ["hackbench"],
  "params": [], "cores": [2], "reps": 1, "boots": 2, "order": "interleaved", "seed": 1, "mem_mib": 0 } }
JSON
cat >"$WORK/lset/cells.jsonl" <<'JSON'
{"cell":"baseline/hackbench/2/0","status":"ok","reps_done":[0],"seconds":30}
{"cell":"6.12:baseline/hackbench/2/1","status":"ok","reps_done":[0],"seconds":30}
JSON
out=$("$harness" run --resume "$WORK/lset" --dry-run 2>"$WORK/err") || fail "lines resume: $(cat "$WORK/err")"
grep -q ' 6\.1  *baseline .* boot 0  done' <<<"$out" && grep -q ' 6\.12 *baseline .* boot 1  done' <<<"$out" ||
	fail "resumed cells of each line not done: $out"
[ "$(grep -c 'boot [01]  to run' <<<"$out")" -eq 2 ] || fail "not 2 cells to run: $out"

# --clock auto, run's default: icount under TCG, host under KVM (forced here: nothing
# boots in a dry run), host for a workload that is not deterministic under icount.
tap_case dry_run_clock_auto_follows_the_accel
out=$("$harness" run --dry-run --accel tcg --workloads hackbench --out "$set_dir" 2>"$WORK/err") ||
	fail "--accel tcg: $(cat "$WORK/err")"
grep -qx 'clock: icount (auto: TCG)' <<<"$out" || fail "--accel tcg: no icount clock line: $out"
out=$("$harness" run --dry-run --accel kvm --workloads hackbench --out "$set_dir" 2>"$WORK/err") ||
	fail "--accel kvm: $(cat "$WORK/err")"
grep -qx 'clock: host (auto: KVM)' <<<"$out" || fail "--accel kvm: no host clock line: $out"
# With no --accel the dry run takes the probe's cached answer or TCG; auto follows it.
out=$("$harness" run --dry-run --workloads hackbench --out "$set_dir" 2>"$WORK/err")
accel=$(sed -n 's/^accel: \([a-z]*\) .*/\1/p' <<<"$out")
case $accel in
tcg) want='clock: icount (auto: TCG)' ;;
kvm) want='clock: host (auto: KVM)' ;;
*) fail "no accel line: $out" ;;
esac
grep -qx "$want" <<<"$out" || fail "accel $accel: no '$want' line: $out"
grep -q '^estimate: ' <<<"$out" || fail "no estimate line: $out"

tap_case dry_run_clock_auto_per_workload
# A source tree whose kbuild says it is not deterministic under icount (no built-in
# workload does any more): the rest links to the real one.
fx=$WORK/fxsrc
mkdir -p "$fx/workloads"
for e in "$HARDBENCH_SOURCE_DIR"/*; do [ "${e##*/}" = workloads ] || ln -s "$e" "$fx/"; done
for e in "$HARDBENCH_SOURCE_DIR"/workloads/*; do [ "${e##*/}" = kbuild ] || ln -s "$e" "$fx/workloads/"; done
cp -r "$HARDBENCH_SOURCE_DIR/workloads/kbuild" "$fx/workloads/"
sed -i 's/^\[workload\]$/&\nicount_not_deterministic = waits on I\/O/' "$fx/workloads/kbuild/workload.ini"
out=$(HARDBENCH_SOURCE_DIR=$fx "$harness" run --dry-run --accel tcg --workloads hackbench,kbuild \
	--out "$set_dir" 2>"$WORK/err") || fail "hackbench,kbuild: $(cat "$WORK/err")"
grep -qx 'clock: icount (auto: TCG)' <<<"$out" || fail "no run-wide icount line: $out"
grep -qx 'clock: host for kbuild (auto: kbuild is not deterministic under icount: waits on I/O)' <<<"$out" ||
	fail "kbuild not on the host clock with its reason: $out"
out=$(HARDBENCH_SOURCE_DIR=$fx "$harness" run --dry-run --accel tcg --clock icount --workloads kbuild \
	--out "$set_dir" 2>"$WORK/err") || fail "--clock icount: $(cat "$WORK/err")"
grep -qx 'clock: icount (asked for (--clock icount))' <<<"$out" || fail "--clock icount not kept: $out"
grep -q '^clock: note: kbuild is not deterministic under icount' <<<"$out" || fail "no caveat note: $out"
out=$("$harness" run --dry-run --clock host --workloads hackbench --out "$set_dir" 2>"$WORK/err") ||
	fail "--clock host: $(cat "$WORK/err")"
grep -qx 'clock: host (asked for (--clock host))' <<<"$out" || fail "--clock host not kept: $out"
bad "--clock icount" --clock icount --accel kvm
bad "'tsc'" --clock tsc
# --clock model: icount with the model's plugin; TCG only, refused under KVM in one line
bad "--clock model: needs --accel tcg" --clock model --accel kvm
out=$("$harness" run --dry-run --clock model --workloads hackbench --out "$set_dir" 2>"$WORK/err") ||
	fail "--clock model: $(cat "$WORK/err")"
grep -qx 'clock: model (asked for (--clock model))' <<<"$out" || fail "--clock model not kept: $out"
grep -q '^accel: tcg (--clock model (the instruction counter is TCG-only))' <<<"$out" ||
	fail "--clock model did not force TCG: $out"

# A resumed set keeps the clock it asked for: auto resolves again; a set from before
# --clock auto that names no clock ran under the host clock.
tap_case dry_run_resume_keeps_the_clock
mkdir -p "$WORK/cset"
cat >"$WORK/cset/meta.json" <<'JSON'
{ "plan": { "variants": ["baseline"], "workloads": ["hackbench"], "params": [],
  "cores": [2], "reps": 1, "boots": 1, "order": "interleaved", "seed": 1, "mem_mib": 0 },
  "clock": { "name": "icount", "asked": "auto", "why": "auto: TCG" } }
JSON
out=$("$harness" run --resume "$WORK/cset" --dry-run --accel tcg 2>"$WORK/err") || fail "resume: $(cat "$WORK/err")"
grep -qx 'clock: icount (auto: TCG)' <<<"$out" || fail "resumed auto set: $out"
out=$("$harness" run --resume "$set_dir" --dry-run 2>"$WORK/err") || fail "resume: $(cat "$WORK/err")"
grep -qx 'clock: host (asked for (--clock host))' <<<"$out" || fail "resumed set without a clock: $out"
"$harness" run --resume "$WORK/cset" --dry-run --clock host >/dev/null 2>"$WORK/err" &&
	fail "--resume with --clock accepted"
grep -q -- '--clock' "$WORK/err" || fail "the error does not name --clock: $(cat "$WORK/err")"

tap_case dry_run_resume_refuses_plan_options
"$harness" run --resume "$set_dir" --dry-run --cores 2 >/dev/null 2>"$WORK/err"
rc=$?
[ "$rc" -eq 2 ] || fail "--resume with --cores: exit $rc, want 2"
grep -q -- '--cores' "$WORK/err" || fail "the error does not name --cores: $(cat "$WORK/err")"

# The main job (no --variants): each workload's cells are the variants its workload.ini
# default_variants names, on its default_kernel, at its icount_cores with its icount_params
# (a --param of the same key wins); --variants gives the
# cross product back; a resumed main job plans the same cells (meta.json plan.keep).
tap_case dry_run_main_job_runs_each_workloads_seed_cells
ini_value() {
	[ -f "$HARDBENCH_SOURCE_DIR/workloads/$1/workload.ini" ] || return 0
	sed -n "s/^$2 = //p" "$HARDBENCH_SOURCE_DIR/workloads/$1/workload.ini"
}
out=$("$harness" run --dry-run --accel tcg --out "$set_dir" 2>"$WORK/err") || fail "main job: $(cat "$WORK/err")"
grep -q '^plan: the main job, each workload.s seed cells' <<<"$out" || fail "no main-job plan line: $out"
for w in $(ls "$HARDBENCH_SOURCE_DIR/workloads"); do
	[ -n "$(ini_value "$w" default_order)" ] || continue
	want=$(ini_value "$w" default_variants | tr , '\n' | sort)
	[ -n "$want" ] || continue
	line=$(ini_value "$w" default_kernel)
	got=$(awk -v w="$w" '$4 == w { print $3 }' <<<"$out" | sort -u)
	[ "$got" = "$want" ] || fail "$w: variants $(echo $got), want $(echo $want)"
	lines=$(awk -v w="$w" '$4 == w { print $2 }' <<<"$out" | sort -u)
	[ "$lines" = "${line:-6.1}" ] || fail "$w: kernel lines $(echo $lines), want ${line:-6.1}"
	cores=$(ini_value "$w" icount_cores)
	if [ -n "$cores" ]; then
		got=$(awk -v w="$w" '$4 == w { print $5 }' <<<"$out" | sort -un | paste -sd,)
		[ "$got" = "$cores" ] || fail "$w: vCPUs $got, want $cores"
	fi
	for item in $(ini_value "$w" icount_params | tr , ' '); do
		grep -q "^params: .*$w\.$item" <<<"$out" || fail "$w: icount_params $item not in the params line: $out"
		given=$("$harness" run --dry-run --accel tcg --workloads "$w" --param "$w.${item%%=*}=1" 2>&1 | grep '^params:')
		[ "$given" = "params: $w.${item%%=*}=1" ] || fail "$w: --param ${item%%=*}=1 did not win over icount_params: $given"
	done
	n=$(awk -v w="$w" '$4 == w' <<<"$out" | wc -l)
	nv=$(wc -l <<<"$want")
	ncores=$(tr , '\n' <<<"${cores:-x}" | wc -l)
	boots=$(ini_value "$w" icount_boots)
	[ "$n" -eq $((nv * ncores * ${boots:-3})) ] || fail "$w: $n cells, want $nv variants x $ncores x ${boots:-3} boots"
	if [ -n "$boots" ]; then
		grep -Eq "^plan: the main job.* [(]([a-z_]+ [0-9]+, )*$w $boots[,:]" <<<"$out" || fail "$w: icount_boots $boots not in the plan line: $out"
		n=$("$harness" run --dry-run --accel tcg --workloads "$w" --boots 2 2>&1 | awk -v w="$w" '$4 == w' | wc -l)
		[ "$n" -eq $((nv * ncores * 2)) ] || fail "$w: --boots 2 did not win over icount_boots: $n cells"
	fi
done
# A resumed main job keeps a workload's own rounds; a meta.json whose workload_boots is
# not WORKLOAD=N of its workloads is refused, naming the item.
wb_json() {
	mkdir -p "$WORK/wbset"
	cat >"$WORK/wbset/meta.json" <<JSON
{ "plan": { "kernels": ["6.1"], "variants": ["baseline", "init_on_alloc"],
  "workloads": ["hackbench", "hugetlb"], "keep": ["6.1:baseline/hackbench/2", "6.1:init_on_alloc/hackbench/2",
  "6.1:baseline/hugetlb/2"], "workload_boots": [$1],
  "params": [], "cores": [2], "reps": 1, "boots": 2, "order": "interleaved", "seed": 1, "mem_mib": 0 } }
JSON
}
wb_json '"hackbench=4"'
out=$("$harness" run --resume "$WORK/wbset" --dry-run --accel tcg 2>"$WORK/err") || fail "workload_boots resume: $(cat "$WORK/err")"
[ "$(grep -c ' hackbench ' <<<"$out")" -eq 8 ] && [ "$(grep -c ' hugetlb ' <<<"$out")" -eq 2 ] ||
	fail "the resumed plan did not keep hackbench's 4 rounds: $out"
wb_json '"hackbench=99999"'
"$harness" run --resume "$WORK/wbset" --dry-run --accel tcg >/dev/null 2>"$WORK/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "workload_boots 'hackbench=99999'" "$WORK/err" ||
	fail "a hostile workload_boots: exit $rc, $(cat "$WORK/err")"
out=$("$harness" run --dry-run --accel tcg --workloads hugetlb --variants baseline,kasan --out "$set_dir" 2>&1) ||
	fail "--variants: $out"
grep -q '^plan: 1 kernel line x 2 variants x 1 workloads' <<<"$out" && grep -q ' kasan  *hugetlb' <<<"$out" ||
	fail "--variants did not give the cross product: $out"
mkdir -p "$WORK/kset"
cat >"$WORK/kset/meta.json" <<'JSON'
{ "plan": { "kernels": ["6.1"], "variants": ["baseline", "init_on_alloc", "kasan"],
  "workloads": ["hackbench", "hugetlb"], "keep": ["6.1:baseline/hackbench/2", "6.1:kasan/hugetlb/2"],
  "params": [], "cores": [2], "reps": 1, "boots": 2, "order": "interleaved", "seed": 1, "mem_mib": 0 } }
JSON
out=$("$harness" run --resume "$WORK/kset" --dry-run --accel tcg 2>"$WORK/err") || fail "keep resume: $(cat "$WORK/err")"
[ "$(grep -c 'boot [01]  to run' <<<"$out")" -eq 4 ] && grep -q ' baseline  *hackbench' <<<"$out" &&
	grep -q ' kasan  *hugetlb' <<<"$out" && ! grep -q 'init_on_alloc' <<<"$out" ||
	fail "the resumed main job did not keep its groups: $out"


# --profile: a plugin runs only under TCG, and its counters need one vCPU thread at a
# time: KVM (here only by asking: no machine of the project has a usable one), the host
# clock with several vCPUs and the Slurm executor (whose shards' profiles are not merged)
# are refused with one line before anything is built; under TCG the plan is the same.
tap_case dry_run_profile_refusals
bad "--profile under KVM" --variants baseline --profile --accel kvm
bad "counters are not atomic" --variants baseline --profile --accel tcg --clock host --cores 2
bad "not merged" --variants baseline --profile --accel tcg --executor slurm --partition p
"$harness" run --dry-run --workloads hackbench --variants baseline --profile --accel tcg \
	--cores 2 --out "$set_dir" >"$WORK/out" 2>"$WORK/err" || fail "--profile under TCG: $(cat "$WORK/err")"
grep -q '^estimate: 3 cells to run' "$WORK/out" || fail "--profile changed the plan: $(cat "$WORK/out")"
"$harness" run --dry-run --workloads hackbench --variants baseline --profile --accel tcg \
	--clock host --cores 1 --out "$set_dir" >/dev/null 2>"$WORK/err" ||
	fail "--profile on the host clock at 1 vCPU: $(cat "$WORK/err")"

tap_finish
