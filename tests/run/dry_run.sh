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
grep -q '^plan: 2 variants x 1 workloads x 1 vCPU counts x 2 boots = 4 cells, 1 repetition each, interleaved order (shuffled: --seed 1)' <<<"$out" ||
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

# vCPU counts are filtered to the host's physical cores (at most the CPUs online), unless
# --overcommit.
tap_case dry_run_cores_fit_the_host
over=$(($(nproc --all) + 1))
bad "$over" --cores "$over"
"$harness" run --dry-run --workloads hackbench --variants baseline --cores "$over" --overcommit \
	--out "$set_dir" >/dev/null 2>"$WORK/err" || fail "--cores $over --overcommit: $(cat "$WORK/err")"

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

tap_case dry_run_resume_refuses_plan_options
"$harness" run --resume "$set_dir" --dry-run --cores 2 >/dev/null 2>"$WORK/err"
rc=$?
[ "$rc" -eq 2 ] || fail "--resume with --cores: exit $rc, want 2"
grep -q -- '--cores' "$WORK/err" || fail "the error does not name --cores: $(cat "$WORK/err")"

tap_finish
