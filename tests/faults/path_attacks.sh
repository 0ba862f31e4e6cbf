#!/bin/bash
# Attacks of another local user (nobody) who owns a folder above the one the harness
# writes in, or swaps a file between the harness making it and another program opening it
# by path (issue 39). The harness runs as root (this test); nobody prepares its side with
# setpriv. Each case is one TAP line; a "before" column for the issue's note comes from
# running this script against the harness of the commit before (see docs/security.md).
#   1 plot --out in nobody's folder (and plot RUN of a set nobody owns): nobody swaps the
#     .gp for its own at the close of the write (tests/faults/path_attack.c); root's
#     gnuplot must never run it
#   2 run/import --out P/run1 with P nobody's: refused before anything is made
#   3 --out through nobody's symlink to a root folder: nothing written there
#   4 --log-dir in nobody's folder: refused before a boot (console.log would be swapped
#     for a link); a log folder of root's hands QEMU console.log as a descriptor
#     (and a --qemu-plugin in nobody's folder: QEMU loads it by path, as root)
#   5 a cache whose parent nobody owns; an XDG_RUNTIME_DIR that is nobody's symlink to /run
#   7 a series whose patch 1 makes usr a symlink to a root folder and patch 2 touches
#     usr/Makefile: the series check writes nothing there
#   9 CSV cells that a spreadsheet runs (=, +, -, @); ESC, BEL and C1 in `harness list`
#     and in report text on a terminal
# Deterministic: every refusal happens before the harness writes anything, so nothing
# depends on who wins a race; the swaps only matter against a harness that does write.
#   path_attacks.sh HARNESS PATH_ATTACK DATA_DIR
set -u
HARNESS=$(realpath "$1")
ATTACK=$(realpath "$2")
DATA=$(realpath "$3")
CSV=$DATA/seed001-cook-kbuild.csv
. "$(dirname "$0")/../common/lib.sh"

if [ "$(id -u)" != 0 ] || ! command -v setpriv > /dev/null || ! id nobody > /dev/null 2>&1; then
	tap_case "attacks of nobody on a root harness"
	tap_skip "needs root, setpriv and the user nobody"
	tap_finish
fi
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
# nobody's folder, in /tmp as an attacker would make it; removed with WORK.
NB=$(mktemp -d /tmp/hardbench-nobody-XXXXXX)
chown nobody:nogroup "$NB"
trap 'rm -rf "$WORK" "$NB"' EXIT
# Where only root may write: a marker there proves root ran nobody's code.
ROOTONLY=$WORK/rootonly
mkdir -m 0700 "$ROOTONLY"
"$HARNESS" import "$CSV" --out "$WORK/set" > /dev/null 2>&1 || { echo "Bail out! cannot import $CSV"; exit 1; }

# refused RC OUTPUT WHAT: the harness exited 2 naming nobody as the owner.
refused() {
	[ "$1" -eq 2 ] || fail "$3: exit $1, expected 2 (refused): $(tail -1 "$2")"
	grep -q "nobody" "$2" || fail "$3: the refusal does not name the owner (nobody): $(tail -1 "$2")"
}

# attack_plot OUT_DIR HARNESS_ARGS...: nobody swaps the first .gp closed in OUT_DIR for a
# script that touches a file in ROOTONLY.
attack_plot() {
	local dir=$1 marker=$ROOTONLY/pwned-$RANDOM rc apid
	shift
	printf 'system "touch %s"\n' "$marker" | as_nobody tee "$NB/evil.gp" > /dev/null
	# setpriv itself in the background (it execs the attacker): $! is then the attacker,
	# not a subshell that would outlive the kill.
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$ATTACK" swap-on-close "$dir" .gp "$NB/evil.gp" \
		> "$WORK/attack.out" 2>&1 &
	apid=$!
	for _ in $(seq 50); do grep -q ready "$WORK/attack.out" && break; sleep 0.1; done
	"$HARNESS" "$@" > "$WORK/plot.out" 2>&1
	rc=$?
	kill "$apid" 2> /dev/null
	wait "$apid" 2> /dev/null
	echo "# attacker: $(tr '\n' ' ' < "$WORK/attack.out"); harness exit $rc: $(tail -1 "$WORK/plot.out")"
	[ ! -e "$marker" ] || fail "root ran nobody's gnuplot script (it made $marker)"
	return "$rc"
}

tap_case "1 plot --out in a folder nobody owns"
as_nobody mkdir "$NB/plots"
attack_plot "$NB/plots" plot "$WORK/set" --out "$NB/plots" --format svg
refused $? "$WORK/plot.out" "plot --out $NB/plots"
[ -z "$(ls -A "$NB/plots")" ] || fail "plot wrote into nobody's folder: $(ls "$NB/plots")"

tap_case "1 plot RUN of a result set nobody owns (default RUN/plots)"
cp -r "$WORK/set" "$NB/set"
chown -R nobody:nogroup "$NB/set"
as_nobody mkdir "$NB/set/plots"
attack_plot "$NB/set/plots" plot "$NB/set" --format svg
refused $? "$WORK/plot.out" "plot $NB/set"
grep -q -- "--out DIR" "$WORK/plot.out" || fail "the refusal does not say --out draws elsewhere"

tap_case "2 run/import --out P/run1 where nobody owns P"
"$HARNESS" run --dry-run --out "$NB/run1" --variants baseline --workloads hackbench --cores 1 \
	> "$WORK/run.out" 2>&1
refused $? "$WORK/run.out" "run --dry-run --out $NB/run1"
"$HARNESS" import "$CSV" --out "$NB/run1" > "$WORK/import.out" 2>&1
refused $? "$WORK/import.out" "import --out $NB/run1"
[ ! -e "$NB/run1" ] || fail "root made $NB/run1 in nobody's folder (nobody can rename it away later)"

tap_case "3 --out through a symlink nobody owns"
mkdir -m 0755 "$WORK/rootdir"
as_nobody ln -s "$WORK/rootdir" "$NB/out"
"$HARNESS" import "$CSV" --out "$NB/out" > "$WORK/import.out" 2>&1
refused $? "$WORK/import.out" "import --out $NB/out"
[ -z "$(ls -A "$WORK/rootdir")" ] || fail "import wrote $(ls "$WORK/rootdir" | tr '\n' ' ')into a root folder through nobody's symlink"

tap_case "4 --log-dir in a folder nobody owns; QEMU gets console.log as a descriptor"
"$HARNESS" boot --dry-run --kernel "$CSV" --log-dir "$NB/logs" -- true > "$WORK/boot.out" 2>&1
refused $? "$WORK/boot.out" "boot --log-dir $NB/logs"
[ ! -e "$NB/logs" ] || fail "root made $NB/logs in nobody's folder"
"$HARNESS" boot --dry-run --kernel "$CSV" --log-dir "$WORK/logs" -- true > "$WORK/boot.out" 2>&1
if grep -q 'id=hb-con' "$WORK/boot.out"; then
	grep -q -- '-add-fd fd=[^ ]*,set=1' "$WORK/boot.out" && grep -q 'id=hb-con,path=/dev/fdset/1' "$WORK/boot.out" ||
		fail "QEMU's console is not handed over as a descriptor: $(grep hb-con "$WORK/boot.out")"
	grep -q "$WORK/logs/console.log" "$WORK/boot.out" &&
		fail "console.log's path is on QEMU's line: QEMU would open it itself"
else
	tap_skip "no QEMU line printed: $(tail -1 "$WORK/boot.out")"
fi

tap_case "4 a --qemu-plugin nobody could swap before QEMU (root) loads it"
as_nobody cp /bin/true "$NB/plugin.so"
"$HARNESS" boot --dry-run --kernel "$CSV" --qemu-plugin "$NB/plugin.so" -- true > "$WORK/plugin.out" 2>&1
refused $? "$WORK/plugin.out" "boot --qemu-plugin $NB/plugin.so"

tap_case "5 a cache whose parent nobody owns; XDG_RUNTIME_DIR a symlink of nobody's"
mkdir "$NB/cache"
HARDBENCH_CACHE=$NB/cache "$HARNESS" build base --dry-run > "$WORK/cache.out" 2>&1
refused $? "$WORK/cache.out" "HARDBENCH_CACHE=$NB/cache"
as_nobody ln -s /run "$NB/rt"
XDG_RUNTIME_DIR=$NB/rt "$HARNESS" boot --dry-run --kernel "$CSV" -- true > "$WORK/rt.out" 2>&1
grep -q "$NB/rt" "$WORK/rt.out" && fail "the runtime root is under nobody's symlink: $(grep -o "$NB/rt[^ ]*" "$WORK/rt.out" | head -1)"

tap_case "7 a series that makes usr a symlink, then patches usr/Makefile"
mkdir -p "$WORK/tree/usr" "$WORK/series" "$WORK/rootdir7"
printf 'obj-y := a.o\n' > "$WORK/tree/usr/Makefile"
{
	printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
	printf 'From: Nobody <nobody@example.org>\nDate: Fri, 4 Dec 2026 00:00:00 +0000\n'
	printf 'Subject: [PATCH 1/2] usr: a link\n\n---\n'
	printf 'diff --git a/usr b/usr\nnew file mode 120000\nindex 0000000..1111111\n'
	printf -- '--- /dev/null\n+++ b/usr\n@@ -0,0 +1 @@\n+%s\n\\ No newline at end of file\n' "$WORK/rootdir7"
} > "$WORK/series/0001-usr-a-link.patch"
{
	printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
	printf 'From: Nobody <nobody@example.org>\nDate: Fri, 4 Dec 2026 00:00:00 +0000\n'
	printf 'Subject: [PATCH 2/2] usr: one more object\n\n---\n'
	printf 'diff --git a/usr/Makefile b/usr/Makefile\n--- a/usr/Makefile\n+++ b/usr/Makefile\n'
	printf '@@ -1 +1,2 @@\n obj-y := a.o\n+obj-y += b.o\n'
} > "$WORK/series/0002-usr-one-more.patch"
chown -R nobody:nogroup "$WORK/series"
HARDBENCH_RESULTS=$WORK/results "$HARNESS" run --dry-run --source "$WORK/tree" --patch "link=$WORK/series" \
	--variants baseline --workloads hackbench --cores 1 > "$WORK/series.out" 2>&1
echo "# exit $?: $(tail -1 "$WORK/series.out")"
[ -z "$(ls -A "$WORK/rootdir7")" ] || fail "the series check wrote $(ls "$WORK/rootdir7") into a root folder through the patch's symlink"

tap_case "9 CSV cells a spreadsheet would run"
{
	echo "variant,workload,metric,unit,cores,rep,value,lower_is_better"
	for rep in 1 2 3; do
		for v in baseline '=HYPERLINK("http://x.invalid/?a")' '+cmd' '@SUM(1)' '-2+3'; do
			printf '"%s",kbuild,wall,s,4,%d,%d.5,true\n' "$(printf '%s' "$v" | sed 's/"/""/g')" "$rep" $((100 + rep))
		done
	done
} > "$WORK/formula.csv"
"$HARNESS" import "$WORK/formula.csv" --out "$WORK/formula" > /dev/null 2>&1 || fail "cannot import the formula CSV"
"$HARNESS" report "$WORK/formula" --format csv > "$WORK/formula.out" 2> "$WORK/formula.err"
grep -q '=HYPERLINK' "$WORK/formula.out" || fail "no report row for the '=HYPERLINK' variant: $(head -3 "$WORK/formula.err")"
# Every cell that begins with = + - @ TAB or CR must be a number (a spreadsheet runs it).
python3 - "$WORK/formula.out" > "$WORK/formula.bad" <<'PY'
import csv, sys
for row in csv.reader(open(sys.argv[1], newline="")):
    for cell in row:
        if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
            try:
                float(cell)
            except ValueError:
                print(cell)
PY
[ -s "$WORK/formula.bad" ] && fail "CSV cells a spreadsheet takes for formulas: $(head -2 "$WORK/formula.bad" | tr '\n' ' ')"
grep -q "^kbuild,wall,s,4,'=HYPERLINK" "$WORK/formula.out" || grep -q "'=HYPERLINK" "$WORK/formula.out" ||
	fail "the '=HYPERLINK' variant is not quoted with a leading '"
grep -Eq ',-?[0-9]+\.[0-9]+,' "$WORK/formula.out" || fail "numbers are no longer plain numbers: $(sed -n 2p "$WORK/formula.out")"

tap_case "9 ESC, BEL and C1 controls from data reach no terminal"
if ! command -v script > /dev/null; then
	tap_skip "no script(1) to give the harness a terminal"
else
	mkdir -p "$WORK/configs/variants"
	printf '[variant]\nbuild = base\ncmdline = init_on_alloc=0\ndescription = \033]0;owned\007 title \302\233 2J\n' \
		> "$WORK/configs/variants/evil.variant"
	script -qec "'$HARNESS' list variants --configs '$WORK/configs'" /dev/null > "$WORK/list.out" 2>&1
	grep -q "title" "$WORK/list.out" || fail "the evil variant is not listed: $(tail -2 "$WORK/list.out")"
	LC_ALL=C grep -q $'\033\]0;\|\007\|\302\233' "$WORK/list.out" && fail "harness list printed ESC, BEL or C1 to a terminal"
	# A set whose variant name holds a C1 CSI (U+009B): report text on a terminal.
	printf 'variant,workload,metric,unit,cores,rep,value,lower_is_better\n' > "$WORK/c1.csv"
	for rep in 1 2 3; do
		printf 'baseline,kbuild,wall,s,4,%d,10%d,true\nx\302\2332Jy,kbuild,wall,s,4,%d,11%d,true\n' \
			"$rep" "$rep" "$rep" "$rep" >> "$WORK/c1.csv"
	done
	"$HARNESS" import "$WORK/c1.csv" --out "$WORK/c1" > /dev/null 2>&1
	if [ -s "$WORK/c1/samples.jsonl" ]; then
		script -qec "'$HARNESS' report '$WORK/c1'" /dev/null > "$WORK/c1.out" 2>&1
		LC_ALL=C grep -q $'\302\233' "$WORK/c1.out" && fail "report printed a C1 CSI to a terminal"
	fi
fi
tap_finish
