#!/usr/bin/env python3
"""Fault injection into real runs (real QEMU, virtiofsd, guest kernel): each case injects
one fault into a small `harness run` and asserts that the run goes on or stops with a clear
error, that no sample already written is lost, and that `--resume` completes exactly the
missing repetitions (every planned sample once, no duplicates).

    faults.py HARNESS [CASE ...]

Prints TAP (one line per case) and the table "fault | survived | samples lost".
Needs the base kernel in the cache (`harness build base`); a case that cannot run here
(no tmpfs mount without root) is a TAP SKIP with the reason.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import faultlib as fl


def run_args(reps=4, pages=200, variants="init_on_alloc"):
    # init_on_alloc clears the pool on allocation: ~0.4 s per rep at 200 pages under TCG,
    # a window to inject a fault after rep 0 and before the cell ends.
    return ["run", "--variants", variants, "--workloads", "hugetlb", "--cores", "1",
            "--boots", "1", "--reps", str(reps), "--param", f"hugetlb.pages={pages}",
            "--param", "hugetlb.warmup=no", "--accel", "tcg", "--no-report"]


def kill_child(comm):
    """Kill QEMU or virtiofsd of the running harness after its rep 0 ended."""
    def inject(ctx, proc, out):
        fl.wait_rep_done(out, 0)
        pids = fl.descendants(proc.pid, comm)
        if not pids:
            raise fl.CaseError(f"no {comm} process under the harness")
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
        return f"killed {comm} {pids}"
    return inject


def case_kill(ctx, comm):
    out = ctx.set_dir(comm)
    r = ctx.faulted_run(out, run_args(), kill_child(comm))
    r.expect_exit({1})
    r.expect_error(r"failed after")
    r.expect_reps_kept(out, [0])
    return ctx.resume_and_check(out, r)


def case_helper_fault(ctx, mode, error, kept):
    """A hugetlb helper that misbehaves at some repetitions (faultlib.HELPER): `panic`
    panics the guest (echo c > /proc/sysrq-trigger) at rep 1; `garbage` prints garbage at
    rep 1 and nothing at rep 2. The resume runs with the real helper."""
    out = ctx.set_dir(mode)
    env = {"HARDBENCH_BUILD_DIR": ctx.overlay_build_dir(mode)}
    # The faulty helper runs the real one from the real build dir, which the guest's view
    # of the host holds only when it is shared (the overlay is the build dir it serves).
    r = ctx.faulted_run(out, run_args() + ["--share", ctx.build_dir], None, env)
    r.expect_exit({1})
    r.expect_error(error)
    r.expect_reps_kept(out, kept)
    return ctx.resume_and_check(out, r)


def case_sigkill_harness(ctx):
    out = ctx.set_dir("sigkill")
    state = {}

    def inject(c, proc, o):
        fl.wait_rep_done(o, 0)
        state["children"] = fl.descendants(proc.pid, "qemu-system") + fl.descendants(proc.pid, "virtiofsd")
        state["tmp"] = fl.owned_tmp_dirs(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        return "SIGKILL of the harness"
    r = ctx.faulted_run(out, run_args(), inject)
    r.expect_exit({-9})
    time.sleep(2)
    alive = [p for p in state.get("children", []) if fl.alive(p)]
    r.check(not alive, f"QEMU/virtiofsd left running: {alive}")
    left = [d for d in state.get("tmp", []) if os.path.isdir(d)]
    r.check(left, "no stale hardbench-vm-* folder to clean up (nothing to test)")
    res = ctx.resume_and_check(out, r)
    r.check(not [d for d in left if os.path.isdir(d)], f"stale folders not removed: {left}")
    r.check("temporary folder(s) of harness processes that are gone" in r.resume_err,
            "resume did not say it removed the stale folders")
    return res


def case_full_fs(ctx):
    mnt = os.path.join(ctx.scratch, "smallfs")
    os.makedirs(mnt, exist_ok=True)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mnt],
                      capture_output=True).returncode != 0:
        return fl.Skip("cannot mount a tmpfs (not root?)")
    try:
        out = os.path.join(mnt, "set")

        def inject(c, proc, o):
            fl.wait_rep_done(o, 0)
            return "filled: " + fl.fill(os.path.join(mnt, "filler"))
        r = ctx.faulted_run(out, run_args(), inject)
        r.expect_exit({1})
        r.expect_error(r"(?i)no space left|cannot write")
        os.unlink(os.path.join(mnt, "filler"))
        return ctx.resume_and_check(out, r)
    finally:
        subprocess.run(["umount", "-l", mnt])


def case_corrupt(ctx):
    """A partial set (a run stopped by a QEMU kill), then each file corrupted in turn."""
    base = ctx.set_dir("corrupt-base")
    r0 = ctx.faulted_run(base, run_args(), kill_child("qemu-system"))
    r0.expect_exit({1})
    results = []
    for name, damage in [("samples.jsonl", fl.damage_jsonl), ("cells.jsonl", fl.damage_jsonl),
                         ("meta.json", fl.truncate_half)]:
        out = ctx.set_dir("corrupt-" + name)
        shutil.copytree(base, out)
        before = fl.sample_keys(out)
        damage(os.path.join(out, name))
        r = fl.Result(f"corrupted {name}")
        r.plan = (["init_on_alloc"], 4)
        rep = ctx.harness(["report", out])
        if name == "meta.json":
            saved = fl.read_bytes(out)
            # report needs only the samples: it goes on, warning about meta.json.
            r.check(rep.returncode == 0 and "meta.json" in rep.stderr,
                    f"report: exit {rep.returncode}: {rep.stderr.strip()}")
            res = ctx.harness(run_args_resume(out))
            r.check(res.returncode == 2 and fl.one_line(res.stderr) and "meta.json" in res.stderr,
                    f"resume: exit {res.returncode}: {res.stderr.strip()}")
            r.check(fl.read_bytes(out) == saved, "a refused resume changed the set")
            r.lost = len(before - fl.sample_keys(out))
            r.stopped_clearly = True
        else:
            r.check(rep.returncode == 0, f"report: exit {rep.returncode}: {fl.tail(rep.stderr)}")
            r.before = before
            ctx.resume_and_check(out, r)
            r.check(f"{name}:" in rep.stderr + r.resume_err,
                    f"neither report nor resume warned naming {name}")
        results.append(r)
    return results


def run_args_resume(out):
    return ["run", "--resume", out, "--no-report"]


def case_truncated_image(ctx):
    cache = ctx.fake_cache()
    entry = fl.entry_dir(cache)
    with open(os.path.join(entry, "vmlinux"), "r+b") as f:
        f.truncate(1 << 20)
    env = ctx.fake_build_env(cache)
    r = fl.Result("truncated kernel image")
    b = ctx.harness(["boot", "baseline", "--", "true"], env)
    r.check(b.returncode == 2 and fl.one_line(b.stderr) and "vmlinux is 1048576 bytes" in b.stderr
            and "--force" in b.stderr, f"boot: exit {b.returncode}: {b.stderr.strip()}")
    r.check(not os.path.exists(os.path.join(cache, "accel-probes.json")), "a KVM verdict was cached")
    # The same image given with --kernel (no cache entry to check): the KVM probe fails,
    # so does TCG: the kernel's fault, said so, and no verdict cached.
    if os.access("/dev/kvm", os.R_OK | os.W_OK):
        k = ctx.harness(["boot", "--kernel", os.path.join(entry, "vmlinux"), "--", "true"], env)
        r.check(k.returncode == 125 and "boots under neither KVM" in k.stderr
                and "the kernel's fault" in k.stderr, f"boot --kernel: exit {k.returncode}: {fl.tail(k.stderr)}")
        r.check(not os.path.exists(os.path.join(cache, "accel-probes.json")),
                "a KVM verdict was cached from a truncated image")
    out = ctx.set_dir("truncated")
    run = ctx.harness(run_args(reps=2, pages=64, variants="baseline") + ["--out", out], env)
    r.check(run.returncode == 0 and "damaged cache entry" in run.stderr and "rebuilding it" in run.stderr,
            f"run: exit {run.returncode}: {fl.tail(run.stderr)}")
    r.before, r.stopped_clearly = set(), True
    r.lost = 0
    r.check(fl.complete(out, ["baseline"], reps=2), "the run after the rebuild is not complete")
    return r


def case_two_runs(ctx):
    """Two runs on one cache whose base kernel is still to build: one builds (a fake make
    that takes 4 s and installs the real kernel's files), the other waits for its lock."""
    cache = ctx.fake_cache(with_entry=False)
    env = ctx.fake_build_env(cache)
    outs = [ctx.set_dir("two-a"), ctx.set_dir("two-b")]
    args = run_args(reps=2, pages=64, variants="baseline")
    procs = []
    for i, out in enumerate(outs):
        procs.append(ctx.start(args + ["--out", out], env))
        time.sleep(1.0)
    errs = [fl.finish(p) for p in procs]
    r = fl.Result("two runs at once while a kernel builds")
    r.check(all(p.returncode == 0 for p in procs),
            "exits " + str([p.returncode for p in procs]) + ": " + " | ".join(fl.tail(e) for e in errs))
    r.check(any("waiting for another build of base" in e for e in errs), "no run waited for the build")
    builds = fl.count_calls(env["FAKE_MAKE_CALLS"], "bzImage")
    r.check(builds == 1, f"the kernel was built {builds} times")
    for out in outs:
        r.check(fl.complete(out, ["baseline"], reps=2), f"{out} is not complete")
    r.before, r.lost, r.stopped_clearly = set(), 0, True
    return r


CASES = {
    "kill-qemu": ("kill QEMU mid-cell", lambda c: case_kill(c, "qemu-system")),
    "kill-virtiofsd": ("kill virtiofsd mid-cell", lambda c: case_kill(c, "virtiofsd")),
    "guest-panic": ("guest panic mid-workload",
                    lambda c: case_helper_fault(c, "panic", r"(?i)panic|sysrq", [0])),
    "full-fs": ("full file system under the set", case_full_fs),
    "sigkill": ("SIGKILL of the harness mid-run", case_sigkill_harness),
    "two-runs": ("two runs at once while a kernel builds", case_two_runs),
    "corrupt": ("corrupted set files", case_corrupt),
    "truncated-image": ("truncated kernel image before boot", case_truncated_image),
    "garbage": ("workload prints garbage, then nothing",
                lambda c: case_helper_fault(c, "garbage", r"failed after", [0, 3])),
}


def main():
    harness = os.path.abspath(sys.argv[1])
    names = sys.argv[2:] or list(CASES)
    ctx = fl.Context(harness)
    try:
        ctx.real_entry()
    except fl.CaseError as e:
        print(f"1..0 # SKIP the base kernel is not cached ({e}); 'harness build base' builds it")
        ctx.cleanup()
        return
    rows, n = [], 0
    print(f"1..{len(names)}", flush=True)
    for name in names:
        title, fn = CASES[name]
        n += 1
        t0 = time.monotonic()
        try:
            res = fn(ctx)
        except fl.CaseError as e:
            res = fl.Result(title)
            res.check(False, str(e))
        secs = time.monotonic() - t0
        if isinstance(res, fl.Skip):
            print(f"ok {n} - {title} # SKIP {res.reason}", flush=True)
            rows.append((title, "skipped", "-"))
            continue
        results = res if isinstance(res, list) else [res]
        for r in results:
            r.title = r.title if r.title != "case" else title
            rows.append((r.title, "yes" if r.ok else "NO", str(r.lost)))
        ok = all(r.ok for r in results)
        print(f"{'ok' if ok else 'not ok'} {n} - {title} ({secs:.0f} s)", flush=True)
        for r in results:
            for p in r.problems:
                print(f"#   {r.title}: {p}", flush=True)
    print("#")
    print(f"# {'fault':<45} | survived | samples lost")
    for t, s, lost in rows:
        print(f"# {t:<45} | {s:<8} | {lost}")
    ctx.cleanup()


if __name__ == "__main__":
    main()
