#!/usr/bin/env python3
"""The numbers of a `harness report --format mail` reply, derived again here from the
set's raw samples without the harness's code: each table row's mean (of every sample),
cost and 95% CI, and each one-liner's standard error. Welch's where the set has one round
(ratio of means, delta-method error, Welch-Satterthwaite df), paired where it has two or
more (geometric mean of per-round ratios of round means, t on n - 1 df). Student's t
quantile is computed here too (Simpson's rule on its density, then bisection), not taken
from GSL as the harness does.

  mail_numbers.py SET MAIL     prints what differs, one line each; exit 1 if anything does
"""
import functools
import json
import math
import re
import sys
from collections import defaultdict


def t_cdf(x, df):
    """P(T <= x) for x >= 0: 1/2 plus the density's integral from 0 to x (Simpson)."""
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    pdf = lambda u: c * (1 + u * u / df) ** (-(df + 1) / 2)
    n = 4000
    h = x / n
    s = pdf(0) + pdf(x) + sum((4 if i % 2 else 2) * pdf(i * h) for i in range(1, n))
    return 0.5 + s * h / 3


@functools.lru_cache(maxsize=None)
def t_quantile(p, df):
    lo, hi = 0.0, 1000.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if t_cdf(mid, df) < p else (lo, mid)
    return (lo + hi) / 2


def mean(xs):
    return sum(xs) / len(xs)


def var(xs):
    m = mean(xs)
    return sum((x - m) ** 2 for x in xs) / (len(xs) - 1)


def welch(v, b, sign):
    """Cost %, its st.err %, and the 95% CI %: ratio of means, delta method."""
    mv, mb = mean(v), mean(b)
    r = mv / mb
    sev, seb = math.sqrt(var(v) / len(v)), math.sqrt(var(b) / len(b))
    se = math.sqrt(sev ** 2 + r * r * seb ** 2) / abs(mb) * 100
    va, vb = sev ** 2, seb ** 2
    df = (va + vb) ** 2 / (va * va / (len(v) - 1) + vb * vb / (len(b) - 1))
    cost = (r - 1) * 100 * sign
    t = t_quantile(0.975, df)
    return cost, se, (cost - t * se, cost + t * se)


def paired(v_rounds, b_rounds, sign):
    """Cost %, st.err % and 95% CI % from the log ratios of the rounds both sides have."""
    logs = [math.log(mean(v_rounds[k]) / mean(b_rounds[k])) for k in sorted(v_rounds) if k in b_rounds]
    m, se = mean(logs), math.sqrt(var(logs) / len(logs))
    t = t_quantile(0.975, len(logs) - 1)
    pct = lambda l: (math.exp(sign * l) - 1) * 100
    ends = sorted((pct(m - t * se), pct(m + t * se)))
    return pct(m), 100 * math.exp(sign * m) * se, tuple(ends)


def number(text):
    return float(text.replace("%", "").replace("+", "").replace("x", ""))


def close(printed, value, rel=0.0, abs_=0.0):
    """printed (as the mail rounds it) matches value: within half its last digit. A cost
    printed as a ratio ("193.5x", effects over +100%) is compared as 1 + value / 100."""
    if printed.endswith("x"):
        value = 1 + value / 100
    digits = printed.replace("%", "").replace("+", "").replace("-", "").replace("x", "")
    step = 10 ** -(len(digits.split(".")[1]) if "." in digits else 0)
    return abs(number(printed) - value) <= step / 2 + 1e-9 + rel * abs(value) + abs_


def main():
    if len(sys.argv) != 3:
        print("usage: mail_numbers.py SET MAIL", file=sys.stderr)
        return 2
    set_dir, mail = sys.argv[1], open(sys.argv[2]).read()
    values = defaultdict(list)                       # (workload, metric, variant) -> values
    rounds = defaultdict(lambda: defaultdict(list))  # ... -> boot -> values
    lower = {}
    for line in open(f"{set_dir}/samples.jsonl"):
        s = json.loads(line)
        key = (s["workload"], s["metric"], s["variant"])
        values[key].append(s["value"])
        rounds[key][s.get("boot", -1)].append(s["value"])
        lower[key[:2]] = s.get("lower_is_better", True)

    problems, checked = [], 0
    # Tables: "workload, metric [unit] (lower is better):" then "  variant mean cost [lo, hi]"
    for block in re.finditer(r"^(\S+), (\S+) \[[^\]]*\] \((?:lower|higher) is better\):\n  variant.*\n((?:  .*\n?)+)",
                             mail, re.M):
        wl, metric = block.group(1), block.group(2)
        base = None
        for row in block.group(3).splitlines():
            f = row.split()
            variant, printed_mean = f[0], f[1]
            key = (wl, metric, variant)
            if key not in values:
                problems.append(f"{wl} {metric} {variant}: no samples in {set_dir}")
                continue
            if not close(printed_mean, mean(values[key]), rel=5e-5):
                problems.append(f"{wl} {metric} {variant}: mean {printed_mean}, from the samples {mean(values[key]):.6g}")
            checked += 1
            if f[2] == "-":
                base = key
                continue
            sign = 1 if lower[key[:2]] else -1
            both = [k for k in rounds[key] if k in rounds[base] and k >= 0]
            if len(both) >= 2:
                cost, se, ci = paired(rounds[key], rounds[base], sign)
            else:
                cost, se, ci = welch(values[key], values[base], sign)
            lo, hi = row[row.index("[") + 1:row.index("]")].split(", ")
            for what, printed, want in (("cost", f[2], cost), ("CI low", lo, ci[0]), ("CI high", hi, ci[1])):
                if not close(printed, want):
                    problems.append(f"{wl} {metric} {variant}: {what} {printed}, from the samples {want:+.3f}%")
            # the one-liner's st.err, where it gives one
            # (a cost printed as a ratio gives its st.err as a ratio too: se / 100)
            one = re.search(rf"^{re.escape(wl)}, {re.escape(variant)}: (?:[+-][0-9.]+%|[0-9.]+x) "
                            rf"{re.escape(metric)} \(st\.err ([0-9.]+%?)", mail, re.M)
            if one and not close(one.group(1), se if one.group(1).endswith("%") else se / 100):
                problems.append(f"{wl} {metric} {variant}: st.err {one.group(1)}, from the samples {se:.3f}%")
            checked += 1
    if not checked:
        problems.append("no table rows found in the mail")
    for p in problems:
        print(p)
    print(f"# {checked} rows checked against {set_dir}'s samples, {len(problems)} differ", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
