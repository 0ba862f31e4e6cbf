#!/bin/bash
# hb-kbuild's in-memory build (memroot.c) on this host, in a private mount namespace with
# its own /run (nothing leaks into the host's mounts): a prepared tree builds kernel/sched/
# chrooted in the tmpfs toolchain, the second rep reuses the root, and a root without `as`
# fails the make, so the make did run in the root and not on the host's /usr.
# Needs root, unshare and the prepared tree that a kbuild run leaves in the cache (SKIP
# otherwise). Usage: test_memroot.sh HB_KBUILD
. "$(dirname "$0")/../../tests/common/lib.sh"
helper=$1
cache=${HARDBENCH_CACHE:-$HOME/.cache/hardbench}
mark=$(ls -d "$cache"/workloads/kbuild/*-tinyconfig.obj/.hb-prepared 2>/dev/null | head -1)

tap_case memroot_builds_chrooted
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null || [ -z "$mark" ]; then
	tap_skip "needs root, unshare and a prepared kbuild tree in $cache/workloads/kbuild (made by 'harness run --workloads kbuild')"
	tap_finish
fi
prepared=$(dirname "$mark")
label=$(basename "$prepared" -tinyconfig.obj)
tree=$cache/src/$label
[ -d "$tree" ] || { tap_skip "no source tree $tree"; tap_finish; }
cat > "$WORK/inns.sh" <<SH
set -u
mount -t tmpfs tmpfs /run || exit 90
"$helper" --tree "$tree" --prepared "$prepared" --jobs 2 kernel/sched/ > "$WORK/rep0" 2>&1 || exit 91
"$helper" --tree "$tree" --prepared "$prepared" --jobs 2 kernel/sched/ > "$WORK/rep1" 2>&1 || exit 92
[ -x /run/hb-kbuild-root/usr/lib/gcc/x86_64-linux-gnu/12/cc1 ] || [ -n "\$(ls /run/hb-kbuild-root/usr/lib/gcc/*/*/cc1)" ] || exit 93
rm -f /run/hb-kbuild-root/usr/bin/as
"$helper" --tree "$tree" --prepared "$prepared" --jobs 2 kernel/sched/ > "$WORK/rep2" 2>&1 && exit 94
exit 0
SH
unshare -m --propagation private bash "$WORK/inns.sh"
rc=$?
case $rc in
0) ;;
90) fail "no private /run" ;;
91 | 92) fail "the in-memory build failed: $(tail -5 "$WORK/rep$((rc - 91))")" ;;
93) fail "no cc1 in the in-memory root" ;;
94) fail "the make ran without 'as' in the root: it did not run chrooted" ;;
*) fail "exit $rc" ;;
esac
grep -q '^wall_s [0-9]' "$WORK/rep0" && grep -q '^wall_s [0-9]' "$WORK/rep1" || fail "no wall_s: $(cat "$WORK/rep0")"
grep -q 'setup_s' "$WORK/rep1" || fail "no setup_s in rep 1"
tap_finish
