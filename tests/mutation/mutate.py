#!/usr/bin/env python3
"""The project's mutation check: do the tests fail when the code they test breaks?

Each mutant in mutants.toml is one small change to one file (a unique snippet and its
replacement) and the tests that should fail with it. For each mutant this script applies
the change to a scratch copy of the tree, rebuilds what the named tests need (ninja:
only what changed), runs those tests and restores the file:

  KILLED    a named test failed (or timed out): the tests see the break
  SURVIVED  every named test passed: a weak test, unless the mutant says why it survives
  ERROR     the snippet is not in the file, or not once, or the mutant does not build:
            not a kill, and the check fails (the data file needs updating)
  UNTESTED  the tests passed but one of them SKIPped a case here (no root, a tool
            missing): neither kill nor survivor, left out of the kill rate

No packaged mutation tool for C exists in Debian (mull, dextool, universalmutator are not
packaged), and a generic one would mutate at random; these mutants are chosen by hand,
one per rule a reviewer would break, so each verdict reads as a sentence.

  mutate.py [--source DIR] [--scratch DIR] [--only ID,...] [--level unit|all]
            [--min-kill-rate PCT] [--show ID] [--list]
  mutate.py --check [--build-dir DIR]

--check builds and runs nothing: one TAP case per mutant, failing when its snippet is not
in its file exactly once, a test it names does not exist in DIR's meson build (default
$HARDBENCH_BUILD_DIR, when set), or it says it survives without a reason. It is the unit
test `mutation mutants` (a second), so a rebase that moves the code fails CI by name
rather than leaving a mutant that no longer mutates anything.

--source: the tree to check (default: this file's tree, working copy included);
--scratch: where the copy and its build live (default: a new folder under $TMPDIR, or
reused when given: a second run only rebuilds what differs). --show ID,...: also print
the output of those mutants' tests (the failures that killed them). Exit 0 when there is no
ERROR, every survivor has a written reason and the kill rate is at least --min-kill-rate
(default 90); 1 otherwise; 2 on bad options.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
LEVELS = ("unit", "all")


def die(msg, code=2):
    print(f"mutate.py: {msg}", file=sys.stderr)
    sys.exit(code)


def load_mutants(path):
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        die(f"{path}: {e}")
    sets = data.get("sets", {})
    mutants, seen = [], set()
    for i, m in enumerate(data.get("mutant", [])):
        where = f"{path}: mutant {i + 1}"
        for key in ("id", "file", "find", "replace", "tests", "breaks"):
            if key not in m:
                die(f"{where}: no '{key}' (accepted keys: id, file, find, replace, tests, breaks, level, survives)")
        if m["id"] in seen:
            die(f"{where}: id '{m['id']}' given twice")
        if m["find"] == m["replace"]:
            die(f"{where} ({m['id']}): replace is the same as find")
        if m.get("level", "unit") not in ("unit", "guest"):
            die(f"{where} ({m['id']}): bad level '{m['level']}' (accepted: unit, guest)")
        tests = []
        for name in m["tests"]:
            if name.startswith("@") and name[1:] not in sets:
                die(f"{where} ({m['id']}): no set '{name[1:]}' in [sets]")
            tests += sets[name[1:]] if name.startswith("@") else [name]
        m["tests"] = list(dict.fromkeys(tests))
        seen.add(m["id"])
        mutants.append(m)
    return mutants


def tracked_files(src):
    out = subprocess.run(["git", "-C", src, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                         check=True, capture_output=True).stdout
    return [p for p in out.decode().split("\0") if p and os.path.isfile(os.path.join(src, p))]


def sync_tree(src, dst):
    """Copies src's files into dst where they differ (so ninja rebuilds only those);
    also undoes a mutant a killed earlier run left behind."""
    changed = 0
    for rel in tracked_files(src):
        a, b = os.path.join(src, rel), os.path.join(dst, rel)
        with open(a, "rb") as f:
            data = f.read()
        try:
            with open(b, "rb") as f:
                same = f.read() == data
        except FileNotFoundError:
            same = False
        if not same:
            os.makedirs(os.path.dirname(b), exist_ok=True)
            with open(b, "wb") as f:
                f.write(data)
            shutil.copymode(a, b)
            changed += 1
    return changed


def run(cmd, log, timeout=None, cwd=None):
    """Runs cmd with its output appended to log; returns (exit status, seconds)."""
    t0 = time.monotonic()
    with open(log, "a") as f:
        f.write(f"$ {' '.join(cmd)}\n")
        f.flush()
        try:
            rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, timeout=timeout, cwd=cwd).returncode
        except subprocess.TimeoutExpired:
            f.write(f"timed out after {timeout} s\n")
            rc = -1
    return rc, time.monotonic() - t0


class Build:
    def __init__(self, scratch, log):
        self.src = os.path.join(scratch, "src")
        self.dir = os.path.join(scratch, "build")
        self.log = log

    def setup(self):
        if os.path.exists(os.path.join(self.dir, "build.ninja")):
            return 0
        # No -Werror: a mutant may leave a variable unused, and that is not what is tested.
        rc, _ = run(["meson", "setup", "-Dwerror=false", self.dir, self.src], self.log)
        return rc

    def introspect(self):
        def get(what):
            out = subprocess.run(["meson", "introspect", "--" + what, self.dir], check=True,
                                 capture_output=True).stdout
            return json.loads(out)
        targets = {t["id"]: t["filename"] for t in get("targets")}
        by_file = {f for files in targets.values() for f in files}
        tests = {}
        for t in get("tests"):
            outs = [f for tid in t.get("depends", []) for f in targets.get(tid, [])]
            outs += [a for a in t["cmd"] if a in by_file]
            tests[t["name"]] = sorted({os.path.relpath(f, self.dir) for f in outs})
        return tests

    def ninja(self, targets, log):
        return run(["ninja", "-C", self.dir] + targets, log, timeout=1800)

    def test(self, names, log):
        return run(["meson", "test", "-C", self.dir, "--no-rebuild", "--print-errorlogs"] + names, log,
                   timeout=3600)

    def skipped(self):
        """The tests of the last `meson test` that skipped a case (or all of it)."""
        names = []
        try:
            with open(os.path.join(self.dir, "meson-logs", "testlog.json")) as f:
                for line in f:
                    t = json.loads(line)
                    out = t.get("stdout") or t.get("stdo") or ""
                    if t.get("result") == "SKIP" or "# SKIP" in out:
                        names.append(t["name"].split(" / ", 1)[-1])
        except (OSError, ValueError):
            pass
        return names


def apply(src, m):
    """The file's original text, after writing the mutant; or (None, why)."""
    path = os.path.join(src, m["file"])
    try:
        with open(path) as f:
            text = f.read()
    except FileNotFoundError:
        return None, f"no file {m['file']}"
    n = text.count(m["find"])
    if n != 1:
        return None, (f"snippet not found in {m['file']}" if n == 0 else
                      f"snippet found {n} times in {m['file']} (accepted: a snippet found once)")
    with open(path, "w") as f:
        f.write(text.replace(m["find"], m["replace"]))
    return text, None


def restore(src, m, text):
    with open(os.path.join(src, m["file"]), "w") as f:
        f.write(text)


def failed_tests(log):
    """The names of the tests meson reported as failing in log (its summary lines)."""
    names = []
    with open(log, errors="replace") as f:
        for line in f:
            # " 3/5 hardbench:unit / slurm merge   ERROR   3.04s   exit status 1"
            parts = line.split(" / ", 1)
            if len(parts) == 2 and any(w in parts[1] for w in (" FAIL ", " ERROR ", " TIMEOUT ")):
                for w in (" FAIL ", " ERROR ", " TIMEOUT "):
                    if w in parts[1]:
                        name = parts[1].split(w)[0].strip()
                        if name not in names:
                            names.append(name)
    return names


def check(mutants, source, build_dir):
    """--check: the data file against the tree (and the build's test names); TAP."""
    names = None
    if build_dir:
        out = subprocess.run(["meson", "introspect", "--tests", build_dir], capture_output=True)
        names = {t["name"] for t in json.loads(out.stdout)} if out.returncode == 0 else None
    print(f"1..{len(mutants)}")
    failed = 0
    for i, m in enumerate(mutants, 1):
        problems = []
        try:
            with open(os.path.join(source, m["file"])) as f:
                n = f.read().count(m["find"])
            if n != 1:
                problems.append(f"snippet found {n} times in {m['file']} (want once)")
        except FileNotFoundError:
            problems.append(f"no file {m['file']}")
        if names is not None:
            problems += [f"no test '{t}'" for t in m["tests"] if t not in names]
        if "survives" in m and not m["survives"].strip():
            problems.append("'survives' gives no reason")
        failed += bool(problems)
        print(f"{'not ok' if problems else 'ok'} {i} - {m['id']}" + (f" # {'; '.join(problems)}" if problems else ""))
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", default=os.path.dirname(os.path.dirname(HERE)))
    ap.add_argument("--mutants", default=os.path.join(HERE, "mutants.toml"))
    ap.add_argument("--scratch")
    ap.add_argument("--only", default="")
    ap.add_argument("--level", default="unit")
    ap.add_argument("--min-kill-rate", type=float, default=90.0)
    ap.add_argument("--show", default="")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--build-dir", default=os.environ.get("HARDBENCH_BUILD_DIR"))
    a = ap.parse_args()
    if a.level not in LEVELS:
        die(f"--level: bad value '{a.level}' (accepted: {', '.join(LEVELS)})")
    if not 0 <= a.min_kill_rate <= 100:
        die(f"--min-kill-rate: bad value '{a.min_kill_rate}' (accepted: 0 to 100)")
    mutants = load_mutants(a.mutants)
    if a.check:
        return check(mutants, a.source, a.build_dir)
    if a.level == "unit":
        mutants = [m for m in mutants if m.get("level", "unit") == "unit"]
    only = [x for x in a.only.split(",") if x]
    unknown = [x for x in only + a.show.split(",") if x and x not in {m["id"] for m in mutants}]
    if unknown:
        die(f"--only/--show: no mutant '{unknown[0]}' at level {a.level} (see --list)")
    if only:
        mutants = [m for m in mutants if m["id"] in only]
    if a.list:
        for m in mutants:
            print(f"{m['id']:32} {m['file']}: {m['breaks']}")
        return 0

    scratch = a.scratch or tempfile.mkdtemp(prefix="hardbench-mutation-")
    os.makedirs(os.path.join(scratch, "logs"), exist_ok=True)
    log = os.path.join(scratch, "logs", "build.log")
    b = Build(scratch, log)
    t0 = time.monotonic()
    changed = sync_tree(a.source, b.src)
    if b.setup():
        die(f"meson setup failed: see {log}", 1)
    tests = b.introspect()
    for m in mutants:
        for name in m["tests"]:
            if name not in tests:
                die(f"mutant {m['id']}: no test '{name}' (meson test --list names them)", 1)
    names = sorted({n for m in mutants for n in m["tests"]})
    targets = sorted({f for n in names for f in tests[n]})
    print(f"# {len(mutants)} mutants, {len(names)} tests; scratch copy {scratch} ({changed} files copied)", flush=True)
    rc, secs = b.ninja(targets, log)
    if rc:
        die(f"the unmutated copy does not build: see {log}", 1)
    rc, tsecs = b.test(names, os.path.join(scratch, "logs", "unmutated.log"))
    if rc:
        die(f"tests fail without any mutant: {', '.join(failed_tests(os.path.join(scratch, 'logs', 'unmutated.log')))} "
            f"(see {scratch}/logs/unmutated.log)", 1)
    skipped = b.skipped()
    print(f"# unmutated: built in {secs:.0f} s, its tests pass in {tsecs:.0f} s"
          + (f"; SKIPs here in: {', '.join(skipped)} (their mutants may be UNTESTED)" if skipped else ""),
          flush=True)

    verdicts = []
    for m in mutants:
        mlog = os.path.join(scratch, "logs", m["id"] + ".log")
        if os.path.exists(mlog):
            os.unlink(mlog)
        text, why = apply(b.src, m)
        if text is None:
            verdicts.append((m, "ERROR", why, 0))
            print(f"ERROR     {m['id']}: {why}", flush=True)
            continue
        try:
            mt = [f for n in m["tests"] for f in tests[n]]
            rc, bsecs = b.ninja(sorted(set(mt)), mlog)
            if rc:
                verdict, why = "ERROR", f"does not build (see {mlog})"
            else:
                rc, tsecs = b.test(m["tests"], mlog)
                skipped = b.skipped()
                if rc:
                    verdict, why = "KILLED", "by " + ", ".join(failed_tests(mlog) or m["tests"])
                elif skipped:
                    # Not a survivor: a case that could have killed it did not run here.
                    verdict, why = "UNTESTED", "SKIPs here: " + ", ".join(skipped)
                else:
                    verdict = "SURVIVED"
                    why = m.get("survives", "NO REASON GIVEN: a weak test, or a reason to write")
        finally:
            restore(b.src, m, text)
        secs = bsecs + (tsecs if verdict != "ERROR" else 0)
        if verdict == "KILLED" and m.get("survives"):
            why += " (mutants.toml says it survives: update its reason)"
        verdicts.append((m, verdict, why, secs))
        print(f"{verdict:9} {m['id']}: {why} [{secs:.0f} s]", flush=True)
        if m["id"] in a.show.split(","):
            with open(mlog, errors="replace") as f:
                print("".join("    " + line for line in f if not line.startswith("[")), flush=True)

    # Restore what the last build saw: the next run starts from the unmutated objects.
    b.ninja(targets, log)
    killed = sum(v == "KILLED" for _, v, _, _ in verdicts)
    survived = [m for m, v, _, _ in verdicts if v == "SURVIVED"]
    errors = [m for m, v, _, _ in verdicts if v == "ERROR"]
    untested = [m for m, v, _, _ in verdicts if v == "UNTESTED"]
    unexplained = [m for m in survived if not m.get("survives")]
    judged = killed + len(survived)
    rate = 100.0 * killed / judged if judged else 0.0
    print(f"# {len(verdicts)} mutants: {killed} killed, {len(survived)} survived "
          f"({len(survived) - len(unexplained)} with a written reason), {len(untested)} untested here, "
          f"{len(errors)} errors; "
          f"kill rate {killed}/{judged} = {rate:.1f}%; {time.monotonic() - t0:.0f} s in all")
    bad = []
    if errors:
        bad.append(f"{len(errors)} mutants could not be applied or built: " + ", ".join(m["id"] for m in errors))
    if unexplained:
        bad.append("survivors without a written reason: " + ", ".join(m["id"] for m in unexplained))
    if judged and rate < a.min_kill_rate and not only:  # a hand-picked subset has no rate
        bad.append(f"kill rate {rate:.1f}% is below {a.min_kill_rate:g}%")
    for line in bad:
        print(f"mutate.py: {line}", file=sys.stderr)
    if not a.scratch:
        shutil.rmtree(scratch, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
