#!/usr/bin/env bash
# The unit suite and the fuzz cases under AddressSanitizer + UndefinedBehaviorSanitizer:
#   ci/sanitize.sh [DIR]   (default build-asan)
# Any ASan or UBSan report fails the test it occurs in (halt_on_error, abort). Leak
# detection is off: the harness is a short-lived command whose exit paths (exit 2 after a
# bad value) leave memory to the kernel by design, and LeakSanitizer reports those by the
# dozen (ASAN_OPTIONS=detect_leaks=1 ci/sanitize.sh shows them).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-asan}
ci/setup.sh "$dir" -Db_sanitize=address,undefined -Db_lundef=false
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:halt_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:abort_on_error=1}
meson test -C "$dir" --suite unit --print-errorlogs
meson test -C "$dir" 'faults fuzz' --print-errorlogs
