#!/usr/bin/env python3
"""No dependency cycle in the harness, at folder level or file level, by includes or by
calls, except the workload plug-in registry (harness/workload/ reads the parser table
generated from workloads/meson.build, and the parsers call the workload API: the shape
of fio's engines, named in ARCHITECTURE.md).

Usage: cycles.py SOURCE_ROOT BUILD_DIR. TAP, one case per graph:
  folder includes  harness/<folder>/ (executor/slurm/ is executor/), workloads/, guest/:
                   an edge f -> g for each #include of a file of g by a file of f
  folder calls     an edge f -> g when an object of f uses a symbol an object of g defines
                   (nm over the objects of each program and library the build links,
                   read from BUILD_DIR/compile_commands.json)
  file includes    one node per .c or .h file
  file calls       one node per .c file: an edge when it uses a symbol another defines
                   (symbols resolve inside one linked program or library)
The call graphs catch what includes cannot: a header that declares the functions of
several .c files hides the calls between them. A cycle is a strongly connected component
of two or more nodes; each one found is printed with its edges."""
import json
import os
import re
import subprocess
import sys

# Folder cycles that are the design, not a fault.
ALLOWED_FOLDER_CYCLES = [{"harness/workload", "workloads"}]
SOURCE_TOPS = ("harness/", "workloads/", "guest/")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def folder_of(path):
    parts = path.split("/")
    if parts[0] == "harness":
        return "harness/" + parts[1] if len(parts) > 2 else "harness"
    return parts[0]


def source_files(root):
    out = []
    for top in SOURCE_TOPS:
        for d, _, names in os.walk(os.path.join(root, top)):
            for n in names:
                if n.endswith((".c", ".h")) and "/test" not in d and not n.startswith("test_"):
                    out.append(os.path.relpath(os.path.join(d, n), root))
    return sorted(out)


def resolve_include(root, src, name):
    """Where "name" included by src lives: beside it, under harness/, or from the root."""
    for base in (os.path.dirname(src), "harness", ""):
        p = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(root, p)):
            return p
    return None


def include_edges(root):
    edges = set()
    for f in source_files(root):
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for name in INCLUDE.findall(text):
            p = resolve_include(root, f, name)
            if p and p != f and p.startswith(SOURCE_TOPS):
                edges.add((f, p))
    return edges


def source_of(entry, root, build):
    f = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
    if f.startswith(os.path.abspath(build) + os.sep):
        # Generated in the build (the workload registry): it belongs to workloads/.
        return "workloads/(generated)/" + os.path.basename(f)
    return os.path.relpath(f, root)


def nm_symbols(obj):
    out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 2 and fields[0] == "U":
            used.add(fields[1])
        elif len(fields) == 3 and fields[1] in "TDBRC":
            defined.add(fields[2])
    return defined, used


def call_edges(root, build):
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as fh:
        entries = json.load(fh)
    units = {}  # linked target -> [(source, obj)]
    for e in entries:
        src = source_of(e, root, build)
        if not src.startswith(SOURCE_TOPS):
            continue
        obj = os.path.join(e["directory"], e["output"])
        units.setdefault(os.path.dirname(e["output"]), []).append((src, obj))
    edges = set()
    for objs in units.values():
        if any(s.startswith(("harness/main.c",)) for s, _ in objs):
            continue  # the executable: main.c alone, on top of the library
        table = [(s,) + nm_symbols(o) for s, o in objs if os.path.exists(o)]
        owner = {}
        for s, defined, _ in table:
            for sym in defined:
                owner[sym] = s
        for s, _, used in table:
            for sym in used:
                if sym in owner and owner[sym] != s:
                    edges.add((s, owner[sym]))
    return edges


def components(edges):
    """Tarjan's strongly connected components of two or more nodes."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index, low, stack, on, out = {}, {}, [], set(), []
    sys.setrecursionlimit(100000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def by_folder(edges):
    return {(folder_of(a), folder_of(b)) for a, b in edges if folder_of(a) != folder_of(b)}


def report(n, name, edges, allowed):
    found = components(edges)
    bad = [c for c in found if c not in allowed]
    for c in found:
        if c in allowed:
            print("# allowed (the workload plug-in registry): " + " ".join(sorted(c)))
    for c in bad:
        print("# cycle: " + " ".join(sorted(c)))
        print("#   edges: " + ", ".join(f"{a} -> {b}" for a, b in sorted(edges)
                                         if a in c and b in c))
    print(("not ok" if bad else "ok") + f" {n} - {name}" + (f" # {len(bad)} cycle(s)" if bad else ""))
    return bool(bad)


def main():
    if len(sys.argv) != 3:
        print("usage: cycles.py SOURCE_ROOT BUILD_DIR", file=sys.stderr)
        return 2
    root, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    includes, calls = include_edges(root), call_edges(root, build)
    print("TAP version 13\n1..4")
    failed = report(1, "folder includes", by_folder(includes), ALLOWED_FOLDER_CYCLES)
    failed |= report(2, "folder calls", by_folder(calls), ALLOWED_FOLDER_CYCLES)
    failed |= report(3, "file includes", includes, [])
    failed |= report(4, "file calls", calls, [])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
