"""Helpers of faults.py: processes, result sets, scratch caches and build-dir overlays."""
import glob
import json
import os
import re
import shutil
import subprocess
import tempfile
import time

METRICS = {"wall", "sys", "release_wall", "release_sys"}  # hugetlb's (workload.ini)
REP_WAIT_S = 240


class CaseError(Exception):
    pass


class Skip:
    def __init__(self, reason):
        self.reason = reason


class Result:
    """What one case found: problems (empty = survived) and samples lost."""

    def __init__(self, title="case"):
        self.title, self.problems, self.lost = title, [], 0
        self.rc, self.err, self.before, self.resume_err = None, "", set(), ""
        self.plan = (["baseline"], 1)

    @property
    def ok(self):
        return not self.problems

    def check(self, cond, why):
        if not cond:
            self.problems.append(why)
        return bool(cond)

    def expect_exit(self, codes):
        self.check(self.rc in codes, f"exit {self.rc}, expected {sorted(codes)}: {tail(self.err)}")

    def expect_error(self, pattern):
        self.check(re.search(pattern, self.err), f"no error matching /{pattern}/: {tail(self.err)}")

    def expect_reps_kept(self, out, reps):
        got = {k[5] for k in self.before}
        self.check(set(reps) <= got, f"measured reps {reps} not all in samples.jsonl (has {sorted(got)})")


def tail(text, n=4):
    return " / ".join(text.strip().splitlines()[-n:])


def one_line(text):
    return len(text.strip().splitlines()) == 1


def finish(proc, timeout=600):
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
        err = (err or "") + "\n(timed out: killed)"
    return err or ""


def sample_lines(out):
    path = os.path.join(out, "samples.jsonl")
    keys = []
    if not os.path.exists(path):
        return keys
    with open(path, "rb") as f:
        for line in f:
            try:
                s = json.loads(line)
                keys.append((s["variant"], s["workload"], s["metric"], s["cores"], s["boot"], s["rep"]))
            except (ValueError, KeyError, TypeError):
                pass
    return keys


def sample_keys(out):
    return set(sample_lines(out))


def complete(out, variants, reps):
    """Every planned sample exactly once (one boot, one vCPU, hugetlb)."""
    lines = sample_lines(out)
    want = {(v, "hugetlb", m, 1, 0, r) for v in variants for m in METRICS for r in range(reps)}
    return len(lines) == len(set(lines)) and set(lines) == want


def wait_rep_done(out, rep, timeout=REP_WAIT_S):
    """Until a cell's result.log says its job's repetition `rep` ended."""
    pat = re.compile(rf"^exit 0 {rep} ", re.M)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for log in glob.glob(os.path.join(out, "logs", "*", "result.log")):
            try:
                if pat.search(open(log, errors="replace").read()):
                    return
            except OSError:
                pass
        time.sleep(0.05)
    raise CaseError(f"repetition {rep} never ended in {out}/logs/*/result.log")


def _ppid(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def descendants(root, comm_prefix):
    """Pids under root (any depth) whose comm starts with comm_prefix."""
    children = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            children.setdefault(_ppid(int(d)), []).append(int(d))
    found, todo = [], list(children.get(root, []))
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            if open(f"/proc/{pid}/comm").read().startswith(comm_prefix):
                found.append(pid)
        except OSError:
            pass
    return found


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def tmp_root():
    """The harness's per-boot folders' root (common/tmpdir.h)."""
    run = os.environ.get("XDG_RUNTIME_DIR", "")
    try:
        st = os.stat(run) if run.startswith("/") else None
    except OSError:
        st = None
    ours = st is not None and st.st_uid == os.geteuid() and not st.st_mode & 0o022
    return os.path.join(run, "hardbench") if ours else "/run/hardbench"


def owned_tmp_dirs(pid):
    dirs = []
    for d in glob.glob(os.path.join(tmp_root(), "hardbench-vm-*")):
        try:
            if open(os.path.join(d, "OWNER")).read().split()[0] == str(pid):
                dirs.append(d)
        except (OSError, IndexError):
            pass
    return dirs


def fill(path):
    n = 0
    with open(path, "wb") as f:
        try:
            while True:
                f.write(b"\0" * (1 << 16))
                f.flush()
                n += 1 << 16
        except OSError:
            pass
    return f"{n >> 10} KiB"


def damage_jsonl(path):
    """A garbage line after the first, and a torn line (no newline) at the end."""
    with open(path, "rb") as f:
        lines = f.read().splitlines(keepends=True)
    lines.insert(1 if lines else 0, b"{\"not json\": \x01\xff garbage\n")
    with open(path, "wb") as f:
        f.writelines(lines)
        f.write(b"{\"variant\":\"baseline\",\"work")


def truncate_half(path):
    size = os.path.getsize(path)
    with open(path, "r+b") as f:
        f.truncate(size // 2)


def read_bytes(out):
    return {n: open(os.path.join(out, n), "rb").read()
            for n in ["meta.json", "samples.jsonl", "cells.jsonl"] if os.path.exists(os.path.join(out, n))}


def count_calls(path, word):
    try:
        return sum(word in line for line in open(path))
    except OSError:
        return 0


def entry_dir(cache):
    found = [d for d in glob.glob(os.path.join(cache, "kernels", "base-*")) if ".old-" not in d]
    if len(found) != 1:
        raise CaseError(f"expected one base entry in {cache}/kernels, found {found}")
    return found[0]


FAKE_MAKE = r"""#!/bin/sh
# The real kernel's files installed as a build would, after FAKE_MAKE_SLEEP seconds.
echo "$*" >> "$FAKE_MAKE_CALLS"
for a; do
	case $a in
	tinyconfig|olddefconfig) mkdir -p obj && cp "$FAKE_REAL_ENTRY/config" obj/.config ;;
	bzImage)
		sleep "${FAKE_MAKE_SLEEP:-4}"
		mkdir -p obj/arch/x86/boot obj/include/config
		cp "$FAKE_REAL_ENTRY/bzImage" obj/arch/x86/boot/bzImage
		cp "$FAKE_REAL_ENTRY/vmlinux" obj/vmlinux
		echo "$FAKE_RELEASE" > obj/include/config/kernel.release
		echo "  CC      fake.o" ;;
	INSTALL_MOD_PATH=*) d=${a#INSTALL_MOD_PATH=}; mkdir -p "$d"; cp -a "$FAKE_REAL_ENTRY/modules/." "$d/" ;;
	esac
done
exit 0
"""

HELPER = r"""#!/bin/sh
# Test-only hugetlb helper: a fault at some repetitions, the real helper otherwise.
n=$(cat /tmp/.hb-fault-n 2>/dev/null || echo 0)
echo $((n + 1)) > /tmp/.hb-fault-n
case "@MODE@:$n" in
panic:1) echo c > /proc/sysrq-trigger; sleep 30 ;;
garbage:1) echo 'alloc_wall_s banana'; echo '%%%% {{{ \x01 garbage'; exit 0 ;;
garbage:2) exit 0 ;;
esac
exec @REAL@ "$@"
"""


class Context:
    def __init__(self, harness):
        self.harness_path = harness
        self.build_dir = os.environ.get("HARDBENCH_BUILD_DIR") or os.path.dirname(harness)
        self.real_cache = os.environ.get("HARDBENCH_CACHE") or os.path.expanduser("~/.cache/hardbench")
        # Under the build dir, not /tmp: the guest sees the host's root, but its own /tmp.
        self.scratch = os.path.join(self.build_dir, "faults-scratch")
        shutil.rmtree(self.scratch, ignore_errors=True)
        os.makedirs(self.scratch)
        self.env = dict(os.environ, HARDBENCH_RESULTS=os.path.join(self.scratch, "results"))
        self.nsets = 0
        self.shared = []  # folders every user may enter (fake_build_env)

    def cleanup(self):
        shutil.rmtree(self.scratch, ignore_errors=True)
        for d in self.shared:
            shutil.rmtree(d, ignore_errors=True)

    def set_dir(self, name):
        self.nsets += 1
        return os.path.join(self.scratch, f"set-{self.nsets}-{name}")

    def harness(self, args, env=None, timeout=600):
        try:
            return subprocess.run([self.harness_path] + args, env=dict(self.env, **(env or {})),
                                  cwd=self.scratch, stdin=subprocess.DEVNULL,
                                  capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired as e:
            raise CaseError(f"harness {' '.join(args)}: no exit in {timeout} s") from e

    def start(self, args, env=None):
        return subprocess.Popen([self.harness_path] + args, env=dict(self.env, **(env or {})),
                                cwd=self.scratch, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def faulted_run(self, out, args, inject, env=None):
        r = Result()
        r.plan = (args[args.index("--variants") + 1].split(","), int(args[args.index("--reps") + 1]))
        proc = self.start(args + ["--out", out], env)
        try:
            if inject:
                inject(self, proc, out)
        except CaseError:
            proc.kill()
            finish(proc)
            raise
        r.err = finish(proc)
        r.rc = proc.returncode
        r.before = sample_keys(out)
        return r

    def resume_and_check(self, out, r):
        res = self.harness(["run", "--resume", out, "--no-report"])
        r.resume_err = res.stderr
        r.check(res.returncode == 0, f"resume: exit {res.returncode}: {tail(res.stderr)}")
        r.lost = len(r.before - sample_keys(out))
        r.check(r.lost == 0, f"{r.lost} samples written before the fault are gone")
        r.check(complete(out, r.plan[0], r.plan[1]),
                f"after resume: {len(sample_lines(out))} samples, not each planned one once")
        return r

    def overlay_build_dir(self, mode):
        """A build dir whose hugetlb helper is HELPER in `mode`; the rest is the real one's."""
        b = os.path.join(self.scratch, "build-" + mode)
        os.makedirs(os.path.join(b, "guest", "init"), exist_ok=True)
        os.makedirs(os.path.join(b, "workloads", "hugetlb"), exist_ok=True)
        init = os.path.join(b, "guest", "init", "hardbench-init")
        if not os.path.lexists(init):
            os.symlink(os.path.join(self.build_dir, "guest", "init", "hardbench-init"), init)
        helper = os.path.join(b, "workloads", "hugetlb", "hb-hugetlb")
        real = os.path.join(self.build_dir, "workloads", "hugetlb", "hb-hugetlb")
        with open(helper, "w") as f:
            f.write(HELPER.replace("@MODE@", mode).replace("@REAL@", real))
        os.chmod(helper, 0o755)
        return b

    def real_entry(self):
        """The entry `harness boot baseline` would use: the harness names it (a cache may also
        hold older keys of base and other lines' entries, so a glob cannot tell)."""
        res = subprocess.run([self.harness_path, "build", "base", "--dry-run", "--cache", self.real_cache],
                             capture_output=True, text=True)
        m = re.match(r"base: cached \(key [0-9a-f]+\) (\S+)", res.stdout)
        if not m:
            raise CaseError(f"harness build base --dry-run says: {(res.stdout + res.stderr).strip()[:200]}")
        return m.group(1)

    def fake_cache(self, with_entry=True):
        """A cache of its own sharing the extracted source; with a copy of the base entry."""
        self.nsets += 1
        cache = os.path.join(self.scratch, f"cache-{self.nsets}")
        os.makedirs(os.path.join(cache, "kernels"))
        os.symlink(os.path.join(self.real_cache, "src"), os.path.join(cache, "src"))
        if with_entry:
            src = self.real_entry()
            subprocess.run(["cp", "-a", src, os.path.join(cache, "kernels")], check=True)
        return cache

    def fake_build_env(self, cache):
        # Run as root, make runs as the unprivileged uid (kernel/sandbox.h): the fake make,
        # the real entry's files it installs and its record of calls must be reachable by
        # that uid, so they live in a folder every user may enter, not under the build dir
        # (a CI clone's mktemp -d is 0700).
        shared = tempfile.mkdtemp(prefix="hardbench-faults-make-", dir="/var/tmp")
        self.shared.append(shared)
        os.chmod(shared, 0o755)
        bindir = os.path.join(shared, "bin")
        os.makedirs(bindir)
        with open(os.path.join(bindir, "make"), "w") as f:
            f.write(FAKE_MAKE)
        os.chmod(bindir, 0o755)
        os.chmod(os.path.join(bindir, "make"), 0o755)
        real = self.real_entry()
        copy = os.path.join(shared, "entry")
        subprocess.run(["cp", "-a", real, copy], check=True)
        subprocess.run(["chmod", "-R", "a+rX", copy], check=True)
        calls = os.path.join(shared, "make-calls")
        open(calls, "w").close()
        os.chmod(calls, 0o666)
        release = json.load(open(os.path.join(real, "manifest.json")))["release"]
        return {"HARDBENCH_CACHE": cache, "PATH": bindir + ":" + os.environ["PATH"],
                "FAKE_MAKE_CALLS": calls, "FAKE_REAL_ENTRY": copy, "FAKE_RELEASE": release}
