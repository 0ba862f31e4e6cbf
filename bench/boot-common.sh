# Shared by bench/boot-*.sh (sourced). Figures only: nothing here asserts speed.
# Usage of the scripts: boot-X.sh [HARNESS] (default: ./harness, i.e. run from the build
# dir); BENCH_RUNS=N (default 5, or the script's default_runs) runs per configuration,
# interleaved, median reported; BENCH_NO_PIN=1 boots with --no-pin (on a busy shared host
# pinned vCPUs cannot dodge other load, which swamps the differences being measured).
set -u
harness=${1:-./harness}
runs=${BENCH_RUNS:-${default_runs:-5}}
pin_opt=${BENCH_NO_PIN:+--no-pin}
[ -x "$harness" ] || { echo "no harness at '$harness' (give the path as the first argument)"; exit 2; }
work=$(mktemp -d /tmp/hardbench-bench-XXXXXX)
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }

# median FILE: the median of the numbers in FILE (one per line).
median() { sort -g "$1" | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

# timed NAME CMD...: runs CMD, appends its wall seconds to $work/NAME.
timed() {
	local name=$1 t0 t1
	shift
	t0=$(now)
	"$@" >"$work/last.out" 2>"$work/last.err" || { echo "failed: $*"; cat "$work/last.err"; exit 1; }
	t1=$(now)
	echo "$t1 - $t0" | bc >>"$work/$name"
}

# boot_s NAME: appends the QEMU-start-to-hello time of the last boot (vm.json) to NAME.
boot_s() { python3 -c "import json; print(json.load(open('$work/log/vm.json'))['boot_s'])" >>"$work/$1"; }

# dry VAR OPTION ARGS...: the value of OPTION in harness boot's --dry-run QEMU command.
dry_value() {
	local opt=$1
	shift
	"$harness" boot baseline --dry-run "$@" -- true 2>/dev/null |
		sed -n "s/^  $opt '\{0,1\}\([^']*\)'\{0,1\} \\\\\$/\1/p" | head -1
}

context() {
	echo "host: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), $(qemu-system-x86_64 --version | head -1)"
	echo "runs per configuration: $runs (interleaved; median [min..max])${pin_opt:+; harness boots with $pin_opt}"
}

# summary NAME LABEL: "LABEL median s [min..max]".
summary() {
	printf '%-44s %7.3f s  [%.3f..%.3f]\n' "$2" "$(median "$work/$1")" \
		"$(sort -g "$work/$1" | head -1)" "$(sort -g "$work/$1" | tail -1)"
}
