#!/bin/bash
# What an instruction clock does not see: per variant, the data-cache traffic of a guest
# command through the cache model of bench/cache-model/ (`harness boot --qemu-plugin`,
# icount, TCG). Each boot runs the command and a second boot runs `true`; the difference
# is the command's (module loads and the boot itself cancel out). Prints, per variant,
# the mean over the boots of: data accesses, first-level misses, second-level misses (and
# the same for accesses to the KASAN shadow), guest pages touched for the first time, the
# command's own figure when it prints an "avg: N usec" line, and each count's ratio to
# the first variant's.
# Usage: bench/cache-model.sh HARNESS [BOOTS [VARIANTS [-- CMD...]]]
#   BOOTS default 3, VARIANTS default kasan,kasan-vmalloc, CMD default the test_vmalloc
#   module's pcpu_alloc_test in seed 004's performance mode (one worker, 2000 loops).
# Issue 20's reading: docs/validation-log.md, seed 004's last row.
set -eu
harness=${1:?usage: bench/cache-model.sh HARNESS [BOOTS [VARIANTS [-- CMD...]]]}
boots=${2:-3}
variants=${3:-kasan,kasan-vmalloc}
shift $(($# < 3 ? $# : 3))
[ "${1:-}" = -- ] && shift
build=$(cd "$(dirname "$harness")" && pwd)
plugin=$build/bench/cache-model/hb-cache-model.so
[ -f "$plugin" ] || { echo "no $plugin: build first (ci/setup.sh build)" >&2; exit 2; }
if [ $# -eq 0 ]; then
	set -- "$build/workloads/test_vmalloc/hb-test-vmalloc" run_test_mask=128 \
		sequential_test_order=1 test_loop_count=2000 test_repeat_count=1
fi
work=$(mktemp -d /tmp/hardbench-cache-model-XXXXXX)
trap 'rm -rf "$work"' EXIT

# one VARIANT BOOT KIND CMD...: a boot with the plugin; its counts, and the command's avg
# usec if it printed one, as "variant kind name value" lines in $work/counts.
one() {
	local v=$1 b=$2 kind=$3
	shift 3
	"$harness" boot "$v" --clock icount --cores 1 --log-dir "$work/$v-$b-$kind" \
		--qemu-plugin "$plugin" -- "$@" >"$work/out" 2>"$work/err" ||
		{ echo "boot $v failed:" >&2; tail -3 "$work/err" >&2; exit 1; }
	sed -n "s/^hb-cache-model: /$v $kind /p" "$work/$v-$b-$kind/qemu.log" >>"$work/counts"
	sed -n "s/.*avg: \([0-9]*\) usec.*/$v $kind usec \1/p" "$work/out" >>"$work/counts"
}

echo "command: $*; $boots boot(s) of each, icount, 1 vCPU; host load $(cut -d' ' -f1-3 /proc/loadavg)"
for b in $(seq "$boots"); do
	for v in ${variants//,/ }; do
		echo "boot $b/$boots: $v" >&2
		one "$v" "$b" cmd "$@"
		one "$v" "$b" true true
	done
done
awk -v order="$variants" '
	{ sum[$1 SUBSEP $3] += ($2 == "cmd" ? $4 : -$4); n[$1 SUBSEP $3 SUBSEP $2]++; names[$3] = 1 }
	END {
		nv = split(order, vs, ",")
		split("usec accesses l1_misses l2_misses range_accesses range_l1_misses range_l2_misses first_touched_4k_pages first_touched_2m_pages", keys, " ")
		printf "%-24s", "command minus true"
		for (i = 1; i <= nv; i++) printf " %16s", vs[i]
		for (i = 2; i <= nv; i++) printf " %9s", vs[i] "/" vs[1]
		printf "\n"
		for (k = 1; k in keys; k++) {
			key = keys[k]
			if (!(key in names)) continue
			printf "%-24s", (key ~ /^range_/ ? "shadow_" substr(key, 7) : key)
			for (i = 1; i <= nv; i++) {
				c = n[vs[i] SUBSEP key SUBSEP "cmd"]
				mean[i] = c ? sum[vs[i] SUBSEP key] / c : 0
				printf " %16.0f", mean[i]
			}
			for (i = 2; i <= nv; i++) printf " %9s", mean[1] ? sprintf("%.3fx", mean[i] / mean[1]) : "-"
			printf "\n"
		}
	}' "$work/counts"
echo "(usec: the command's own time under icount, not minus anything; the model: 32 KiB 8-way, 1 MiB 16-way, 64-byte lines)"
