#!/bin/bash
# XPFO's stability benchmark: boots each XPFO variant and runs a short stress-ng pass
# over the paths where the kernel touches user pages (tests/xpfo/stress-in-guest.sh:
# pipes, splice, vmsplice, sendfile, fork, mmap, io_uring, ptrace, /proc/PID/mem, ...),
# which ends by checking dmesg for oopses and warnings. Prints one summary line per
# variant: pass/fail, seconds, stressors run, skipped and failed, the xpfo_ counters.
#
# Usage: bench/xpfo-stress.sh HARNESS [SECONDS_PER_STRESSOR] [VARIANTS] [-- BOOT_OPTS...]
#   defaults: 3 s; xpfo-off,xpfo-noflush,xpfo,xpfo-deferred. The debug build's variants:
#   xpfo-debug,xpfo-deferred-debug (lockdep, might_sleep, DEBUG_VM; builds on first use).
#   BOOT_OPTS go to `harness boot`, e.g. -- --kernel-line 6.12
# Full guest output per variant: <folder>/xpfo-stress-<variant>.log in a folder of its own
# made by mktemp -d under $TMPDIR (named on the first line): a fixed name in /tmp is one
# another user can plant a symlink at first. Exit 1 if any failed.
set -uo pipefail
HARNESS=${1:?usage: xpfo-stress.sh HARNESS [SECONDS] [VARIANTS] [-- BOOT_OPTS...]}
SECS=${2:-3}
VARIANTS=${3:-xpfo-off,xpfo-noflush,xpfo,xpfo-deferred}
shift $(( $# < 3 ? $# : 3 ))
[ "${1:-}" = "--" ] && shift
case $SECS in ''|*[!0-9]*) echo "xpfo-stress.sh: bad seconds '$SECS' (accepted: a positive integer)" >&2; exit 2 ;; esac
command -v stress-ng >/dev/null || { echo "SKIP: stress-ng is not installed (apt-get install stress-ng)"; exit 0; }
SCRIPT=$(realpath "$(dirname "$0")/../tests/xpfo/stress-in-guest.sh")
LOGS=$(mktemp -d "${TMPDIR:-/tmp}/xpfo-stress-XXXXXX") || exit 2
echo "guest output: $LOGS/xpfo-stress-<variant>.log"
failed=0
for v in ${VARIANTS//,/ }; do
	log=$LOGS/xpfo-stress-$v.log
	start=$(date +%s)
	"$HARNESS" boot "$v" --cores 2 --timeout 3600 --share "$(dirname "$SCRIPT")" "$@" -- "$SCRIPT" "$SECS" > "$log" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	ok=$(grep -c '^stress .* ok$' "$log")
	skipped=$(grep -c '^stress .* skipped' "$log")
	bad=$(grep '^stress .* exit ' "$log" | awk '{print $2}' | tr '\n' ' ')
	counters=$(grep -o 'xpfo_alloc_user [0-9]*.*xpfo_flush_local [0-9]*' "$log" | head -1)
	verdict=pass
	[ $rc -eq 0 ] || { verdict=fail; failed=1; }
	printf '%-20s %s  exit %d  %4ds  stressors ok %d skipped %d failed [%s]  %s\n' \
		"$v" "$verdict" $rc $secs "$ok" "$skipped" "${bad% }" "${counters:-no xpfo_ counters}"
	grep -q 'oops or warning:' "$log" && grep -A20 'oops or warning:' "$log" | head -24 | sed 's/^/    /'
done
exit $failed
