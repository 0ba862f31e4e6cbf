#!/bin/sh
# Runs in the guest: a short stress-ng run over the paths where the kernel
# touches user pages (kmap users, splice/vmsplice, sendfile, fork/COW, mmap,
# ptrace, /proc/PID/mem via process_vm_*/procfs, page cache I/O, hugetlb),
# then checks the kernel log for oopses and warnings.
#   stress-in-guest.sh [SECONDS_PER_STRESSOR]   (default 4)
# Prints "xpfo_check stress pass|fail ...", "xpfo_check dmesg pass|fail ..." and the xpfo_
# counters; exit 0 if clean.
set -u
. "$(dirname "$0")/guest-lib.sh"
t=${1:-4}
dir=$(mktemp -d /tmp/xpfo-stress.XXXXXX)
rc=0
echo 64 > /proc/sys/vm/nr_hugepages 2>/dev/null
# One stressor at a time (--seq 0 = one instance per CPU), each for $t seconds.
for s in pipe splice vm-splice tee sendfile fork mmap mmapfork ptrace vm-rw procfs \
	 hdd copy-file readahead io-uring aio memfd tmpfs mremap madvise mmaphuge exec; do
	out=$(stress-ng --$s 0 --timeout ${t}s --temp-path "$dir" --metrics-brief 2>&1)
	st=$?
	case $st in
	0) echo "stress $s ok" ;;
	*) if echo "$out" | grep -qiE 'not implemented|not supported|skipped|no .*support'; then
		echo "stress $s skipped (not supported by this kernel)"
	   else
		echo "stress $s exit $st"; echo "$out" | tail -5; rc=1
	   fi ;;
	esac
done
rm -rf "$dir"
echo 0 > /proc/sys/vm/nr_hugepages 2>/dev/null
echo "xpfo_check stress $( [ $rc = 0 ] && echo pass || echo fail ) every stressor ran clean or is not built"
kernel_log_check dmesg || rc=1
xpfo_counters
grep -E 'DirectMap' /proc/meminfo | tr -s ' ' | tr '\n' ' '; echo
exit $rc
