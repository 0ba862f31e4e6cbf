#!/bin/bash
# q35 against microvm, and the bzImage against the vmlinux's PVH entry, on
# `harness boot baseline -- true` (whole command and QEMU start -> init hello).
. "$(dirname "$0")/boot-common.sh"

context
configs="microvm:pvh microvm:bzimage q35:pvh q35:bzimage"
"$harness" boot baseline -- true >/dev/null 2>&1 # warm the caches
for i in $(seq "$runs"); do
	for c in $configs; do
		timed "$c" "$harness" boot baseline $pin_opt --machine "${c%%:*}" --entry "${c##*:}" \
			--log-dir "$work/log" -- true
		boot_s "$c.hello"
	done
done
for c in $configs; do
	summary "$c" "$c: whole command"
	summary "$c.hello" "$c: QEMU start -> init hello"
done
