#!/bin/bash
# `harness boot --kernel IMAGE` checks the config found next to IMAGE before any boot: a
# missing option is one clear error (exit 2) that names it. No QEMU runs for that: the
# image is a stand-in, because the check must refuse it before QEMU would ever see it.
# The complete config gets past the check; QEMU then refuses the stand-in (SKIP without
# QEMU). TAP. Usage: kernel-config.sh HARNESS DATA_DIR
. "$(dirname "$0")/../common/lib.sh"
harness=$1
data=$2
dir=$WORK

tap_case "a config lacking guest options is refused before any boot, naming each"
echo "not a kernel" >"$dir/bzImage"
sed -e 's/^CONFIG_VIRTIO_CONSOLE=y/# CONFIG_VIRTIO_CONSOLE is not set/' \
    -e 's/^CONFIG_9P_FS=y/CONFIG_9P_FS=m/' "$data/base-6.1.192.config" >"$dir/.config"
"$harness" boot --kernel "$dir/bzImage" --rootfs 9p --log-dir "$dir/log" -- true 2>"$dir/err"
rc=$?
sed 's/^/# /' "$dir/err"
[ "$rc" -eq 2 ] || fail "exit status $rc, expected 2"
[ "$(wc -l <"$dir/err")" -eq 1 ] || fail "more than one line of error"
grep -qF "its config $dir/.config lacks what the guest path needs" "$dir/err" || fail "no config named"
grep -qF "CONFIG_VIRTIO_CONSOLE (not set;" "$dir/err" || fail "VIRTIO_CONSOLE not named"
grep -qF "CONFIG_9P_FS (=m, must be built in" "$dir/err" || fail "9P_FS=m not named"
[ ! -e "$dir/log" ] || fail "a boot was started"

tap_case "the complete config passes the check"
cp "$data/base-6.1.192.config" "$dir/.config"
"$harness" boot --kernel "$dir/bzImage" --accel tcg --no-pin --log-dir "$dir/log" -- true 2>"$dir/err"
rc=$?
sed 's/^/# /' "$dir/err"
grep -q "lacks what the guest path needs" "$dir/err" && fail "the complete config was refused"

tap_case "QEMU, not the check, refuses the stand-in image"
if ! command -v qemu-system-x86_64 >/dev/null; then
	tap_skip "qemu-system-x86_64 is not installed (ci/packages.txt: qemu-system-x86)"
else
	[ "$rc" -eq 125 ] || fail "exit status $rc, expected 125 (QEMU refusing the stand-in image)"
	grep -qF "QEMU exited with status 1 before the guest started" "$dir/err" || fail "no QEMU error"
fi
tap_finish
