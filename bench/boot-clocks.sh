#!/bin/bash
# Boot-to-guest-init under the host clock against the icount clock, side by side: the same
# kernel (baseline), vCPUs and memory, boots interleaved. Prints, per clock, the median
# [min..max] of QEMU start -> the init's hello (vm.json boot_s) and of the whole command,
# the icount/host ratio (issue 20's goal: within 2x on an idle host), and the host's load
# before and after (a loaded host stretches both, not always alike).
# Usage: bench/boot-clocks.sh [HARNESS]; BENCH_RUNS=N (default 5), BENCH_CORES=N
# (default 1).
default_runs=5
. "$(dirname "$0")/boot-common.sh"
cores=${BENCH_CORES:-1}

context
echo "kernel: baseline; --cores $cores; ${pin_opt:-pinned}"
"$harness" boot baseline -- true >/dev/null 2>&1 # warm the caches (kernel lookup, accel probe)
for i in $(seq "$runs"); do
	for clock in host icount; do
		timed "$clock-cmd" "$harness" boot baseline --clock "$clock" --cores "$cores" $pin_opt \
			--log-dir "$work/log" -- true
		boot_s "$clock-init"
	done
done
for clock in host icount; do
	summary "$clock-init" "$clock: QEMU start -> init hello"
	summary "$clock-cmd" "$clock: whole harness boot -- true"
done
ratio() { echo "scale=2; $(median "$work/icount-$1") / $(median "$work/host-$1")" | bc; }
echo "ratio icount/host: init $(ratio init)x, command $(ratio cmd)x"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
