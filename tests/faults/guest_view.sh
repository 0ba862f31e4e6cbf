#!/bin/bash
# What a kernel under test sees of the host's /etc, and what it can put on the harness's
# terminal (issue 39), in one real boot of the baseline variant (TCG here; SKIP without
# its kernel in the cache). The guest lists its /etc and tries the host's secrets:
#   - every file the guest can reach under /etc is one every host user may read (o+r);
#   - /etc/shadow, /etc/munge/munge.key, /etc/ssl/private are not there;
# and prints a C1 CSI (U+009B, an escape sequence without ESC) and an ESC: on the
# harness's terminal (script(1)) both arrive as '?'.
#   guest_view.sh HARNESS
set -u
HARNESS=$(realpath "$1")
. "$(dirname "$0")/../common/lib.sh"

tap_case "the guest's /etc holds only world-readable files, no secret"
if [ "$(id -u)" != 0 ] || ! command -v script > /dev/null; then
	tap_skip "needs root and script(1)"
	tap_finish
fi
if ! "$HARNESS" build base --dry-run 2>&1 | grep -q 'cached'; then
	tap_skip "the base kernel is not in the cache (the kernel suite builds it)"
	tap_finish
fi
# Inside the guest: its /etc (files and links), then the secrets' fate, then the controls.
guest='find /etc \( -type f -o -type l \) | sort | sed "s/^/etc: /"
for f in /etc/shadow /etc/munge/munge.key /etc/ssl/private /etc/sudoers; do
	[ -e "$f" ] && echo "visible: $f"
done
printf "c1: x\302\233" ; printf "2J \033[31m y\n"
echo listed'
script -qec "'$HARNESS' boot baseline --timeout 300 -- sh -c '$(printf '%s' "$guest" | sed "s/'/'\\\\''/g")'" /dev/null \
	> "$WORK/boot.out" 2>&1
grep -q '^listed' "$WORK/boot.out" || { fail "the guest did not list its /etc: $(tail -3 "$WORK/boot.out")"; tap_finish; }
n=0
while read -r _ path; do
	path=${path%$'\r'}
	n=$((n + 1))
	# The guest's path is the host's: the view binds each entry at its own name.
	if [ -f "$path" ] && [ ! -L "$path" ] && [ $((0$(stat -c %a "$path") & 4)) = 0 ]; then
		fail "the guest reaches $path, which not every host user may read"
	fi
done < <(grep '^etc: ' "$WORK/boot.out")
echo "# the guest's /etc: $n entries"
grep '^visible: ' "$WORK/boot.out" | while read -r _ f; do echo "FAIL: the guest sees $f" >&2; echo x; done |
	grep -q x && fail "the guest sees a host secret: $(grep '^visible: ' "$WORK/boot.out" | tr '\n' ' ')"

tap_case "guest output on the terminal: no ESC, no C1"
grep -q '^c1: x' "$WORK/boot.out" || fail "the guest's line is missing: $(grep c1: "$WORK/boot.out")"
LC_ALL=C grep -q $'\302\233\|\033\[31m' "$WORK/boot.out" && fail "a C1 CSI or an ESC from the guest reached the terminal"
grep -q 'c1: x??2J ?\[31m y' "$WORK/boot.out" || fail "the controls are not shown as '?': $(grep c1: "$WORK/boot.out" | cat -v)"
tap_finish
