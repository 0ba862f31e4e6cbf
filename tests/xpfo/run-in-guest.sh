#!/bin/sh
# Runs in the guest: loads the probe module, runs the checks, unloads it, and checks the
# kernel log for oopses and warnings.
#   run-in-guest.sh XPFO_CHECK [MODULE.ko]
# MODULE.ko defaults to the probe the build ships (kernel-configs/modules/xpfo_probe),
# found under /lib/modules/$(uname -r) (extra/ in a harness build). Prints the xpfo_check
# lines; exit status 0 if nothing failed, 1 if a check failed, 2 if the probe cannot be
# loaded.
set -u
. "$(dirname "$0")/guest-lib.sh"
bin=$1
ko=${2:-$(find "/lib/modules/$(uname -r)" -name xpfo_probe.ko 2>/dev/null | head -1)}
[ -n "$ko" ] || { echo "xpfo_check insmod fail no xpfo_probe.ko under /lib/modules/$(uname -r)"; exit 2; }
rc=0
insmod "$ko" || { echo "xpfo_check insmod fail cannot load $ko"; exit 2; }
"$bin" || rc=$?
rmmod xpfo_probe || rc=2
kernel_log_check dmesg || rc=1
xpfo_counters
exit $rc
