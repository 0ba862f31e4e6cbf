# Sourced by the XPFO guest scripts (run-in-guest.sh, stress-in-guest.sh); runs in the guest.

# The kernel log patterns of an oops, a BUG, a WARN or a general protection fault.
KERNEL_LOG_BAD='Oops|BUG:|WARNING:|general protection|Call Trace'

# kernel_log_check NAME: one line "xpfo_check NAME pass|fail ..." on whether the kernel log
# since boot holds an oops or a warning (on fail, the log lines around each one follow).
# Returns 0 when clean, 1 otherwise.
kernel_log_check() {
	if dmesg | grep -E "$KERNEL_LOG_BAD" >/dev/null; then
		echo "xpfo_check $1 fail the kernel log has an oops or warning:"
		dmesg | grep -E -A15 "$KERNEL_LOG_BAD" | head -80
		return 1
	fi
	echo "xpfo_check $1 pass no oops or warning in the kernel log"
	return 0
}

# The xpfo_ counters of /proc/vmstat on one line (an empty line without XPFO).
xpfo_counters() {
	grep '^xpfo_' /proc/vmstat | tr '\n' ' '
	echo
}
