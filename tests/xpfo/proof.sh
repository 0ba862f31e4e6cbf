#!/bin/bash
# The proof that XPFO works, in real guests: one boot per variant runs the
# probe module the builds ship (kernel-configs/modules/xpfo_probe) on a page a user process
# wrote (tests/xpfo/run-in-guest.sh, xpfo_check.c), and each (variant, check) is a TAP case:
#   a  under XPFO the direct-map alias is not present (4K PTE) and a nofault read fails;
#      on baseline and xpfo-off it is present and readable
#   b  kmap_local_page, kmap and kmap_atomic make it readable, each unmap removes it again
#   c  with the global flush a TLB entry another vCPU loaded is gone after the kunmap;
#      xpfo-noflush is the control, where it must stay
#   d  with the deferred flush the stale entry is still there after the kunmap and gone
#      once that vCPU ran a user task, the deferred flush having run (xpfo_flush_deferred)
#   kernel_log  no oops or WARN in dmesg (and the driver's /proc/PID/mem and ptrace checks)
# A check that does not apply to a variant, or cannot run here, is a SKIP with the reason.
# Usage: proof.sh HARNESS XPFO_CHECK [--kernel-line LINE]
#   (meson runs it on the default line; by hand, --kernel-line 6.12 checks the 6.12 port)
. "$(dirname "$0")/../common/lib.sh"
HARNESS=$1
CHECK=$(realpath "$2")
shift 2
LINE=("$@")
case ${LINE[*]:-} in
''|"--kernel-line "[0-9]*) ;;
*) echo "proof.sh: bad options '${LINE[*]}' (accepted: --kernel-line LINE)" >&2; exit 2 ;;
esac
GUEST=$(realpath "$(dirname "$0")/run-in-guest.sh")
# (c) and (d) need a second vCPU; baseline and xpfo-off boot one (they have nothing to flush).
smp=$(( $(nproc) >= 2 ? 2 : 1 ))

# variant, CONFIG_XPFO in its build, the mode the probe must report, vCPUs
VARIANTS="baseline 0 off 1
xpfo-off 1 off 1
xpfo-noflush 1 none $smp
xpfo 1 global $smp
xpfo-deferred 1 deferred $smp"

# The probe's lines NAME of variant V, "VERDICT REASON" each (check (a) runs twice).
lines() {
	awk -v n="$2" '$1 == "xpfo_check" && $2 == n { $1 = ""; $2 = ""; sub(/^ +/, ""); print }' \
		"$WORK/$1.out"
}

# The distinct verdicts of NAME in V, e.g. "pass" or "pass skip"; "" when absent.
verdicts() {
	lines "$1" "$2" | awk '{ print $1 }' | sort -u | tr '\n' ' ' | sed 's/ $//'
}

# Shows the probe's lines of NAME as TAP diagnostics.
show() {
	lines "$1" "$2" | sed "s/^/# $1 $2: /"
}

# want V NAME VERDICTS [TEXT]: NAME's verdicts are exactly VERDICTS and each line says TEXT.
want() {
	local got
	got=$(verdicts "$1" "$2")
	show "$1" "$2"
	[ "$got" = "$3" ] || { fail "$1: $2 is '${got:-absent}', want '$3'"; return 1; }
	[ -z "${4:-}" ] || ! lines "$1" "$2" | grep -vqF -- "$4" || fail "$1: $2 does not say '$4'"
}

boot() {
	local v=$1 cores=$2 rc
	# The guest sees only what is shared of the project tree besides build/ and workloads/.
	"$HARNESS" boot "$v" "${LINE[@]}" --cores "$cores" --mem 512M --no-pin --timeout 300 \
		--share "$(dirname "$GUEST")" --share "$CHECK" -- \
		"$GUEST" "$CHECK" \
		> "$WORK/$v.out" 2> "$WORK/$v.err"
	rc=$?
	echo "$rc" > "$WORK/$v.rc"
	# What is not a check line (the counters, the driver's own messages) as diagnostics.
	echo "# $v: booted with $cores vCPU(s), guest run exit $rc"
	grep -v -e '^xpfo_check ' -e '^xpfo_info ' -e '^ *$' "$WORK/$v.out" | sed "s/^/# $v: /"
}

# (a) the direct-map alias of the user page, and the probe's view of the variant.
case_a() {
	local v=$1 xpfo=$2 mode=$3 info
	info=$(grep '^xpfo_info ' "$WORK/$v.out")
	echo "# $v: $info"
	[ "$info" = "xpfo_info config=$xpfo mode=$mode" ] ||
		fail "$v: the probe reports '${info:-nothing}', want config=$xpfo mode=$mode"
	if [ "$mode" = off ]; then
		want "$v" a_pte pass "(expected present)"
		want "$v" a_read pass "(expected readable)"
		return
	fi
	want "$v" a_pte pass "(expected not present, 4K)"
	if [ "$mode" = none ]; then
		# No flush: this CPU's own TLB entry may still serve the read; the PTE is the check.
		[ "$(verdicts "$v" a_read)" != fail ] || fail "$v: a_read failed"
		show "$v" a_read
	else
		want "$v" a_read pass "(expected -EFAULT)"
	fi
}

# (b) kmap and kunmap.
case_b() {
	local v=$1 mode=$3
	if [ "$mode" = off ]; then
		want "$v" b_kmap pass "readable (no XPFO: alias stays)"
	else
		want "$v" b_kmap pass "alias not present after each unmap"
	fi
}

# (c) the global flush on the other vCPU; xpfo-noflush is its control.
case_c() {
	local v=$1 mode=$3 got
	case $mode in
	off) tap_skip "no XPFO in $v: nothing is unmapped, nothing to flush"; return ;;
	deferred) tap_skip "(c) is the global flush's; $v is checked by (d)"; return ;;
	esac
	got=$(verdicts "$v" c_global)
	if [ "$got" = skip ]; then
		show "$v" c_global
		tap_skip "$(lines "$v" c_global | head -1 | cut -d' ' -f2-)"
	elif [ "$mode" = none ]; then
		want "$v" c_global pass "(the control)"
	else
		want "$v" c_global pass "(expected -EFAULT)"
	fi
}

# (d) the deferred flush: stale after the kunmap, gone after a user task ran there.
case_d() {
	local v=$1 mode=$3
	if [ "$mode" != deferred ]; then
		tap_skip "(d) is the deferred flush's; $v has mode $mode"
		return
	fi
	if [ "$(verdicts "$v" d_deferred)" = skip ]; then
		show "$v" c_global
		show "$v" d_deferred
		tap_skip "$(lines "$v" d_deferred | head -1 | cut -d' ' -f2-)"
		return
	fi
	# The probe ran (d): the alias must be gone after the switch whatever d_stale says, and
	# a missing d_stale line is a broken probe, not a reason to skip.
	want "$v" d_deferred pass "(expected -EFAULT)"
	if [ -z "$(verdicts "$v" d_stale)" ]; then
		fail "$v: the probe reported d_deferred but no d_stale line"
		return
	fi
	if [ "$(verdicts "$v" d_stale)" = skip ]; then
		show "$v" d_stale
		tap_skip "the entry was gone before the user task ran: its staleness cannot be shown here"
		return
	fi
	want "$v" d_stale pass "stale entry still serves the alias"
	# Under TCG any CR3 write drops the entry: the counter shows the deferred flush ran.
	want "$v" d_counter pass "around the user task on cpu1"
}

# No oops or WARN; the driver's own checks (/proc/PID/mem, ptrace) and its exit status.
case_log() {
	local v=$1 rc
	rc=$(cat "$WORK/$v.rc")
	want "$v" dmesg pass "no oops or warning"
	want "$v" e_procmem pass
	want "$v" e_ptrace pass
	[ "$rc" = 0 ] || fail "$v: the guest run exited $rc: $(tail -3 "$WORK/$v.err")"
}

"$HARNESS" build "${LINE[@]}" base xpfo > "$WORK/build.out" 2>&1 ||
	{ echo "Bail out! harness build base xpfo: $(tail -3 "$WORK/build.out" | tr '\n' ' ')"; exit 1; }
while read -r v xpfo mode cores; do
	tap_end_case # the last case's verdict before the next boot's diagnostics
	boot "$v" "$cores"
	tap_case "$v a_alias_unmapped_and_unreadable"
	[ "$mode" != off ] || tap_name="$v a_alias_mapped_and_readable"
	[ "$mode" != none ] || tap_name="$v a_alias_unmapped_read_unchecked_without_flush"
	case_a "$v" "$xpfo" "$mode"
	tap_case "$v b_kmap_maps_kunmap_unmaps"
	case_b "$v" "$xpfo" "$mode"
	tap_case "$v c_global_flush_removes_remote_entry"
	[ "$mode" != none ] || tap_name="$v c_control_remote_entry_stays_without_flush"
	case_c "$v" "$xpfo" "$mode"
	tap_case "$v d_deferred_flush_after_user_task"
	case_d "$v" "$xpfo" "$mode"
	tap_case "$v kernel_log_clean"
	case_log "$v"
done <<< "$VARIANTS"
tap_finish
