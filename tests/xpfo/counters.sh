#!/bin/bash
# XPFO's counters in real guests (the part of the XPFO proof the harness can check
# without the probe module): the xpfo kernel builds (cached after the first time), its
# guests count unmaps from boot on, the deferred flush runs after file I/O on 2 vCPUs, and
# the baseline kernel has no xpfo_ lines. The probe module's checks (a)-(d): proof.sh.
# Usage: counters.sh HARNESS
. "$(dirname "$0")/../common/lib.sh"
HARNESS=$1
cores=$(( $(nproc) >= 2 ? 2 : 1 ))

# vmstat VARIANT CMD: the guest's /proc/vmstat xpfo_ lines after CMD, into $WORK/VARIANT.
vmstat() {
	local v=$1
	shift
	"$HARNESS" boot "$v" --cores "$cores" --no-pin -- sh -c "$*; grep '^xpfo_' /proc/vmstat; true" \
		> "$WORK/$v" 2> "$WORK/$v.err" || fail "boot $v: $(tail -3 "$WORK/$v.err")"
}

counter() {
	awk -v k="$2" '$1 == k { print $2 }' "$WORK/$1"
}

tap_case xpfo_kernel_builds
"$HARNESS" build xpfo > "$WORK/build.out" 2>&1 || fail "harness build xpfo: $(tail -5 "$WORK/build.out")"

tap_case xpfo_unmaps_user_pages_from_boot
vmstat xpfo true
n=$(counter xpfo xpfo_unmap)
[ "${n:-0}" -gt 0 ] || fail "xpfo: xpfo_unmap is '${n:-absent}' after boot, want > 0"
n=$(counter xpfo xpfo_flush_global)
[ "${n:-0}" -gt 0 ] || fail "xpfo (xpfotlbflush): xpfo_flush_global is '${n:-absent}', want > 0"

tap_case deferred_flush_after_file_io
vmstat xpfo-deferred 'dd if=/dev/zero of=/tmp/x bs=1M count=16 2>/dev/null; cat /tmp/x > /dev/null; sync'
n=$(counter xpfo-deferred xpfo_flush_deferred)
[ "${n:-0}" -gt 0 ] || fail "xpfo-deferred: xpfo_flush_deferred is '${n:-absent}', want > 0"

tap_case xpfo_off_unmaps_nothing
vmstat xpfo-off true
n=$(counter xpfo-off xpfo_unmap)
[ "${n:-x}" = 0 ] || fail "xpfo-off: xpfo_unmap is '${n:-absent}', want 0 (counters built, XPFO off)"

tap_case baseline_has_no_xpfo_counters
vmstat baseline true
[ ! -s "$WORK/baseline" ] || fail "baseline shows xpfo_ lines: $(head -3 "$WORK/baseline")"
tap_finish
