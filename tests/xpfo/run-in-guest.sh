#!/bin/sh
# Runs in the guest: loads the probe module, runs the checks, unloads it, and
# checks the kernel log for oopses and warnings.
#   run-in-guest.sh MODULE.ko XPFO_CHECK_BINARY
# Prints xpfo_check lines; exit status 0 if nothing failed.
set -u
ko=$1
bin=$2
rc=0
insmod "$ko" || { echo "xpfo_check insmod fail cannot load $ko"; exit 2; }
"$bin" || rc=$?
rmmod xpfo_probe || rc=2
if dmesg | grep -E 'Oops|BUG:|WARNING:|general protection|Call Trace' >/dev/null; then
	echo "xpfo_check dmesg fail the kernel log has an oops or warning:"
	dmesg | grep -E -A12 'Oops|BUG:|WARNING:|general protection' | head -60
	rc=1
else
	echo "xpfo_check dmesg pass no oops or warning in the kernel log"
fi
grep '^xpfo_' /proc/vmstat | tr '\n' ' '; echo
exit $rc
