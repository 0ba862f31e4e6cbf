#!/usr/bin/env python3
"""Fuzzing the harness's inputs: random argument vectors across every command, and random
and mutated bytes into the CSV importer, the result-set JSONL/JSON readers and the INI
loaders (workload.ini, .build, .variant). Every case must exit 0, 1 or 2: never die of a
signal (a crash, an ASan/UBSan report aborts) nor hang (a timeout).

    fuzz.py HARNESS [--seed N] [--argv N] [--bytes N]

Prints TAP, one line per target with its counts. The seed is fixed so a failure repeats;
a failing case's command line and input are kept in the work folder, named on the line.

Nothing here boots or builds: build, boot and run always get --dry-run, the results root,
the kernel cache and the working folder are a scratch folder, and make/qemu on PATH are
stand-ins that fail.
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.environ.get("HARDBENCH_SOURCE_DIR", os.path.abspath(os.path.join(HERE, "..", "..")))
TIMEOUT_S = 30
OK_EXITS = {0, 1, 2}
# Commands that would build or boot without --dry-run.
HEAVY = {"build", "boot", "run"}


def parse_args(argv):
    opts = {"seed": 1, "argv": 1000, "bytes": 400}
    harness = None
    i = 1
    while i < len(argv):
        a = argv[i]
        if a.startswith("--") and a[2:] in opts and i + 1 < len(argv):
            opts[a[2:]] = int(argv[i + 1])
            i += 2
            continue
        harness = os.path.abspath(a)
        i += 1
    if not harness:
        sys.exit("usage: fuzz.py HARNESS [--seed N] [--argv N] [--bytes N]")
    return harness, opts


class Runner:
    """Runs cases in a scratch folder and counts outcomes per target."""

    def __init__(self, harness, work, env):
        self.harness, self.work, self.env = harness, work, env
        self.failures = []
        self.counts = {}

    def run(self, target, args, env_extra=None):
        env = dict(self.env, **(env_extra or {}))
        c = self.counts.setdefault(target, {"cases": 0, "exit": {}})
        c["cases"] += 1
        try:
            p = subprocess.run([self.harness] + args, cwd=self.work, env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, timeout=TIMEOUT_S)
            rc, err = p.returncode, p.stderr.decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            rc, err = "timeout", ""
        c["exit"][rc] = c["exit"].get(rc, 0) + 1
        if rc not in OK_EXITS or "runtime error:" in err or "AddressSanitizer" in err:
            self.failures.append((target, args, rc, err[-2000:]))
            return False
        return True


# --- argument vectors ------------------------------------------------------------------

def command_options(harness, env):
    """{command: [(option, takes_value)]} read from each command's --help."""
    out = subprocess.run([harness, "help"], capture_output=True, text=True, env=env)
    cmds = re.findall(r"^  ([a-z]+)  ", out.stdout + out.stderr, re.M)
    table = {}
    for cmd in cmds:
        h = subprocess.run([harness, cmd, "--help"], capture_output=True, text=True, env=env)
        text = h.stdout + h.stderr
        opts = re.findall(r"(--[a-z][a-z0-9-]*)(?:[ =]([A-Z][A-Z0-9_.=|,]*))?", text)
        table[cmd] = sorted({(o, bool(v)) for o, v in opts})
    return table


def value_pool(work):
    return ["", "0", "1", "-1", "2", "3", "65", "4096", "99999999999999999999", "1e308", "nan",
            "-0", "0x10", "1.5", "abc", "baseline", "base", "kasan", "init_on_free", "hugetlb",
            "hackbench", "kbuild", "vmaops", "test_vmalloc", "hugetlb.pages=4", "hackbench.groups=0",
            "x.y=z", "=", ",", "baseline,,init_on_free", "1,2", "2,2", "/nonexistent",
            os.path.join(work, "set"), os.path.join(work, "empty"), os.path.join(work, "file.txt"),
            "set", "out", "auto", "kvm", "tcg", "q35", "microvm", "9p", "virtiofs", "text",
            "markdown", "csv", "json", "interleaved", "grouped", "--", "-", "%s%n%s",
            "a" * 5000, "\u00e9\u6f22", "512M", "1G", "0M", "wall", "sys"]


def random_argv(rng, table, pool):
    cmds = list(table) + ["nosuch", ""]
    cmd = rng.choice(cmds)
    args = [cmd] if cmd else []
    opts = table.get(cmd, [])
    for _ in range(rng.randint(0, 6)):
        r = rng.random()
        if opts and r < 0.55:
            name, takes = rng.choice(opts)
            if takes or rng.random() < 0.1:
                v = rng.choice(pool)
                args += [f"{name}={v}"] if rng.random() < 0.2 else [name, v]
            else:
                args.append(name)
        elif r < 0.8:
            args.append(rng.choice(pool))
        elif r < 0.9:
            args.append("-" + rng.choice("abcxyzjnh"))
        else:
            args.append("--" + "".join(rng.choice("abcdefgh-") for _ in range(rng.randint(1, 8))))
    if cmd in HEAVY:
        args.insert(1, "--dry-run")
    return args


# --- bytes -------------------------------------------------------------------------------

def mutate(rng, data):
    """One to four random edits of a byte string (AFL-like: flips, inserts, deletes,
    duplicated chunks, interesting bytes and numbers, truncation)."""
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(7)
        pos = rng.randrange(len(b) + 1) if b else 0
        if op == 0 and b:
            b[min(pos, len(b) - 1)] ^= 1 << rng.randrange(8)
        elif op == 1:
            b[pos:pos] = bytes([rng.choice([0, 10, 13, 34, 44, 35, 61, 91, 93, 123, 125, 255])])
        elif op == 2 and b:
            del b[pos:pos + rng.randint(1, 64)]
        elif op == 3 and b:
            start = rng.randrange(len(b))
            b[pos:pos] = b[start:start + rng.randint(1, 256)]
        elif op == 4:
            b[pos:pos] = rng.choice([b"-1", b"1e999", b"nan", b"inf", b"99999999999999999999",
                                     b"\"", b"\\u0000", b"null", b"[]", b"{}", b"\n\n", b";"])
        elif op == 5:
            b = b[:pos]
        else:
            b[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 32)))
    return bytes(b)


def fuzz_bytes(rng, seed_data):
    if rng.random() < 0.25:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 2048)))
    return mutate(rng, seed_data)


def fuzz_csv(rng, runner, n, work):
    seeds = [open(os.path.join(SRC, "tests", "data", f), "rb").read()
             for f in sorted(os.listdir(os.path.join(SRC, "tests", "data"))) if f.endswith(".csv")]
    for i in range(n):
        path = os.path.join(work, "in.csv")
        with open(path, "wb") as f:
            f.write(fuzz_bytes(rng, rng.choice(seeds)))
        out = os.path.join(work, f"csv-out-{i}")
        if not runner.run("csv importer", ["import", path, "--out", out]):
            shutil.copy(path, os.path.join(work, f"failed-csv-{i}.csv"))
        elif os.path.isdir(out):
            runner.run("csv importer", ["report", out])
            shutil.rmtree(out)


def fuzz_result_set(rng, runner, n, work):
    ref = os.path.join(SRC, "ci", "reference")
    files = ["meta.json", "cells.jsonl", "samples.jsonl"]
    for i in range(n):
        s = os.path.join(work, "fz-set")
        shutil.rmtree(s, ignore_errors=True)
        shutil.copytree(ref, s)
        name = rng.choice(files)
        with open(os.path.join(s, name), "rb") as f:
            data = f.read()
        with open(os.path.join(s, name), "wb") as f:
            f.write(fuzz_bytes(rng, data))
        cmd = rng.choice([["report", s], ["report", s, "--format", "json"],
                          ["run", "--dry-run", "--resume", s],
                          ["gate", s, "--against", ref, "--relative", "baseline"],
                          ["report", s, "--against-seeds"]])
        if not runner.run("jsonl readers (" + name + ")", cmd):
            shutil.copytree(s, os.path.join(work, f"failed-set-{i}"))


def source_copy(work):
    """A project tree of its own (HARDBENCH_SOURCE_DIR), with the INI files to mutate."""
    dst = os.path.join(work, "src")
    if not os.path.isdir(dst):
        for d in ["kernel-configs", "workloads", "plots", "ci"]:
            shutil.copytree(os.path.join(SRC, d), os.path.join(dst, d), symlinks=True)
    return dst


def fuzz_ini(rng, runner, n, work):
    src = source_copy(work)
    inis = sorted(os.path.relpath(os.path.join(d, f), src)
                  for d, _, fs in os.walk(src) for f in fs
                  if f == "workload.ini" or f.endswith(".build") or f.endswith(".variant"))
    for i in range(n):
        rel = rng.choice(inis)
        path = os.path.join(src, rel)
        with open(path, "rb") as f:
            orig = f.read()
        with open(path, "wb") as f:
            f.write(fuzz_bytes(rng, orig))
        cmd = rng.choice([["list"], ["build", "--list"], ["build", "--dry-run", "baseline"],
                          ["run", "--dry-run", "--variants", "baseline,init_on_free",
                           "--workloads", "hugetlb,hackbench"]])
        if not runner.run("ini loaders", cmd, {"HARDBENCH_SOURCE_DIR": src}):
            shutil.copy(path, os.path.join(work, f"failed-ini-{i}-" + os.path.basename(rel)))
        with open(path, "wb") as f:
            f.write(orig)


def stand_ins(work):
    """make and QEMU that fail at once: nothing here may build or boot."""
    bindir = os.path.join(work, "bin")
    os.makedirs(bindir, exist_ok=True)
    for name in ["make", "qemu-system-x86_64"]:
        p = os.path.join(bindir, name)
        with open(p, "w") as f:
            f.write("#!/bin/sh\necho 'fuzz: refused' >&2\nexit 1\n")
        os.chmod(p, 0o755)
    return bindir


def main():
    harness, opts = parse_args(sys.argv)
    work = tempfile.mkdtemp(prefix="hardbench-fuzz-")
    # Run as root, make runs as the unprivileged uid (kernel/sandbox.h): the stand-in must
    # be one it can reach, or a build would find the real make.
    os.chmod(work, 0o755)
    env = dict(os.environ, HARDBENCH_RESULTS=os.path.join(work, "results"),
               HARDBENCH_CACHE=os.path.join(work, "cache"),
               PATH=stand_ins(work) + ":" + os.environ.get("PATH", ""))
    env.setdefault("HARDBENCH_SOURCE_DIR", SRC)
    os.makedirs(os.path.join(work, "empty"))
    open(os.path.join(work, "file.txt"), "w").write("not a result set\n")
    shutil.copytree(os.path.join(SRC, "ci", "reference"), os.path.join(work, "set"))
    rng = random.Random(opts["seed"])
    runner = Runner(harness, work, env)
    table, pool = command_options(harness, env), value_pool(work)
    for _ in range(opts["argv"]):
        runner.run("argument vectors", random_argv(rng, table, pool))
    fuzz_csv(rng, runner, opts["bytes"], work)
    fuzz_result_set(rng, runner, opts["bytes"], work)
    fuzz_ini(rng, runner, opts["bytes"], work)
    report(runner, work, opts)


def report(runner, work, opts):
    print(f"1..{len(runner.counts)}")
    for i, (target, c) in enumerate(sorted(runner.counts.items()), 1):
        bad = [f for f in runner.failures if f[0] == target]
        exits = ", ".join(f"exit {k}: {v}" for k, v in sorted(c["exit"].items(), key=str))
        print(f"{'not ok' if bad else 'ok'} {i} - {target}: {c['cases']} cases ({exits})")
    for target, args, rc, err in runner.failures[:20]:
        print(f"# FAIL {target}: {rc}: harness {' '.join(repr(a) for a in args)}\n#   "
              + err.strip().replace("\n", "\n#   "))
    total = sum(c["cases"] for c in runner.counts.values())
    print(f"# {total} cases, {len(runner.failures)} failures (seed {opts['seed']})")
    if runner.failures:
        print(f"# inputs of the failures kept in {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if runner.failures else 0)


if __name__ == "__main__":
    main()
