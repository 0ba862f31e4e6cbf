# Sourced by the guest suite's scripts (guest.sh, profile.sh): skip and fail, and the SKIP
# of a host that cannot boot the baseline variant (no QEMU, no python3, no base kernel and
# no source to build one). Exit 77 is a skip, with the reason on stdout.
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is not installed"
command -v python3 >/dev/null || skip "python3 (to read vm.json and reports) is not installed"
cache=${HARDBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hardbench}
if [ ! -e /usr/src/linux-source-6.1.tar.xz ] && ! ls -d "$cache"/kernels/base-* >/dev/null 2>&1; then
	skip "no base kernel in $cache and no /usr/src/linux-source-6.1.tar.xz to build one"
fi
