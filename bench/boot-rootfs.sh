#!/bin/bash
# The host root over virtiofs against 9p on a file-heavy job: `find /usr -type f | wc -l`
# (job wall time as the guest init measured it, and the whole command).
default_runs=3 # 9p takes minutes per run under TCG
. "$(dirname "$0")/boot-common.sh"

job_wall() { python3 -c "import json; print(json.load(open('$work/log/vm.json'))['reps'][0]['wall_s'])" >>"$work/$1"; }

context
"$harness" boot baseline -- true >/dev/null 2>&1 # warm the caches
for i in $(seq "$runs"); do
	for fs in virtiofs 9p; do
		timed "$fs" "$harness" boot baseline $pin_opt --rootfs "$fs" --log-dir "$work/log" \
			-- sh -c 'find /usr -type f | wc -l'
		job_wall "$fs.job"
		files=$(cat "$work/last.out")
	done
done
echo "files found under /usr: $files"
for fs in virtiofs 9p; do
	summary "$fs.job" "$fs: find /usr -type f | wc -l (job wall)"
	summary "$fs" "$fs: whole command"
done
echo "ratio 9p/virtiofs (job): $(echo "scale=2; $(median "$work/9p.job") / $(median "$work/virtiofs.job")" | bc)x"
