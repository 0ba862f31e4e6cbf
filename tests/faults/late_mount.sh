#!/bin/bash
# A host mount that appears during a boot (automount, NFS, a loop device) must not reach
# the guest's view of the host (issue 19). On a host whose / is shared, as under systemd
# (here: a mount namespace of this test's own with `mount --make-rshared /`), a view made
# MS_SLAVE received such a mount read-write. Checked in virtiofsd's own mount namespace,
# since the guest kernel mounts its root read-only anyway (through /proc/PID/root; a
# share not found there is a failure, not a pass). Real boot of the baseline
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
	# Through /proc/PID/root a path resolves in virtiofsd's root and mount namespace (no
	# program need exist in the view, as nsenter would need): the share must be there,
	# else the check looked in the wrong place and is a failure, not a pass.
	view=/proc/$vfs/root
	if [ ! -d "$view$share" ]; then
		echo "not in the view: no $share under $view"
		kill -INT "$hpid"; wait "$hpid"; umount "$share/late"; rm -rf "$share" "$share.boot"; exit 6
	fi
	if (echo x > "$view$share/late/written") 2> /dev/null; then
		echo "written: the late mount is writable through virtiofsd's view"
	fi
	echo "checked $share/late in virtiofsd's mount namespace"
	kill -INT "$hpid"; wait "$hpid"
	umount "$share/late"
	rm -rf "$share" "$share.boot"
	exit 0
fi

tap_case "a host mount made during the boot does not reach the view"
# The dry run's first line says whether base is cached; anything else is a failure.
"$HARNESS" boot baseline --dry-run -- true > "$WORK/dry.out" 2>&1
dry_rc=$?
if [ "$(id -u)" != 0 ]; then
	tap_skip "needs root"
elif [ "$dry_rc" = 0 ] && head -1 "$WORK/dry.out" | grep -q '^base: not cached'; then
	tap_skip "the base kernel is not in the cache (harness build base)"
elif [ "$dry_rc" != 0 ] || ! head -1 "$WORK/dry.out" | grep -q '^base: cached' ||
	! grep -q -- '-kernel' "$WORK/dry.out"; then
	fail "the dry run (exit $dry_rc) shows no cached base and no -kernel: $(head -3 "$WORK/dry.out")"
else
	unshare --mount --propagation unchanged "$0" "$1" --inside > "$WORK/inside.out" 2>&1
	rc=$?
	sed 's/^/# /' "$WORK/inside.out"
	case $rc in
	0) ;;
	6) fail "the share is not in virtiofsd's view: the check looked in the wrong place" ;;
	*) fail "the check did not run (exit $rc)" ;;
	esac
	grep -q '^checked' "$WORK/inside.out" || fail "the check did not finish"
	grep -q -e '^written' -e '^visible' "$WORK/inside.out" && fail "$(grep -e '^written' -e '^visible' "$WORK/inside.out" | head -1)"
fi
tap_finish
