#!/bin/bash
# A kernel build runs no code of a patch as root (issue 39): a --patch whose top Makefile
# prints the uid it runs as and tries to write a file in /root, then stops the build at
# its first make (tinyconfig), on the real 6.1 tree the kernel suite extracted (a few
# seconds: a hard-link copy of the tree, the patch, one make). As root, make must run as
# the unprivileged uid (common/unpriv.h) and the file must not appear. TAP.
#   unpriv-build.sh HARNESS
set -u
HARNESS=$(realpath "$1")
. "$(dirname "$0")/../common/lib.sh"

tap_case "a patch's Makefile runs as the unprivileged uid and cannot write /root"
if [ "$(id -u)" != 0 ]; then
	tap_skip "needs root (as another user the build runs as that user)"
	tap_finish
fi
target=/root/hardbench-unpriv-test-$$
{
	printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
	printf 'From: Test <test@example.org>\nDate: Fri, 4 Dec 2026 00:00:00 +0000\n'
	printf 'Subject: [PATCH] test: the build uid, and a write to /root\n\n---\n'
	printf -- '--- a/Makefile\n+++ b/Makefile\n@@ -1,3 +1,6 @@\n'
	printf '+$(info hardbench-build-uid=$(shell id -u))\n'
	printf '+$(shell touch %s 2>/dev/null)\n' "$target"
	printf '+$(error hardbench test: stop after the uid check)\n'
	printf ' # SPDX-License-Identifier: GPL-2.0\n VERSION = 6\n PATCHLEVEL = 1\n'
} > "$WORK/uid.patch"
"$HARNESS" build --patch "hb-uid-test=$WORK/uid.patch" > "$WORK/build.out" 2>&1
rc=$?
log=$(grep -o "log: [^;]*\.log" "$WORK/build.out" | head -1 | cut -d' ' -f2)
uid=$(grep -ho 'hardbench-build-uid=[0-9]*' "$WORK/build.out" ${log:+"$log"} | head -1 | cut -d= -f2)
echo "# build exit $rc; make ran as uid ${uid:-?}"
if [ -e "$target" ]; then
	rm -f "$target"
	fail "the patch's Makefile wrote $target"
fi
[ -n "$uid" ] || fail "the patch's make never ran: $(tail -3 "$WORK/build.out")"
[ "${uid:-0}" != 0 ] || fail "the patch's make ran as root"
[ "${uid:-}" = "${HARDBENCH_UNPRIV_UID:-2147000000}" ] || fail "make ran as uid $uid, not the unprivileged uid"
[ -n "$log" ] && rm -f "$log" "${log%.log}.config"
tap_finish
