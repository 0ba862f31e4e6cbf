#!/usr/bin/env python3
"""The main job measures every seed figure it can: for each workload in the default set
(workload.ini default_order), every variant and baseline_variant its published.json
compares on its kernel line (default_kernel, else 6.1) is in its default_variants, and
every default_variants name is a variant of kernel-configs/ (a typo would drop the
variant from the main job silently).

Usage: default_variants.py SOURCE_ROOT. TAP, one case per workload."""
import configparser
import json
import os
import sys

DEFAULT_LINE = "6.1"


def workload_ini(path):
    ini = configparser.ConfigParser(interpolation=None, strict=False)
    with open(path) as f:
        ini.read_string(f.read())
    return ini["workload"] if ini.has_section("workload") else {}


def check(root, name):
    """Problems of one workload, or None when it is not in the default set."""
    wl = workload_ini(os.path.join(root, "workloads", name, "workload.ini"))
    if "default_order" not in wl:
        return None
    problems = []
    line = wl.get("default_kernel", DEFAULT_LINE)
    listed = wl.get("default_variants")
    if listed is None:
        return ["no default_variants: the main job would run every variant on it"]
    listed = [v.strip() for v in listed.split(",")]
    for v in listed:
        if not os.path.isfile(os.path.join(root, "kernel-configs", "variants", v + ".variant")):
            problems.append(f"default_variants names '{v}', which kernel-configs/variants/ lacks")
    published = os.path.join(root, "workloads", name, "published.json")
    figures = json.load(open(published))["figures"] if os.path.exists(published) else []
    for f in figures:
        if f.get("kernel_line", DEFAULT_LINE) != line:
            continue
        for key in ("variant", "baseline_variant"):
            if f[key] not in listed:
                problems.append(f"seed {f['seed']} line {f['line']} compares '{f[key]}', "
                                f"not in default_variants")
    return sorted(set(problems))


def main():
    root = sys.argv[1]
    names = sorted(os.listdir(os.path.join(root, "workloads")))
    results = [(n, check(root, n)) for n in names
               if os.path.isfile(os.path.join(root, "workloads", n, "workload.ini"))]
    results = [(n, p) for n, p in results if p is not None]
    print(f"1..{len(results)}")
    failed = 0
    for i, (name, problems) in enumerate(results, 1):
        print(f"{'not ok' if problems else 'ok'} {i} - {name}")
        for p in problems:
            print(f"# {name}: {p}")
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
