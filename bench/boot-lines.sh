#!/bin/bash
# Boot-to-job time per kernel line: `harness boot baseline --kernel-line L --
# cat /proc/uptime`, lines interleaved, under the host clock (QEMU start -> init hello, and
# the whole command) and under icount (the guest's own uptime when the job starts: boot
# work in guest nanoseconds, which host load does not move).
# Usage: boot-lines.sh [HARNESS] [LINES]   (default lines: 6.1 6.12)
. "$(dirname "$0")/boot-common.sh"
lines=${2:-6.1 6.12}

context
for l in $lines; do "$harness" boot baseline --kernel-line "$l" -- true >/dev/null 2>&1; done # warm
for i in $(seq "$runs"); do
	for l in $lines; do
		timed "$l" "$harness" boot baseline $pin_opt --kernel-line "$l" --log-dir "$work/log" \
			-- cat /proc/uptime
		boot_s "$l.hello"
		timed "$l.icount-cmd" "$harness" boot baseline $pin_opt --kernel-line "$l" --clock icount \
			--log-dir "$work/log" -- cat /proc/uptime
		awk 'NR==1 {print $1}' "$work/last.out" >>"$work/$l.icount"
	done
done
for l in $lines; do
	summary "$l" "$l host clock: whole command"
	summary "$l.hello" "$l host clock: QEMU start -> init hello"
	summary "$l.icount" "$l icount: guest uptime at the job"
done
