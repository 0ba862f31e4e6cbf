#!/bin/sh
# Kernel build benchmark (prints figures; not a test):
#   1. cold `harness build base`: empty kernel cache and an empty ccache
#   2. cached `harness build base` (goal: under 1 s), best and mean of 5
#   3. each patched build after base, ccache warm (goal: under 25% of the cold time)
#   4. kasan cold (its -fsanitize flags share no ccache entry with base)
#   5. kasan-vmalloc, with --kasan-vmalloc
# Everything goes to a scratch cache with its own CCACHE_DIR, so the figures do not depend
# on what the machine built before, and the real cache is left alone.
#
#   bench/kbuild-bench.sh HARNESS [--jobs N] [--keep DIR] [--kasan-vmalloc] [--skip-kasan]
#
# --keep DIR keeps the scratch folder. A later run with the same DIR takes the figures of
# builds already there from their manifests (marked "earlier run") and builds only what
# is missing, e.g. patched builds whose patches arrived since.
set -eu
HARNESS=$(realpath "$1"); shift
JOBS=$(nproc); KEEP=; VMALLOC=; KASAN=1
while [ $# -gt 0 ]; do
	case $1 in
	--jobs) JOBS=$2; shift 2 ;;
	--keep) KEEP=$2; shift 2 ;;
	--kasan-vmalloc) VMALLOC=1; shift ;;
	--skip-kasan) KASAN=; shift ;;
	*) echo "kbuild-bench: unknown option '$1' (accepted: --jobs N, --keep DIR, --kasan-vmalloc, --skip-kasan)" >&2; exit 2 ;;
	esac
done
if [ -n "$KEEP" ]; then
	B=$(realpath -m "$KEEP"); mkdir -p "$B"
else
	B=$(mktemp -d /tmp/hardbench-kbuild-bench-XXXXXX)
	trap 'chmod -R u+w "$B" 2>/dev/null; rm -rf "$B"' EXIT
fi
export HARDBENCH_CACHE="$B/cache" CCACHE_DIR="$B/ccache"
RESULTS="$B/figures.txt"
PATCHES="$(dirname "$(realpath "$0")")/../kernel-configs/patches"

now() { date +%s.%N; }
figure() { printf '%-36s %s\n' "$1" "$2" | tee -a "$RESULTS"; }
pct() { echo "100 * $1 / $2" | bc -l | xargs printf '%.0f%%'; }
# A Python expression over the manifest m of the entry the last build printed.
field() { python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$ENTRY/manifest.json" "$1"; }
ccache_figure() { field '"%s hits / %s misses, %d compiles" % (m["stats"]["ccache"]["hits"], m["stats"]["ccache"]["misses"], m["stats"]["compiles"]) if m["stats"]["ccache"] else "no ccache"'; }

# CPU seconds (user + system of make and all it ran) from the manifest: unlike wall
# time, other processes on a shared machine do not inflate it.
cpu() { field 'm["stats"].get("cpu_seconds", float("nan"))'; }

# build NAME: sets ENTRY, WALL (seconds), CPU and WHEN ("" or " (earlier run)"). A build
# already in a kept cache reports the time its manifest recorded.
build() {
	WHEN=
	if "$HARNESS" build --dry-run "$1" 2>/dev/null | grep -q "^$1: cached"; then WHEN=" (earlier run)"; fi
	t0=$(now)
	"$HARNESS" build "$1" --jobs "$JOBS" > "$B/out" 2> "$B/err" || { cat "$B/err" >&2; return 1; }
	WALL=$(echo "$(now) - $t0" | bc)
	ENTRY=$(sed -n 's/^[^:]*: \(.*\) (release .*)$/\1/p' "$B/out")
	[ -z "$WHEN" ] || WALL=$(field 'm["stats"]["seconds"]["total"]')
	CPU=$(cpu)
}

echo "kbuild benchmark $(date -u +%FT%TZ): jobs $JOBS, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), scratch $B" | tee -a "$RESULTS"

build base
COLD=$WALL; COLD_CPU=$CPU
figure "base cold$WHEN" "$(printf '%.1f s wall, %.1f s CPU' "$COLD" "$COLD_CPU")"
figure "  prepare / configure / compile" "$(field '"%.1f / %.1f / %.1f s" % tuple(m["stats"]["seconds"][k] for k in ("prepare", "configure", "compile"))')"
figure "  ccache" "$(ccache_figure)"

BEST=; SUM=0
for i in 1 2 3 4 5; do
	t0=$(now)
	"$HARNESS" build base > /dev/null 2>&1
	W=$(echo "$(now) - $t0" | bc)
	SUM=$(echo "$SUM + $W" | bc)
	if [ -z "$BEST" ] || [ "$(echo "$W < $BEST" | bc)" = 1 ]; then BEST=$W; fi
done
figure "base cached (best / mean of 5)" "$(printf '%.3f s / %.3f s (goal < 1 s)' "$BEST" "$(echo "$SUM / 5" | bc -l)")"

for b in exclusions hugetlb-noinit unix-noinit; do
	if ! ls "$PATCHES/$b/"*.patch > /dev/null 2>&1; then
		figure "$b after base" "skipped: no patches in $PATCHES/$b"
		continue
	fi
	if build "$b"; then
		figure "$b after base$WHEN" "$(printf '%.1f s wall = %s of cold (goal < 25%%)' "$WALL" "$(pct "$WALL" "$COLD")")"
		figure "  CPU" "$(printf '%.1f s = %s of cold' "$CPU" "$(pct "$CPU" "$COLD_CPU")")"
		figure "  ccache" "$(ccache_figure)"
	else
		figure "$b after base" "FAILED (error above)"
	fi
done

if [ -n "$KASAN" ]; then
	build kasan
	figure "kasan cold$WHEN" "$(printf '%.1f s wall = %s of base cold; %.1f s CPU = %s' "$WALL" "$(pct "$WALL" "$COLD")" "$CPU" "$(pct "$CPU" "$COLD_CPU")")"
	figure "  ccache" "$(ccache_figure)"
fi
if [ -n "$VMALLOC" ]; then
	build kasan-vmalloc
	figure "kasan-vmalloc after kasan$WHEN" "$(printf '%.1f s wall, %.1f s CPU' "$WALL" "$CPU")"
	figure "  ccache" "$(ccache_figure)"
fi
echo "figures also in $RESULTS"
