#!/usr/bin/env bash
# Cycles in the harness's dependency graphs (issue 9: "no cycles"). Figures only: asserts
# nothing. Usage: bench/include-cycles.sh [BUILD_DIR] (default: build), from the
# source root. A cycle here is a strongly connected component of two or more nodes.
#
# Graphs:
#   folders, includes   harness/<f>/, workloads/, guest/: an edge f -> g for each
#                       #include "g/..." in a file under f
#   folders, calls      an edge f -> g when an object of f uses a symbol defined in g
#                       (nm over BUILD_DIR/libhardbench.a.p; needs a build)
#   F/, includes        for each folder F of $CYCLE_FOLDERS (default: boot report), one
#                       node per stem (vm.c + vm.h = vm): an edge for #include "F/x.h"
#   F/, calls           one node per .c of F: an edge when it uses a symbol another defines
# And, last, the analysis files that reach boot/ or kernel/ headers, directly or through
# other headers (gcc -MM): analysis should not depend on the guest side.
# The call graphs catch what includes cannot: a header that declares functions of several
# .c files (vm_session.h) hides the calls between them.
set -euo pipefail
build=${1:-build}
objs="$build/libhardbench.a.p"
[ -d harness ] || { echo "run from the source root (no harness/ here)"; exit 2; }

# "from to" lines.
folder_includes() {
	grep -rHo --include='*.c' --include='*.h' '^#include "[a-z_]*/' harness workloads guest |
		awk -F: '{ n = split($1, p, "/")
			   f = p[1] != "harness" ? p[1] : n > 2 ? p[2] : "main"
			   t = $2; sub(/^#include "/, "", t); sub(/\/$/, "", t)
			   if (f != t) print f, t }' | sort -u
}

# Per stem of one folder ($1): vm.c + vm.h are one node "vm".
stem_includes() {
	grep -Ho "^#include \"$1/[a-z_]*\.h\"" harness/"$1"/*.[ch] |
		sed -E "s|harness/$1/([a-z_]+)\.[ch]:#include \"$1/([a-z_]+)\.h\"|\1 \2|" |
		awk '$1 != $2' | sort -u
}

# "object defined-symbol" and "object used-symbol" joined into "object object" edges;
# $1 maps an object name to its node (folder or boot file).
call_edges() {
	local map=$1 tmp
	tmp=$(mktemp -d)
	for o in "$objs"/*.o; do
		nm "$o" | awk -v n="$(basename "$o" .o)" \
			'$2 ~ /^[TDBRC]$/ { print "D", $3, n } $1 == "U" { print "U", $2, n }'
	done >"$tmp/all"
	awk '$1 == "D" { print $2, $3 }' "$tmp/all" | sort -k1,1 >"$tmp/def"
	awk '$1 == "U" { print $2, $3 }' "$tmp/all" | sort -k1,1 >"$tmp/use"
	join "$tmp/use" "$tmp/def" | awk '{ print $2, $3 }' | $map | awk '$1 != $2' | sort -u
	rm -rf "$tmp"
}
# harness_boot_vm.c -> boot; workloads_kbuild_parse.c -> workloads
obj_folder() { sed -E 's/(^| )meson-generated_[^ ]*_workloads_[^ ]*/\1workloads/g; s/(^| )harness_([a-z]+)_[^ ]*/\1\2/g; s/(^| )(workloads|guest)_[^ ]*/\1\2/g'; }
# Only the objects of folder $folder, one node per .c.
obj_stem() { awk -v p="harness_${folder}_" 'index($1, p) == 1 && index($2, p) == 1' |
	sed -E "s/harness_${folder}_([a-z_]+)\.c/\1/g"; }

# Tarjan over "from to" lines on stdin: prints each component of >= 2 nodes, then a count.
cycles() {
	python3 -c '
import sys
sys.setrecursionlimit(10000)
g = {}
for line in sys.stdin:
    a, b = line.split()
    g.setdefault(a, set()).add(b)
    g.setdefault(b, set())
index, low, stack, on, out = {}, {}, [], set(), []
def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v); on.add(v)
    for w in sorted(g[v]):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        c = []
        while True:
            w = stack.pop(); on.discard(w); c.append(w)
            if w == v: break
        if len(c) > 1: out.append(sorted(c))
for v in sorted(g):
    if v not in index: visit(v)
for c in out:
    inner = sorted((a, b) for a in c for b in g[a] if b in c)
    print("  cycle: " + " ".join(c))
    print("    edges: " + ", ".join(a + "->" + b for a, b in inner))
print("  %d cycle(s)" % len(out))
'
}

# Analysis sources and the boot/ and kernel/ headers they pull in (transitively).
analysis_reach() {
	local f deps n=0
	for f in harness/{analysis,report,plot,gate,import,results,stats,hostinfo}/*.c; do
		deps=$(gcc -MM -MG -Iharness "$f" | tr ' \\' '\n\n' |
		       sed -n 's|^harness/\(boot/.*\)|\1|p; s|^harness/\(kernel/.*\)|\1|p' | sort -u | tr '\n' ' ')
		if [ -n "$deps" ]; then
			echo "  $f: $deps"
			n=$((n + 1))
		fi
	done
	echo "  $n analysis file(s) reach boot/ or kernel/ headers"
}

echo "folders, includes:"
folder_includes | cycles
for folder in ${CYCLE_FOLDERS:-boot report}; do
	echo "$folder/, includes (per stem):"
	stem_includes "$folder" | cycles
done
if [ -d "$objs" ]; then
	echo "folders, calls:"
	call_edges obj_folder | cycles
	for folder in ${CYCLE_FOLDERS:-boot report}; do
		echo "$folder/, calls (per .c):"
		call_edges obj_stem | cycles
	done
else
	echo "(no $objs: build first for the call graphs)"
fi
echo "analysis -> boot/, kernel/ headers:"
analysis_reach
