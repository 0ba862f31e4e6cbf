#!/bin/bash
# hb-kbuild's in-memory build (memroot.c) on this host, in a private mount namespace with
# its own /run (nothing leaks into the host's mounts): a prepared tree builds kernel/sched/
# chrooted in the tmpfs toolchain (wall and user time above 0), the second rep reuses the
# root (the same mark, one tmpfs), and a root without `as`
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
made=\$(stat -c '%i %.9Y' /run/hb-kbuild-root.ready) || exit 95
"$helper" --tree "$tree" --prepared "$prepared" --jobs 2 kernel/sched/ > "$WORK/rep1" 2>&1 || exit 92
# reused: the root's mark is the first rep's, and one tmpfs is mounted there, not two
[ "\$(stat -c '%i %.9Y' /run/hb-kbuild-root.ready)" = "\$made" ] || exit 95
[ "\$(awk '\$5 == "/run/hb-kbuild-root"' /proc/self/mountinfo | wc -l)" = 1 ] || exit 96
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
95) fail "the second rep made the root again (its mark /run/hb-kbuild-root.ready changed or is missing)" ;;
96) fail "the second rep mounted a second root over the first" ;;
*) fail "exit $rc" ;;
esac
# each rep timed a real make: wall and user time above 0 (a helper printing zeros fails)
for rep in rep0 rep1; do
	for key in wall_s user_s setup_s; do
		awk -v k="$key" '$1 == k && $2 > 0 { found = 1 } END { exit !found }' "$WORK/$rep" ||
			fail "$rep: no '$key' above 0: $(grep "^$key" "$WORK/$rep")"
	done
done
tap_finish
