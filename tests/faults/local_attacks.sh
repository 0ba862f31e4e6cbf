#!/bin/bash
# Attacks of another local user on a harness run by root (issue 19), each as a TAP case:
#   planted folder   a folder planted where the stale-folder cleanup looks, its subfolder
#                    swapped for a symlink to a root-owned 2,000-file folder at the first
#                    deletion (run as nobody via setpriv): no file of that folder may go
#   no HOME          the cache must not fall back to /tmp, where another user may have made
#                    .cache/hardbench first
#   samples symlink  a samples.jsonl planted as a symlink in --out: root must not write
#                    through it
#   log-dir comma    a comma in --log-dir must not become a QEMU -chardev option
#   local_attacks.sh HARNESS SWAP_ATTACK DATA_DIR
set -u
HARNESS=$(realpath "$1")
ATTACK=$(realpath "$2")
CSV=$(realpath "$3")/seed001-cook-kbuild.csv
. "$(dirname "$0")/../common/lib.sh"
NFILES=2000

tmp_root() { # common/tmpdir.h: the runtime folder only when it is ours and only ours
	local run=${XDG_RUNTIME_DIR:-}
	if [ "${run#/}" != "$run" ] && [ -O "$run" ] && [ $((0$(stat -c %a "$run") & 022)) = 0 ]; then
		echo "$run/hardbench"
	else
		echo /run/hardbench
	fi
}

# Plants in $1 as nobody, runs the cleanup (harness boot parses its options, cleans, then
# stops at the missing kernel), and prints how many of the victim's files are left.
planted_in() {
	local parent=$1 victim out pid n
	victim=$(mktemp -d /var/tmp/hardbench-victim-XXXXXX)
	for i in $(seq -f %04g 0 $((NFILES - 1))); do : > "$victim/f$i"; done
	chmod 0755 "$victim"
	out=$victim.attack
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$ATTACK" "$parent" "$victim" "$NFILES" > "$out" 2>&1 &
	pid=$!
	for _ in $(seq 100); do grep -q -e '^ready' -e '^cannot' "$out" && break; sleep 0.1; done
	"$HARNESS" boot --kernel "$victim.none" -- true > "$out.boot" 2>&1; sed "s/^/# /" "$out.boot"
	sleep 0.5
	kill "$pid" 2> /dev/null
	wait "$pid" 2> /dev/null
	n=$(find "$victim" -type f | wc -l)
	echo "# attacker in $parent: $(tr '\n' ' ' < "$out"); victim kept $n of $NFILES files"
	echo "kept $n"
	grep '^planted' "$out" | cut -d' ' -f2 | while read -r d; do rm -rf "$d"; done
	rm -rf "$victim" "$out" "$out.boot"
}

# In a mount namespace of its own with a fresh /tmp: other harnesses on this machine
# (older ones still clean /tmp) must neither see the planted folder nor be hit by it.
# Folders of the harness under /tmp (a CI clone in mktemp -d) are bound back into it.
if [ "${4:-}" = --planted ]; then
	saved=$HB_SAVED_TMP
	mount --bind /tmp "$saved" && mount -t tmpfs -o mode=1777 tmpfs /tmp || exit 1
	for d in "$(dirname "$HARNESS")" "${HARDBENCH_SOURCE_DIR:-}" "${HARDBENCH_BUILD_DIR:-}" "$(dirname "$ATTACK")"; do
		case "$d" in
		/tmp/?*) mkdir -p "$d" && mount --bind "$saved/${d#/tmp/}" "$d" ;;
		esac
	done
	planted_in /tmp          # where the folders used to live
	planted_in "$(tmp_root)" # where they live now: nobody cannot plant there
	exit 0
fi

tap_case "planted folder with a subfolder swapped for a symlink"
if ! command -v setpriv > /dev/null || ! id nobody > /dev/null 2>&1 || [ "$(id -u)" != 0 ]; then
	tap_skip "needs root, setpriv and the user nobody"
else
	mkdir -p "$(tmp_root)"
	saved_tmp=$(mktemp -d /var/tmp/hardbench-oldtmp-XXXXXX)
	HB_SAVED_TMP=$saved_tmp unshare --mount --propagation private "$0" "$@" --planted > "$WORK/planted.out" 2>&1
	rmdir "$saved_tmp"
	grep '^#' "$WORK/planted.out"
	grep -q '^kept' "$WORK/planted.out" || fail "the attack did not run: $(tail -3 "$WORK/planted.out")"
	grep '^kept' "$WORK/planted.out" | while read -r _ n; do
		[ "$n" -eq "$NFILES" ] || echo "the cleanup deleted $((NFILES - n)) of $NFILES files of a root-owned folder"
	done > "$WORK/planted.fail"
	[ -s "$WORK/planted.fail" ] && fail "$(head -1 "$WORK/planted.fail")"
fi

tap_case "no HOME: no cache under /tmp"
(unset HOME XDG_CACHE_HOME HARDBENCH_CACHE; cd "$WORK" && "$HARNESS" build base --dry-run) > "$WORK/nohome.out" 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "without HOME, harness build exited $rc (expected 2): $(tail -1 "$WORK/nohome.out")"
grep -q HARDBENCH_CACHE "$WORK/nohome.out" || fail "the error does not name HARDBENCH_CACHE: $(tail -1 "$WORK/nohome.out")"

tap_case "a samples.jsonl planted as a symlink in --out"
# Dangling (root would create the file it names) and to an empty file (root would fill it).
mkdir -p "$WORK/set" "$WORK/set2" "$WORK/elsewhere"
: > "$WORK/elsewhere/empty"
ln -s "$WORK/elsewhere/created" "$WORK/set/samples.jsonl"
ln -s "$WORK/elsewhere/empty" "$WORK/set2/samples.jsonl"
"$HARNESS" import "$CSV" --out "$WORK/set" > "$WORK/import.out" 2>&1
[ -e "$WORK/elsewhere/created" ] && fail "import created a file through a dangling samples.jsonl symlink"
"$HARNESS" import "$CSV" --out "$WORK/set2" > "$WORK/import.out" 2>&1
[ -s "$WORK/elsewhere/empty" ] && fail "import wrote through a samples.jsonl symlink to an empty file"

tap_case "a comma in --log-dir"
# QEMU gets console.log as a descriptor (-add-fd, /dev/fdset/1): no part of --log-dir is
# on its line to be read as an option. (This case looked for 'file,id=hb-con,path=', a
# form the line never had since append=on, and so always skipped.)
logdir="$WORK/logs,server=on,wait=off,path=/tmp"
"$HARNESS" boot --dry-run --kernel "$CSV" --log-dir "$logdir" -- true > "$WORK/comma.out" 2>&1
# QEMU's console chardev must be there to check: a dry run without one fails rather than
# skipping, and the chardev must be the descriptor, with no part of the folder on the line.
if ! grep -q 'id=hb-con' "$WORK/comma.out"; then
	fail "the dry run printed no QEMU console chardev to check: $(tail -1 "$WORK/comma.out")"
else
	grep -q 'file,append=on,id=hb-con,path=/dev/fdset/1' "$WORK/comma.out" ||
		fail "QEMU's console is not a descriptor: $(grep 'hb-con' "$WORK/comma.out")"
	grep -q 'server=on' "$WORK/comma.out" && fail "--log-dir reaches QEMU's line: $(grep 'server=on' "$WORK/comma.out")"
fi
tap_finish
