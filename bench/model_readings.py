"""The three readings of a --clock model result set (docs/model.md), from its model.jsonl:
icount (instructions at 1 ns), the one-parameter model and the full model. Shared by
bench/model-fit.py and bench/model-validation.py; the harness's own pricing is
harness/model/model.c, and tests/guest (model-clock) checks that the two agree."""
import json
import os

# plugins/model/model_format.h, in order
FIELDS = ["insns", "stos_1", "stos_2", "stos_4", "stos_8", "movs_1", "movs_2", "movs_4",
          "movs_8", "rep_other", "stos_starts", "movs_starts", "l2_hits", "l2_misses",
          "new_4k", "new_2m"]
F = {name: i for i, name in enumerate(FIELDS)}
MODES = {"all": ["kernel", "user"], "kernel": ["kernel"], "user": ["user"]}


def stos_bytes(f):
    return f[1] + 2 * f[2] + 4 * f[3] + 8 * f[4]


def movs_bytes(f):
    return f[5] + 2 * f[6] + 4 * f[7] + 8 * f[8]


def price(f, reading, k):
    """One mode's counts f in ns; k: meta.json's clock.model constants."""
    if reading == "icount":
        return f[0]
    nstos = sum(f[1:5])
    if reading == "onep":
        return f[0] - nstos + k["onep_stos_ns_per_byte"] * stos_bytes(f)
    nmovs = sum(f[5:9])
    return (k["t_insn_ns"] * (f[0] - nstos - nmovs) + k["t_stos_ns_per_byte"] * stos_bytes(f)
            + k["t_movs_ns_per_byte"] * movs_bytes(f)
            + k["t_start_ns"] * (f[F["stos_starts"]] + f[F["movs_starts"]])
            + k["t_l2_hit_ns"] * f[F["l2_hits"]] + k["t_l2_miss_ns"] * f[F["l2_misses"]]
            + k["t_stos_ns_per_byte"] * 4096 * f[F["new_4k"]])


def scoped(section, scope, reading, k):
    return sum(price(section[m], reading, k) for m in MODES[scope])


def load(set_dir):
    """(meta, records): records are model.jsonl's lines."""
    meta = json.load(open(os.path.join(set_dir, "meta.json")))
    with open(os.path.join(set_dir, "model.jsonl")) as f:
        records = [json.loads(line) for line in f if line.strip()]
    return meta, records


def priced_metrics(records):
    """Yields (key, metric entry, section) for every priced metric of every repetition;
    key matches a sample: (variant, workload, kernel_line, cores, boot, rep, metric)."""
    for r in records:
        sections = {s["id"]: s for s in r["sections"]}
        for m in r["metrics"]:
            key = (r["variant"], m.get("workload", r["workload"]), r["kernel_line"], r["cores"],
                   r["boot"], r["rep"], m["metric"])
            yield key, m, sections[m["id"]]


def reading_value(m, section, reading, k):
    base = scoped(section, m["scope"], "icount", k)
    return m["guest"] * scoped(section, m["scope"], reading, k) / base if base > 0 else m["guest"]
