#!/bin/bash
# Real boots of the baseline variant through `harness boot` (TCG here, KVM where it works).
# Usage: guest.sh HARNESS CHECK; one check per run, listed in meson.build.
# Exit 0 pass, 1 fail, 77 skip (with the reason on stdout).
set -u
harness=$1
check=$2

. "$(dirname "$0")/boot_lib.sh" # skip, fail, and the SKIP of a host that cannot boot

log=$(mktemp -d /tmp/hardbench-guest-test-XXXXXX)
out=$log.out
err=$log.err
trap 'rm -rf "$log" "$out" "$err"' EXIT

# Physical cores (not hyperthreads): what --cores is checked against.
host_cores=$(lscpu -p=CORE,SOCKET | grep -v '^#' | sort -u | wc -l)

# boot ARGS... -- CMD...: runs harness boot baseline; sets rc; output in $out/$err.
boot() {
	"$harness" boot baseline --log-dir "$log/boot" "$@" >"$out" 2>"$err"
	rc=$?
	echo "--- harness boot baseline $* -> $rc"
	sed 's/^/stdout: /' "$out"
	sed 's/^/stderr: /' "$err"
}

json() { python3 -c "import json,sys; d=json.load(open('$log/boot/vm.json')); print($1)"; }

expect_rc() { [ "$rc" -eq "$1" ] || fail "exit status $rc, expected $1"; }
expect_err() { grep -qF -- "$1" "$err" || fail "stderr lacks '$1'"; }

# No QEMU or virtiofsd may outlive a boot, whatever happened to it.
expect_no_leftovers() {
	if pgrep -f -- "$log/boot" >/dev/null; then
		fail "processes still running for $log/boot: $(pgrep -af -- "$log/boot")"
	fi
}

case $check in
true)
	boot -- true
	expect_rc 0
	[ "$(json "d['status']")" = 0 ] || fail "vm.json status is not 0"
	[ "$(json "len(d['reps'])")" = 1 ] || fail "vm.json does not hold exactly one rep"
	;;
false)
	boot -- false
	expect_rc 1
	expect_err "'false' exited with status 1"
	;;
cmdline)
	variant=${HARDBENCH_SOURCE_DIR:-.}/kernel-configs/variants/baseline.variant
	want=$(sed -n 's/^cmdline *= *//p' "$variant")
	[ -n "$want" ] || fail "no cmdline in $variant"
	boot -- cat /proc/cmdline
	expect_rc 0
	for opt in $want; do
		grep -qw -- "$opt" "$out" || fail "/proc/cmdline lacks the variant's '$opt'"
	done
	;;
nproc)
	cores=$(( host_cores >= 2 ? 2 : 1 ))
	boot --cores "$cores" -- nproc
	expect_rc 0
	[ "$(cat "$out")" = "$cores" ] || fail "nproc printed '$(cat "$out")', expected $cores"
	;;
icount-smp)
	# Under icount (QEMU < 8.1: maxcpus=1, the init brings vCPU 1 online) a 2-vCPU guest
	# sees both, and the guest clock ticks at exactly 1 GHz (its TSC is the icount clock);
	# the APIC timer's rate is given (no calibration spin), and the kernel knew the option
	# (kernel-configs/patches/common: an unknown one would be in the init's environment).
	cores=$(( host_cores >= 2 ? 2 : 1 ))
	boot --clock icount --cores "$cores" -- sh -c 'nproc; cat /sys/devices/system/cpu/online; grep -m1 -o "tsc_early_khz=[0-9]*" /proc/cmdline; grep -m1 -o "lapic_timer_khz=[0-9]*" /proc/cmdline; tr "\0" "\n" < /proc/1/environ | grep -c "^lapic_timer_khz=" || true'
	expect_rc 0
	[ "$(sed -n 1p "$out")" = "$cores" ] || fail "nproc printed '$(sed -n 1p "$out")', expected $cores"
	[ "$(sed -n 3p "$out")" = "tsc_early_khz=1000000" ] || fail "icount TSC rate: '$(sed -n 3p "$out")'"
	[ "$(sed -n 4p "$out")" = "lapic_timer_khz=1000000" ] || fail "icount APIC timer rate: '$(sed -n 4p "$out")'"
	[ "$(sed -n 5p "$out")" = 0 ] || fail "the kernel did not know lapic_timer_khz= (passed to init)"
	;;
readonly)
	boot -- sh -c 'echo x > /probe'
	[ "$rc" -ne 0 ] || fail "writing /probe on the host root succeeded"
	expect_err "Read-only file system"
	[ ! -e /probe ] || fail "/probe appeared on the host"
	boot -- sh -c 'echo writable > /tmp/probe && cat /tmp/probe'
	expect_rc 0
	[ "$(cat "$out")" = writable ] || fail "/tmp is not writable in the guest"
	;;
timeout)
	# Long enough to boot on a loaded TCG host, so the job phase is the one that hangs.
	boot --timeout 60 -- sleep 3600
	expect_rc 124
	expect_err "timed out after 60 s while job 0 rep 0 ('sleep 3600') was running"
	expect_err "console log: $log/boot/console.log"
	expect_no_leftovers
	;;
panic)
	boot -- sh -c 'echo c > /proc/sysrq-trigger'
	expect_rc 125
	expect_err "kernel crashed during job: Kernel panic - not syncing: sysrq triggered crash"
	expect_no_leftovers
	;;
too-many-cores)
	boot --cores $((host_cores + 1)) -- true
	expect_rc 2
	expect_err "--cores $((host_cores + 1)): this host has $host_cores physical cores"
	[ ! -e "$log/boot" ] || fail "something was started (the log dir exists)"
	;;
pin-map)
	[ "$host_cores" -ge 2 ] || skip "this host has $host_cores physical core(s); the check needs 2"
	boot --cores 2 -- true
	expect_rc 0
	[ "$(json "len(d['pin_map'])")" = 2 ] || fail "pin_map does not have 2 vCPUs"
	[ "$(json "len({e['core'] for e in d['pin_map']})")" = 2 ] || fail "vCPUs share a core"
	[ "$(json "len({e['pu'] for e in d['pin_map']})")" = 2 ] || fail "vCPUs share a PU"
	[ "$(json "all(e['thread'] > 0 for e in d['pin_map'])")" = True ] || fail "no thread ids"
	[ "$(json "sorted(e['vcpu'] for e in d['pin_map'])")" = "[0, 1]" ] || fail "vCPU indexes"
	json "d['pin_note']"
	;;
irq)
	# --irq: the init counts /proc/interrupts rows over the job. With 2 vCPUs, starting a
	# few processes sends function-call IPIs (CAL > 0); a row the kernel lacks is reported
	# missing with its reason, never as 0.
	[ "$host_cores" -ge 2 ] || skip "this host has $host_cores physical core(s); the check needs 2"
	boot --cores 2 --irq CAL,NOPE -- sh -c 'for i in 1 2 3 4 5 6 7 8; do /bin/true; done'
	expect_rc 0
	cal=$(json "d['reps'][0]['irq']['CAL']")
	[ "$cal" -gt 0 ] 2>/dev/null || fail "CAL delta '$cal', expected a count above 0"
	[ "$(json "d['reps'][0]['irq']['NOPE']['missing']")" = "no row 'NOPE' in the guest's /proc/interrupts" ] ||
		fail "NOPE is not reported missing"
	expect_err "rep 1: interrupts CAL +$cal, NOPE (no row 'NOPE'"
	;;
qemu-plugin)
	# --qemu-plugin loads bench/cache-model's plugin into QEMU: it counts the guest's data
	# accesses through its cache model and prints them on QEMU's stderr (qemu.log) at exit.
	plugin=$(dirname "$harness")/bench/cache-model/hb-cache-model.so
	[ -f "$plugin" ] || fail "$plugin was not built"
	boot --qemu-plugin /nonexistent/x.so,l1=65536 -- true
	expect_rc 2
	expect_err "--qemu-plugin /nonexistent/x.so,l1=65536: no such file '/nonexistent/x.so'"
	boot --accel kvm --dry-run --qemu-plugin "$plugin" -- true
	expect_rc 2
	expect_err "--qemu-plugin: QEMU runs plugins only under TCG, and the accel is kvm"
	boot --accel tcg --clock icount --qemu-plugin "$plugin,l2=2097152" -- true
	expect_rc 0
	count() { sed -n "s/^hb-cache-model: $1 //p" "$log/boot/qemu.log"; }
	acc=$(count accesses) l1=$(count l1_misses) l2=$(count l2_misses) pages=$(count first_touched_4k_pages)
	echo "accesses $acc, l1 misses $l1, l2 misses $l2, pages first touched $pages"
	[ "${acc:-0}" -gt 1000000 ] || fail "accesses '$acc': a boot makes millions"
	[ "${l1:-0}" -gt 0 ] && [ "$l1" -lt "$acc" ] || fail "l1 misses '$l1' not in (0, $acc)"
	[ "${l2:-0}" -gt 0 ] && [ "$l2" -le "$l1" ] || fail "l2 misses '$l2' not in (0, $l1]"
	[ "${pages:-0}" -gt 0 ] || fail "no page first touched"
	;;
model-clock)
	# --clock model end to end on one small cell: hugetlb's 16-page pool under icount with
	# plugins/model's plugin; every sample says model, model.jsonl keeps the counts of the
	# marked sections, the section of the timed write holds what the guest timed (its
	# instructions are its icount nanoseconds), and each sample is its guest value scaled
	# by the model of docs/model.md, recomputed here from the counts and meta.json's constants.
	plugin=$(dirname "$harness")/plugins/model/hb-model.so
	[ -f "$plugin" ] || fail "$plugin was not built"
	set_dir=$log/model-run
	"$harness" run --clock model --accel tcg --workloads hugetlb --variants baseline --cores 1 \
		--boots 1 --param hugetlb.pages=16 --out "$set_dir" --no-report >"$out" 2>"$err"
	rc=$?
	sed 's/^/stderr: /' "$err" | tail -5
	expect_rc 0
	python3 - "$set_dir" <<'PY' || fail "model run's samples, counts or prices"
import json, sys
d = sys.argv[1]
meta = json.load(open(d + "/meta.json"))
assert meta["clock"]["name"] == "model", meta["clock"]
k = meta["clock"]["model"]
samples = [json.loads(l) for l in open(d + "/samples.jsonl")]
recs = [json.loads(l) for l in open(d + "/model.jsonl")]
assert samples and all(s["clock"] == "model" for s in samples), "a sample not on the model clock"
assert len(recs) == 1, "one repetition, one record: %d" % len(recs)
rec = recs[0]
secs = {s["id"]: s for s in rec["sections"]}
assert set(secs) == {1, 2}, "sections of the alloc (1) and release (2) writes: %s" % sorted(secs)
def price(f, full):
    if not full:
        return f[0]
    nstos, nmovs = sum(f[1:5]), sum(f[5:9])
    b = lambda i: f[i] + 2 * f[i + 1] + 4 * f[i + 2] + 8 * f[i + 3]
    return (k["t_insn_ns"] * (f[0] - nstos - nmovs) + k["t_stos_ns_per_byte"] * b(1) +
            k["t_movs_ns_per_byte"] * b(5) + k["t_start_ns"] * (f[10] + f[11]) +
            k["t_l2_hit_ns"] * f[12] + k["t_l2_miss_ns"] * f[13] +
            k["t_stos_ns_per_byte"] * 4096 * f[14])
def scoped(sec, scope, full):
    modes = {"all": ["kernel", "user"], "kernel": ["kernel"], "user": ["user"]}[scope]
    return sum(price(sec[m], full) for m in modes)
value = {s["metric"]: s["value"] for s in samples}
for m in rec["metrics"]:
    sec = secs[m["id"]]
    want = m["guest"] * scoped(sec, m["scope"], True) / scoped(sec, m["scope"], False)
    assert abs(value[m["metric"]] - want) <= 1e-9 * abs(want), (m, value[m["metric"]], want)
    assert abs(value[m["metric"]] - m["guest"]) > 1e-3 * m["guest"], "not repriced: %s" % m
wall = [m for m in rec["metrics"] if m["metric"] == "wall"][0]
insns = secs[1]["kernel"][0] + secs[1]["user"][0]
# the markers sit inside the guest's clock reads: the section is the timed write, less
# the tail of one clock read
assert insns <= wall["guest"] * 1e9 <= insns + 5000, (insns, wall["guest"])
print("model run: %d samples, wall %.6f s guest, %.6f s modelled, section %d instructions"
      % (len(samples), wall["guest"], value["wall"], insns))
PY
	;;
*)
	echo "unknown check '$check'"
	exit 2
	;;
esac
echo "PASS: $check"
