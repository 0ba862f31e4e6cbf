#!/bin/bash
# `harness boot` and `harness run` share one definition of the VM options
# (harness/boot/vm_options.c): for the same --mem / --cores, with and without
# --overcommit, both give the same verdict and, when they refuse, the same one-line
# message (under the host clock: boot's default, while run's auto is icount under TCG);
# under icount both take any vCPU count without --overcommit (one host thread runs them
# all). --dry-run everywhere: nothing is built or booted.
# Usage: vm-options.sh HARNESS
. "$(dirname "${BASH_SOURCE[0]}")/../common/lib.sh"
harness=$1
export HARDBENCH_RESULTS="$WORK/results"
host_cores=$(nproc --all) # at least the physical cores: host_cores + 1 is above them

# same ARGS...: boot and run agree on ARGS.
same() {
	"$harness" boot baseline --dry-run --accel tcg --no-pin --clock host "$@" -- true \
		>"$WORK/boot.out" 2>"$WORK/boot.err"
	local boot_rc=$?
	"$harness" run --dry-run --accel tcg --no-pin --clock host --variants baseline \
		--workloads hackbench --boots 1 --out "$WORK/set" "$@" >"$WORK/run.out" 2>"$WORK/run.err"
	local run_rc=$?
	echo "--- $*: boot $boot_rc, run $run_rc: $(head -1 "$WORK/boot.err")"
	[ "$boot_rc" = "$run_rc" ] || fail "$*: boot exits $boot_rc, run $run_rc: $(cat "$WORK/boot.err" "$WORK/run.err")"
	if [ "$boot_rc" = 2 ]; then
		cmp -s "$WORK/boot.err" "$WORK/run.err" ||
			fail "$*: different messages: boot '$(cat "$WORK/boot.err")', run '$(cat "$WORK/run.err")'"
		[ "$(wc -l <"$WORK/boot.err")" = 1 ] || fail "$*: not one line: $(cat "$WORK/boot.err")"
	fi
}

# expect RC ARGS...: the verdict itself (boot's; same() checks run agrees).
expect() {
	local want=$1
	shift
	"$harness" boot baseline --dry-run --accel tcg --no-pin --clock host "$@" -- true >/dev/null 2>&1
	local rc=$?
	[ "$rc" = "$want" ] || fail "boot $*: exit $rc, want $want"
}

# Under icount, boot and run both take more vCPUs than host cores without --overcommit.
"$harness" boot baseline --dry-run --accel tcg --no-pin --clock icount --cores $((host_cores + 1)) \
	-- true >/dev/null 2>"$WORK/boot.err" || fail "boot --clock icount --cores $((host_cores + 1)): $(cat "$WORK/boot.err")"
"$harness" run --dry-run --accel tcg --no-pin --clock icount --variants baseline --workloads hackbench \
	--boots 1 --out "$WORK/set" --cores $((host_cores + 1)) >/dev/null 2>"$WORK/run.err" ||
	fail "run --clock icount --cores $((host_cores + 1)): $(cat "$WORK/run.err")"

for oc in "" --overcommit; do
	for args in "--mem 200M" "--mem 300M" "--cores 65" "--cores 1024" "--cores $((host_cores + 1))"; do
		# shellcheck disable=SC2086 # word splitting wanted
		same $args $oc
	done
	expect 2 --mem 200M $oc
	expect 0 --mem 300M $oc
	expect 2 --cores 65 $oc
	expect 2 --cores 1024 $oc
done
expect 2 --cores $((host_cores + 1))
expect 0 --cores $((host_cores + 1)) --overcommit
# --share: an existing path below /, the same for both.
for args in "--share $WORK/none" "--share /" "--share $WORK"; do
	# shellcheck disable=SC2086 # word splitting wanted
	same $args
done
expect 2 --share "$WORK/none"
expect 2 --share /
expect 0 --share "$WORK"
"$harness" boot baseline --dry-run --mem 200M -- true 2>&1 | grep -q "'200M' (accepted: 256M to" ||
	fail "--mem 200M: the message does not name the limit"
finish
