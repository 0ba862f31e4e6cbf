#!/bin/bash
# Boot-to-job of `harness boot baseline -- true` against a bare QEMU boot of the same kernel
# (same machine, accel, CPU model, vCPUs, memory and clock options) whose busybox initramfs
# init only powers off. The ratio is the guest path's overhead (goal: within 1.1x). Then
# where the harness's time goes, medians of each part (vm.json's prepare_s, boot_s, done_s,
# total_s): before and after vm_run (process start, kernel lookup and its hashes, accel,
# exit), vm_run to QEMU's start (job file, the guest's view, pin plan, virtiofsd), QEMU
# start to the init's hello (QMP pinning, kernel boot, virtiofs root, the init's start),
# hello to the init's "done" (the guest tree, vCPUs online, the job), and the power-off.
. "$(dirname "$0")/boot-common.sh"
command -v busybox >/dev/null || { echo "busybox (busybox-static) is needed"; exit 2; }

kernel=$(dry_value -kernel)
machine=$(dry_value -machine | sed 's/,memory-backend=[^,]*//')
accel=$(dry_value -accel)
cpu=$(dry_value -cpu)
# The harness's own console and clock options (quiet, tsc_*), so only the guest path differs.
tuning=$(dry_value -append | tr ' ' '\n' | grep -E '^(tsc|quiet)' | tr '\n' ' ')

mkdir -p "$work/initrd/bin" "$work/initrd/dev" "$work/initrd/proc"
cp "$(command -v busybox)" "$work/initrd/bin/busybox"
printf '#!/bin/busybox sh\n/bin/busybox poweroff -f\n' >"$work/initrd/init"
chmod +x "$work/initrd/init"
(cd "$work/initrd" && find . | cpio -o -H newc --quiet | gzip -1 >"$work/initrd.gz")

bare() {
	qemu-system-x86_64 -nodefaults -no-user-config -display none -no-reboot \
		-machine "$machine" -accel "$accel" -cpu "$cpu" -smp 2 -m 2048M \
		-kernel "$kernel" -initrd "$work/initrd.gz" -append "console=ttyS0 panic=-1 $tuning" \
		-serial "file:$work/bare-console.log"
}

# parts WHOLE: the last boot's vm.json split into the parts summed up at the end.
parts() {
	python3 - "$work/log/vm.json" "$1" "$work" <<'PY'
import json, sys
d, whole, work = json.load(open(sys.argv[1])), float(sys.argv[2]), sys.argv[3]
if 'prepare_s' not in d:  # a harness from before these timings
    sys.exit(0)
for name, v in (('p_outside', whole - d['prepare_s'] - d['total_s']), ('p_prepare', d['prepare_s']),
                ('p_jobs', d['done_s'] - d['boot_s']), ('p_off', d['total_s'] - d['done_s'])):
    open('%s/%s' % (work, name), 'a').write('%f\n' % v)
PY
}

context
echo "kernel: $kernel; machine $machine, accel $accel, cpu $cpu, extra: ${tuning:-none}"
"$harness" boot baseline -- true >/dev/null 2>&1 # warm the caches (kernel lookup, accel probe)
for i in $(seq "$runs"); do
	timed harness "$harness" boot baseline --cores 2 --log-dir "$work/log" -- true
	boot_s hello
	parts "$(tail -1 "$work/harness")"
	# Pinning is for quiet, dedicated hosts; on a busy one a pinned vCPU cannot move to an
	# idle core, which the unpinned bare QEMU can: shown apart.
	timed nopin "$harness" boot baseline --cores 2 --no-pin --log-dir "$work/log" -- true
	timed bare bare
done
summary harness "harness boot baseline -- true (whole command)"
summary hello "  of which QEMU start -> init hello"
summary nopin "the same with --no-pin"
summary bare "bare QEMU + busybox initramfs -> power-off"
[ -s "$work/p_prepare" ] || exit 0
echo "where the harness's time goes (medians of each part):"
summary p_outside "  outside vm_run (start, kernel lookup, exit)"
summary p_prepare "  vm_run to QEMU start (files, view, virtiofsd)"
summary hello "  QEMU start to the init's hello"
summary p_jobs "  hello to the init's done (tree, vCPUs, job)"
summary p_off "  done to QEMU's exit (power-off)"
ratio() { echo "scale=3; $(median "$work/$1") / $(median "$work/bare")" | bc; }
echo "ratio harness/bare: $(ratio harness)x (--no-pin: $(ratio nopin)x)"
