#!/usr/bin/env python3
"""The docs generated from the option tables (TAP): for every command `harness help`
lists, every option getopt accepts (read from the unknown-option error, which lists the
table) appears in its --help, its man page and the bash completion, except the internal
ones, which appear in none; --help fits 80 columns and run's is grouped; `man -l` renders
each page without a warning; and the completion completes commands, options, choices and
the data values (variants, workloads, kernel lines, parameters) of `harness list --names`,
a --configs folder's variant included.
Usage: optdoc.py HARNESS DOCS_DIR"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

harness, docs = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
INTERNAL = {"run": {"shard-of", "shard"}}  # set by the Slurm executor in its own jobs
results = []


def check(ok, name, why=""):
    results.append((bool(ok), name, why))


def run(*args, **kw):
    return subprocess.run([harness, *args], capture_output=True, text=True, **kw)


usage = run("help").stdout
commands = re.findall(r"^  (\w+) ", usage.split("commands:")[1], re.M)
commands = [c for c in commands if c != "help"]
check(len(commands) >= 10, "harness help lists the commands", usage)

completion = open(os.path.join(docs, "harness")).read()
for cmd in commands:
    err = run(cmd, "--no-such-option-x").stderr
    m = re.search(r"accepted options: ([^)]*)\)", err)
    accepted = set(re.findall(r"--([\w-]+)", m.group(1))) - {"help"} if m else set()
    check(accepted or cmd == "merge", f"{cmd}: the unknown-option error lists the table", err)
    helptext = run(cmd, "--help").stdout
    shown = set(re.findall(r"^  (?:-\w, )?--([\w-]+)", helptext, re.M)) - {"help"}
    hidden = accepted - shown
    check(hidden == INTERNAL.get(cmd, set()), f"{cmd}: --help hides exactly the internal options",
          f"hidden {sorted(hidden)}")
    wide = [l for l in helptext.split("\n") if len(l) > 80]
    check(not wide, f"{cmd}: --help fits 80 columns", wide[0] if wide else "")
    check("examples:\n" in helptext, f"{cmd}: --help has examples")
    page_path = os.path.join(docs, f"harness-{cmd}.1")
    page = open(page_path).read() if os.path.exists(page_path) else ""
    in_page = set(re.findall(r"^\.TP\n(?:\\fB\\-\w\\fR, )?\\fB\\-\\-([\w\\-]+)\\fR", page, re.M))
    in_page = {o.replace("\\-", "-") for o in in_page} - {"help"}
    check(page and in_page == shown, f"{cmd}: its man page lists every option of its table",
          f"missing {sorted(shown - in_page)}, extra {sorted(in_page - shown)}")
    var = re.search(rf'^_harness_opts_{cmd}="([^"]*)"', completion, re.M)
    in_comp = set(re.findall(r"--([\w-]+)", var.group(1))) - {"help"} if var else set()
    check(in_comp == shown, f"{cmd}: the completion offers every option of its table",
          f"missing {sorted(shown - in_comp)}, extra {sorted(in_comp - shown)}")
    for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXAMPLES", "EXIT STATUS",
                    "ENVIRONMENT", "FILES"):
        if f".SH {section}\n" not in page:
            check(False, f"{cmd}: its man page has {section}")
            break
    else:
        check(True, f"{cmd}: its man page has every section")

run_help = run("run", "--help").stdout
check(all(h in run_help for h in ("what runs:", "how it is measured:", "where things go:", "advanced:")),
      "run --help is grouped: what runs, how it is measured, where things go, advanced")

# man -l renders each page; groff's warnings (man --warnings) go to stderr.
pages = sorted(f for f in os.listdir(docs) if f.endswith(".1"))
check(len(pages) == len(commands) + 1, "a man page per command and harness(1)", str(pages))
man = shutil.which("man")
for p in pages:
    if not man:
        results.append((True, f"# SKIP man -l {p}: man-db not installed (ci/packages.txt)", ""))
        continue
    r = subprocess.run([man, "--warnings", "-l", os.path.join(docs, p)], capture_output=True,
                       text=True, env=dict(os.environ, MANWIDTH="80", MANPAGER="cat", PAGER="cat"))
    check(r.returncode == 0 and not r.stderr.strip() and len(r.stdout) > 200,
          f"man -l renders {p} without warnings", r.stderr.strip()[:300])

# The completion, as bash runs it: COMP_WORDS in, COMPREPLY out.
scratch = tempfile.mkdtemp(prefix="hb-optdoc-")
try:
    os.makedirs(os.path.join(scratch, "mine/variants"))
    with open(os.path.join(scratch, "mine/variants/zz-mine.variant"), "w") as f:
        f.write("[variant]\nbuild = base\ncmdline = quiet\n")
    cases = [
        (["harness", "ru"], {"run"}, set()),
        (["harness", "run", "--var"], {"--variants", "--variant"}, set()),
        (["harness", "run", "--shard"], set(), {"--shard", "--shard-of"}),
        (["harness", "run", "--order", ""], {"interleaved", "grouped"}, set()),
        (["harness", "run", "--clock", "=", "ic"], {"icount"}, set()),
        (["harness", "run", "--variants", "baseline,init_on_f"], {"baseline,init_on_free"}, set()),
        (["harness", "run", "--kernels", "6.1"], {"6.1", "6.12"}, set()),
        (["harness", "run", "--workloads", "hu"], {"hugetlb"}, set()),
        (["harness", "run", "--param", "hugetlb.p"], {"hugetlb.pages="}, set()),
        (["harness", "boot", "--configs", os.path.join(scratch, "mine"), "zz"], {"zz-mine"}, set()),
        (["harness", "boot", "zz"], set(), {"zz-mine"}),
        (["harness", "build", "kasan-v"], {"kasan-vmalloc"}, set()),
        (["harness", "list", "wo"], {"workloads"}, set()),
    ]
    script = ["source " + os.path.join(docs, "harness"),
              f'harness() {{ "{harness}" "$@"; }}']
    for words, _, _ in cases:
        arr = " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)
        script.append(f"COMP_WORDS=({arr}); COMP_CWORD={len(words) - 1}; COMPREPLY=(); _harness; "
                      'printf "%s\\n" "${COMPREPLY[*]}"')
    # COMP_WORDS[0] is "harness": a PATH with the binary under test first.
    bindir = os.path.join(scratch, "bin")
    os.makedirs(bindir)
    os.symlink(harness, os.path.join(bindir, "harness"))
    out = subprocess.run(["bash", "-c", "\n".join(script)], capture_output=True, text=True,
                         env=dict(os.environ, PATH=bindir + ":" + os.environ["PATH"]))
    lines = out.stdout.split("\n")
    for i, (words, want, unwanted) in enumerate(cases):
        got = set(lines[i].split()) if i < len(lines) else set()
        check(want <= got and not (unwanted & got), f"completion of {' '.join(words[1:])!r}",
              f"got {sorted(got)[:12]}, want {sorted(want)}, not {sorted(unwanted)}; {out.stderr[:200]}")
finally:
    shutil.rmtree(scratch)

print(f"1..{len(results)}")
n = 0
for ok, name, why in results:
    n += 1
    print(f"{'ok' if ok else 'not ok'} {n} - {name}" + ("" if ok or not why else f": {why}"))
sys.exit(0 if all(r[0] for r in results) else 1)
