#!/usr/bin/env python3
"""The main job's time estimate against what its cells really took, per workload: the
estimate of `harness run --dry-run` (the main job's plan on this host), the cells' wall
seconds and their cpu_seconds (QEMU's and virtiofsd's host CPU time, which host load does
not stretch; sets from before cells.jsonl recorded it show '-'), from one or more result
sets of the main job (its halves, run apart or merged); then each set's own estimate, the
one its plan printed before the first boot (meta.json "estimate": paced by the host's
pace.json of that moment), against the wall time its cells took, as an error in percent,
with the host's load during the run. Prints figures; asserts nothing.

Usage: bench/main-job-estimate.py HARNESS SET..."""
import collections
import json
import os
import re
import subprocess
import sys

CELL = re.compile(r'^\s*\d+\s+(\S+)\s+(\S+)\s+(\S+)\s+(\d+) vCPUs\s+boot (\d+)\s+to run\s+~(\S+)$')


def seconds(text):
    """'3m32s', '1h02m', '18.0s' -> seconds."""
    total = 0.0
    for value, unit in re.findall(r'([\d.]+)([hms])', text):
        total += float(value) * {'h': 3600, 'm': 60, 's': 1}[unit]
    return total


def estimates(harness):
    out = subprocess.run([harness, 'run', '--dry-run'], capture_output=True, text=True, check=True).stdout
    est = collections.defaultdict(float)
    count = collections.Counter()
    for line in out.splitlines():
        m = CELL.match(line)
        if m:
            est[m.group(3)] += seconds(m.group(6))
            count[m.group(3)] += 1
    return est, count


def measured(sets):
    wall = collections.defaultdict(float)
    cpu = collections.defaultdict(float)
    cells = collections.Counter()
    cpu_known = collections.defaultdict(lambda: True)
    for s in sets:
        with open(os.path.join(s, 'cells.jsonl')) as f:
            for line in f:
                e = json.loads(line)
                if e.get('status') != 'ok':
                    continue
                workload = e['cell'].split(':')[-1].split('/')[1]
                cells[workload] += 1
                wall[workload] += e['seconds']
                if 'cpu_seconds' in e:
                    cpu[workload] += e['cpu_seconds']
                else:
                    cpu_known[workload] = False
    return wall, cpu, cells, cpu_known


def minutes(s):
    return f'{s / 60:6.1f}'


def usage_error(text):
    print(f'main-job-estimate.py: {text}', file=sys.stderr)
    sys.exit(2)


def main():
    if len(sys.argv) < 3 or not (os.path.isfile(sys.argv[1]) and os.access(sys.argv[1], os.X_OK)):
        bad = sys.argv[1] if len(sys.argv) > 1 else '(none)'
        usage_error(f"'{bad}' is not the harness program (usage: HARNESS SET..., e.g. "
                    "build/harness results/RUN)")
    harness, sets = sys.argv[1], sys.argv[2:]
    for s in sets:
        if not os.path.isfile(os.path.join(s, 'cells.jsonl')):
            usage_error(f"'{s}' is not a result set (accepted: a folder with cells.jsonl)")
    est, planned = estimates(harness)
    wall, cpu, cells, cpu_known = measured(sets)
    print('minutes per workload: the estimate of the cells measured (the whole plan in brackets),')
    print('their wall time and their host CPU time; then estimate / wall and estimate / cpu')
    print(f"{'workload':<14}{'cells':>8}{'estimate':>16}{'wall':>8}{'cpu':>8}{'e/wall':>8}{'e/cpu':>7}")
    totals = [0.0, 0.0, 0.0, 0.0]
    for w in sorted(set(est) | set(wall)):
        done = est[w] / planned[w] * cells[w] if planned[w] else 0.0
        c = cpu[w] if cpu_known[w] and cells[w] else None
        ratio_w = f'{done / wall[w]:.2f}' if wall[w] else '-'
        ratio_c = f'{done / c:.2f}' if c else '-'
        print(f"{w:<14}{cells[w]:>4}/{planned[w]:<3}{minutes(done):>8} [{minutes(est[w])}]{minutes(wall[w]):>8}"
              f"{minutes(c) if c is not None else '     -':>8}{ratio_w:>8}{ratio_c:>7}")
        totals[0] += done
        totals[1] += est[w]
        totals[2] += wall[w]
        totals[3] += c or 0
    print(f"{'all':<14}{sum(cells.values()):>4}/{sum(planned.values()):<3}{minutes(totals[0]):>8} "
          f"[{minutes(totals[1])}]{minutes(totals[2]):>8}{minutes(totals[3]):>8}")
    own_estimates(sets)


def own_estimates(sets):
    """Each set's start estimate (paced then) against its cells' wall time."""
    print('each set: the estimate its plan printed (workload.ini alone in brackets), its cells\' '
          'wall minutes, the error, the host load (1-minute average, mean over its boots)')
    for s in sets:
        meta = json.load(open(os.path.join(s, 'meta.json')))
        e = meta.get('estimate') or {}
        wall, _, _, _ = measured([s])
        total = sum(wall.values())
        load = (meta.get('host_load') or {}).get('mean')
        if 'seconds' not in e or not total:
            print(f'  {s}: no estimate recorded')
            continue
        err = (e['seconds'] - total) / total * 100
        print(f"  {s}: {minutes(e['seconds'])} [{minutes(e.get('workload_ini_seconds', 0))}] for "
              f"{minutes(total)} wall: {err:+.0f}%, load {load:.1f}" if load is not None else
              f"  {s}: {minutes(e['seconds'])} for {minutes(total)} wall: {err:+.0f}%")


if __name__ == '__main__':
    main()
