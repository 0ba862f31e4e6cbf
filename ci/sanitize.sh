#!/usr/bin/env bash
# The unit suite and the fuzz cases under AddressSanitizer + UndefinedBehaviorSanitizer +
# LeakSanitizer, then the libFuzzer targets (ci/fuzz.sh, tests/fuzz/README.md):
#   ci/sanitize.sh [DIR]   (default build-asan; the libFuzzer build is build-fuzz)
# Any ASan, UBSan or LSan report fails the test it occurs in (halt_on_error, abort). Leak
# detection is on: every way out of a command frees what it holds. Memory still
# referenced when a command calls exit() (a bad value found deep in option parsing) is
# reachable from the stack and not reported; nothing needs a suppression.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-asan}
ci/setup.sh "$dir" -Db_sanitize=address,undefined -Db_lundef=false
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:halt_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:abort_on_error=1}
meson test -C "$dir" --suite unit --print-errorlogs
meson test -C "$dir" 'faults fuzz' --print-errorlogs
ci/fuzz.sh
