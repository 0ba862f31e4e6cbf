#!/bin/bash
# A host mount that appears during a boot (automount, NFS, a loop device) must not reach
# the guest's view of the host (issue 19). On a host whose / is shared, as under systemd
# (here: a mount namespace of this test's own with `mount --make-rshared /`), a view made
# MS_SLAVE received such a mount read-write. Checked in virtiofsd's own mount namespace,
# since the guest kernel mounts its root read-only anyway. Real boot of the baseline
# variant (TCG here); SKIP without its kernel in the cache.
#   late_mount.sh HARNESS
set -u
HARNESS=$(realpath "$1")
. "$(dirname "$0")/../common/lib.sh"

descendant() { # descendant PID COMM: the first process named COMM under PID
	local kids
	kids=$(cat /proc/"$1"/task/*/children 2> /dev/null)
	for k in $kids; do
		if [ "$(cat /proc/"$k"/comm 2> /dev/null)" = "$2" ]; then echo "$k"; return 0; fi
		descendant "$k" "$2" && return 0
	done
	return 1
}

if [ "${2:-}" = --inside ]; then
	mount --make-rshared / || exit 3
	share=$(mktemp -d /var/tmp/hardbench-late-XXXXXX)
	mkdir "$share/late"
	opt=()
	"$HARNESS" boot --help 2>&1 | grep -q -- --share && opt=(--share "$share")
	"$HARNESS" boot baseline --timeout 300 "${opt[@]}" -- sleep 120 > "$share.boot" 2>&1 &
	hpid=$!
	vfs=
	for _ in $(seq 600); do
		vfs=$(descendant "$hpid" virtiofsd) && grep -q "guest init up" "$share.boot" && break
		sleep 0.1
	done
	if [ -z "$vfs" ]; then
		echo "no virtiofsd: $(tail -2 "$share.boot")"
		kill "$hpid"; wait "$hpid"; rm -rf "$share" "$share.boot"; exit 4
	fi
	mount -t tmpfs -o size=1m tmpfs "$share/late"
	# virtiofsd pivots into the view: there, the share is at its host path.
	if grep -q " $share/late " /proc/"$vfs"/mountinfo; then
		echo "visible: the late mount is in virtiofsd's mount namespace:" \
			"$(grep " $share/late " /proc/"$vfs"/mountinfo | cut -d' ' -f5,6)"
	fi
	if nsenter -t "$vfs" -m -- /bin/sh -c "echo x > '$share/late/written'" 2> /dev/null; then
		echo "written: the late mount is writable through virtiofsd's view"
	fi
	echo "checked $share/late in virtiofsd's mount namespace"
	kill -INT "$hpid"; wait "$hpid"
	umount "$share/late"
	rm -rf "$share" "$share.boot"
	exit 0
fi

tap_case "a host mount made during the boot does not reach the view"
if [ "$(id -u)" != 0 ] || ! command -v nsenter > /dev/null; then
	tap_skip "needs root and nsenter"
elif ! "$HARNESS" boot baseline --dry-run -- true 2>&1 | grep -q -- '-kernel'; then
	tap_skip "the base kernel is not in the cache (harness build base)"
else
	unshare --mount --propagation unchanged "$0" "$1" --inside > "$WORK/inside.out" 2>&1
	rc=$?
	sed 's/^/# /' "$WORK/inside.out"
	[ "$rc" -eq 0 ] || fail "the check did not run (exit $rc)"
	grep -q '^checked' "$WORK/inside.out" || fail "the check did not finish"
	grep -q -e '^written' -e '^visible' "$WORK/inside.out" && fail "$(grep -e '^written' -e '^visible' "$WORK/inside.out" | head -1)"
fi
tap_finish
