#!/usr/bin/env python3
"""The validation table of docs/model.md: per seed and workload, the rows `harness report
--against-seeds` compares, how many agree within 2x (same sign, effect within a factor of 2)
and the median |log2(measured effect / published effect)| (a row of opposite sign or no
defined factor counts as infinitely far), for three readings of the same boots: icount (the
guest's own clock), the one-parameter model and the full model. Fitted seeds and held-out
seeds apart, with a total per half.

Each reading is a copy of the --clock model sets' samples with every priced metric
recomputed from model.jsonl (bench/model_readings.py), run through the harness's own
seeds report (--format json), so the rows and their judgement are the report's.

Usage: bench/model-validation.py HARNESS [--fitted 000,001] [--rows] [--t-stos X --onep C] SET...
  SET: result sets of --clock model runs (their samples and model.jsonl). A figure measured
  in several sets counts once (the first set that measures it). --rows: every row's
  published and measured effects per reading, after the table. Markdown on stdout."""
import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import model_readings as mr  # noqa: E402

READINGS = [("icount", "icount"), ("onep", "one-parameter"), ("full", "full model")]


def derived_set(set_dir, reading, into, overrides):
    """A copy of set_dir whose priced samples hold the reading's values."""
    meta, records = mr.load(set_dir)
    k = dict(meta["clock"]["model"], **overrides)
    values = {key: mr.reading_value(m, s, reading, k) for key, m, s in mr.priced_metrics(records)}
    os.makedirs(into)
    shutil.copy(os.path.join(set_dir, "meta.json"), into)
    with open(os.path.join(set_dir, "samples.jsonl")) as src, \
            open(os.path.join(into, "samples.jsonl"), "w") as dst:
        for line in src:
            s = json.loads(line)
            key = (s["variant"], s["workload"], s.get("kernel_line", "6.1"), s.get("cores"),
                   s.get("boot"), s.get("rep"), s["metric"])
            if key in values:
                s["value"] = values[key]
            dst.write(json.dumps(s) + "\n")


def seed_rows(harness, set_dir):
    out = subprocess.run([harness, "report", set_dir, "--against-seeds", "--format", "json"],
                         check=True, capture_output=True, text=True).stdout
    return [r for r in json.loads(out)["comparisons"] if r["measured"]["status"] == "measured"]


def row_key(r):
    return (r["file"], r["line"], r["variant"], r["baseline_variant"], r["measured"]["metric"],
            r["measured"]["workload"], r["published"]["conditions"]["cores"],
            r["measured"]["conditions"]["cores"], json.dumps(r["quote"]))


def distance(r):
    f = r["agreement"]["factor"]
    return abs(math.log2(f)) if f is not None and f > 0 else math.inf


def within(r):
    return r["agreement"]["sign"] == "same" and r["agreement"]["within_2x"]


def fmt_median(xs):
    if not xs:
        return "-"
    m = statistics.median(xs)
    return "inf" if math.isinf(m) else "%.2f" % m


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("harness")
    ap.add_argument("--fitted", default="000,001")
    ap.add_argument("--rows", action="store_true")
    ap.add_argument("--t-stos", type=float, help="the fitted t_stos (t_movs = 2 t_stos), for "
                    "sets that ran before the fit; default: each set's meta.json")
    ap.add_argument("--onep", type=float, help="the fitted c of the one-parameter model")
    ap.add_argument("sets", nargs="+")
    a = ap.parse_args()
    fitted = set(a.fitted.split(","))
    overrides = {}
    if a.t_stos is not None:
        overrides.update(t_stos_ns_per_byte=a.t_stos, t_movs_ns_per_byte=2 * a.t_stos)
    if a.onep is not None:
        overrides["onep_stos_ns_per_byte"] = a.onep
    rows = {}  # reading -> key -> row
    tmp = tempfile.mkdtemp(prefix="hardbench-model-validation-")
    try:
        for reading, _ in READINGS:
            rows[reading] = {}
            for i, s in enumerate(a.sets):
                d = os.path.join(tmp, "%s-%d" % (reading, i))
                derived_set(s, reading, d, overrides)
                for r in seed_rows(a.harness, d):
                    rows[reading].setdefault(row_key(r), r)
    finally:
        shutil.rmtree(tmp)
    keys = list(rows["icount"])
    groups = {}
    for key in keys:
        r = rows["icount"][key]
        groups.setdefault((r["seed"], r["workload"]), []).append(key)
    head = "| half | seed | workload | rows |" + "".join(
        " within 2x: %s | median abs log2: %s |" % (n, n) for _, n in READINGS)
    print(head)
    print("|:---|:---|:---|---:|" + "---:|---:|" * len(READINGS))
    for half, in_half in (("fitted", lambda s: s in fitted), ("held-out", lambda s: s not in fitted)):
        all_keys = []
        for (seed, wl), ks in sorted(groups.items()):
            if not in_half(seed):
                continue
            all_keys += ks
            cells = []
            for reading, _ in READINGS:
                rs = [rows[reading][k] for k in ks if k in rows[reading]]
                cells.append("%d | %s" % (sum(within(r) for r in rs), fmt_median([distance(r) for r in rs])))
            print("| %s | %s | %s | %d | %s |" % (half, seed, wl, len(ks), " | ".join(cells)))
        cells = []
        for reading, _ in READINGS:
            rs = [rows[reading][k] for k in all_keys if k in rows[reading]]
            cells.append("**%d** | **%s**" % (sum(within(r) for r in rs),
                                              fmt_median([distance(r) for r in rs])))
        print("| **%s, all** | | | **%d** | %s |" % (half, len(all_keys), " | ".join(cells)))
    if a.rows:
        print("\n| seed | workload | metric | variant | vs | cores m/p | published | "
              + " | ".join(n for _, n in READINGS) + " |")
        print("|:---|:---|:---|:---|:---|---:|---:|" + "---:|" * len(READINGS))
        for key in keys:
            r = rows["icount"][key]
            vals = []
            for reading, _ in READINGS:
                x = rows[reading].get(key)
                v = x["measured"]["value"] if x else None
                vals.append("-" if v is None else ("%.4gx" % v if r["kind"] == "ratio" else "%+.2f%%" % v))
            p = r["published"]["value"]
            print("| %s | %s | %s | %s | %s | %s/%s | %s | %s |" % (
                r["seed"], r["measured"]["workload"], r["measured"]["metric"], r["variant"],
                r["baseline_variant"], r["measured"]["conditions"]["cores"],
                r["published"]["conditions"]["cores"] or "-",
                "%.4gx" % p if r["kind"] == "ratio" else "%+.2f%%" % p, " | ".join(vals)))


if __name__ == "__main__":
    main()
