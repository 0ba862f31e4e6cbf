#!/bin/bash
# `meson install` as a user would: configure the source with --prefix in a scratch folder,
# build and install what installs, move the prefix as a whole, then hide the source and
# build trees (a private mount namespace with an empty folder bound over each) and, from /,
# run the installed harness: list, a dry run, an import whose result set lands under the
# current folder, the man pages and completion, and a real boot of baseline with the
# cached kernel (the kernel suite builds it first). Root only (mount namespaces).
# Usage: install.sh SOURCE_DIR (TAP output)
. "$(dirname "$0")/../common/lib.sh"
src=$(cd "$1" && pwd)
build=$WORK/build
prefix=$WORK/prefix
moved=$WORK/moved

tap_case configure_build_install
if [ "$(id -u)" != 0 ] || ! command -v unshare > /dev/null; then
	tap_skip "needs root and unshare(1) to hide the source tree in a mount namespace"
	tap_finish
fi
# -O0 without debug info: the quickest build; what is checked is where things go and that
# they run, not how fast.
meson setup "$build" "$src" --prefix "$prefix" -Doptimization=0 -Ddebug=false > "$WORK/setup.log" 2>&1 ||
	fail "meson setup: $(tail -5 "$WORK/setup.log")"
# Only what installs (not the tests): the targets meson says it installs.
targets=$(meson introspect "$build" --targets | python3 -c '
import json, os, sys
build = sys.argv[1]
for t in json.load(sys.stdin):
    if t.get("installed"):
        for f in t["filename"]:
            print(os.path.relpath(f, build))' "$build")
# shellcheck disable=SC2086 # one target a word
ninja -C "$build" $targets > "$WORK/ninja.log" 2>&1 || fail "build: $(tail -5 "$WORK/ninja.log")"
meson install -C "$build" --no-rebuild --quiet > "$WORK/install.log" 2>&1 ||
	fail "meson install: $(tail -5 "$WORK/install.log")"
for f in bin/harness libexec/hardbench/guest/init/hardbench-init \
	libexec/hardbench/workloads/hugetlb/hb-hugetlb libexec/hardbench/workloads/kbuild/hb-kbuild \
	libexec/hardbench/bench/cache-model/hb-cache-model.so share/hardbench/kernel-configs/base.config \
	share/hardbench/workloads/hugetlb/workload.ini share/hardbench/plots share/man/man1/harness.1 \
	share/man/man1/harness-run.1 share/bash-completion/completions/harness; do
	[ -e "$prefix/$f" ] || fail "not installed: $f"
done
[ -e "$prefix/share/hardbench/workloads/hugetlb/testdata" ] && fail "the parsers' testdata installed"
mv "$prefix" "$moved" || fail "cannot move the prefix"

# hidden CMD...: CMD from /, the source and build trees hidden, no HARDBENCH_* paths set.
mkdir -p "$WORK/empty" "$WORK/cwd"
cp "$src/tests/data/seed001-cook-kbuild.csv" "$WORK/"
hidden() {
	env -u HARDBENCH_SOURCE_DIR -u HARDBENCH_BUILD_DIR -u HARDBENCH_RESULTS \
		unshare -m --propagation private sh -c '
		empty=$1 src=$2 build=$3 dir=$4; shift 4
		mount --bind "$empty" "$src" && mount --bind "$empty" "$build" || exit 97
		[ -e "$src/meson.build" ] && exit 98
		cd "$dir" && exec "$@"' sh "$WORK/empty" "$src" "$build" "${HIDDEN_CWD:-/}" "$@"
}

tap_case installed_list_from_root
out=$(hidden "$moved/bin/harness" list 2>"$WORK/err"); rc=$?
[ "$rc" = 0 ] || fail "list: exit $rc: $(cat "$WORK/err")"
grep -q "^  baseline " <<<"$out" || fail "list shows no baseline variant: $out"
grep -q "^  hugetlb: " <<<"$out" || fail "list shows no hugetlb workload"
grep -q "^  6.12 " <<<"$out" || fail "list shows no 6.12 line"

tap_case installed_dry_run
out=$(hidden "$moved/bin/harness" run --dry-run --workloads hugetlb 2>"$WORK/err"); rc=$?
[ "$rc" = 0 ] || fail "run --dry-run: exit $rc: $(cat "$WORK/err")"
grep -q "^plan: the main job" <<<"$out" || fail "no plan: $out"
grep -q "^estimate: 9 cells" <<<"$out" || fail "no estimate: $out"

tap_case installed_results_under_the_current_folder
HIDDEN_CWD=$WORK/cwd hidden "$moved/bin/harness" import "$WORK/seed001-cook-kbuild.csv" \
	> "$WORK/import.out" 2>"$WORK/err" || fail "import: $(cat "$WORK/err")"
ls "$WORK/cwd/results/"*seed001-cook-kbuild/samples.jsonl > /dev/null 2>&1 ||
	fail "the result set is not under the current folder's results/: $(cat "$WORK/import.out")"
[ -e "$moved/results" ] || [ -e "$moved/share/hardbench/results" ] && fail "results written into the install"
out=$(HIDDEN_CWD=$WORK/cwd hidden "$moved/bin/harness" report "$(basename "$(cat "$WORK/import.out")")" 2>&1) ||
	fail "report by run name: $out"
grep -q "init_on_free: +4.57% wall" <<<"$out" || fail "report of the import: $out"

tap_case installed_docs
r=$(MANWIDTH=80 man --warnings -l "$moved/share/man/man1/harness-run.1" 2>&1 >/dev/null)
[ -z "$r" ] || fail "man -l harness-run.1: $r"
grep -q -- "--variants" "$moved/share/bash-completion/completions/harness" || fail "completion lacks --variants"

tap_case installed_refuses_a_data_folder_others_can_write
chmod o+w "$moved/share/hardbench"
out=$(hidden "$moved/bin/harness" list 2>&1); rc=$?
chmod o-w "$moved/share/hardbench"
[ "$rc" = 2 ] || fail "list with a world-writable data folder: exit $rc"
grep -q "installed data folder" <<<"$out" || fail "the error does not name the folder: $out"

tap_case installed_boot_from_root
out=$(hidden "$moved/bin/harness" boot baseline --clock icount --cores 1 -- cat /proc/cmdline 2>"$WORK/err"); rc=$?
[ "$rc" = 0 ] || fail "boot baseline: exit $rc: $(tail -5 "$WORK/err")"
grep -q "init=$moved/libexec/hardbench/guest/init/hardbench-init" <<<"$out" ||
	fail "the guest's init is not the installed one: $out"
grep -q "cached kernel" "$WORK/err" || fail "the installed harness did not find the cached kernel: $(head -3 "$WORK/err")"

tap_finish
