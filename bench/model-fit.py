#!/usr/bin/env python3
"""The fit of docs/model.md: t_stos (the full model) and c (the one-parameter model), each the
one value for which the model's init_on_alloc/baseline `wall` ratio of hugetlb equals seed
000's 76.55x, from the means of one --clock model run's samples (model.jsonl). Both are
linear in the price: ratio(t) = mean_v(a + t b) / mean_b(a + t b), solved exactly.

Usage: bench/model-fit.py SET [PUBLISHED_RATIO, default 76.55]
  SET: the result set of `harness run --clock model --variants baseline,init_on_alloc
  --workloads hugetlb --cores 1`. Prints t_stos and c, and the ratios they give."""
import statistics
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
import model_readings as mr  # noqa: E402


def linear_terms(m, section, k, reading):
    """The metric's value as a + t * b, t the fitted price (ns per byte of rep stos)."""
    base = mr.scoped(section, m["scope"], "icount", k)
    a = b = 0.0
    for mode in mr.MODES[m["scope"]]:
        f = section[mode]
        if reading == "onep":
            a += f[0] - sum(f[1:5])
            b += mr.stos_bytes(f)
        else:  # full: t_stos prices stos bytes, movs bytes (t_movs = 2 t_stos), first touches
            k0 = dict(k, t_stos_ns_per_byte=0.0, t_movs_ns_per_byte=0.0)
            a += mr.price(f, "full", k0)
            b += mr.stos_bytes(f) + 2 * mr.movs_bytes(f) + 4096 * f[mr.F["new_4k"]]
    scale = m["guest"] / base
    return a * scale, b * scale


def main():
    set_dir = sys.argv[1]
    want = float(sys.argv[2]) if len(sys.argv) > 2 else 76.55  # published.json, seed 000
    meta, records = mr.load(set_dir)
    k = meta["clock"]["model"]
    for reading, name in (("full", "t_stos"), ("onep", "c")):
        terms = {"baseline": [], "init_on_alloc": []}
        for key, m, section in mr.priced_metrics(records):
            if key[1] == "hugetlb" and key[6] == "wall" and key[0] in terms:
                terms[key[0]].append(linear_terms(m, section, k, reading))
        av = statistics.mean(a for a, _ in terms["init_on_alloc"])
        bv = statistics.mean(b for _, b in terms["init_on_alloc"])
        ab = statistics.mean(a for a, _ in terms["baseline"])
        bb = statistics.mean(b for _, b in terms["baseline"])
        t = (want * ab - av) / (bv - want * bb)
        print("%s = %.6f ns/B (%s reading; n = %d and %d; ratio at it %.3f, want %.3f)"
              % (name, t, reading, len(terms["init_on_alloc"]), len(terms["baseline"]),
                 (av + t * bv) / (ab + t * bb), want))


if __name__ == "__main__":
    main()
