#!/bin/sh
# `harness build` end to end on a tiny fake kernel tree and a fake `make` first on PATH:
# the real recipe, lock, staging, verification, manifest and cache run; only the compiler
# work is faked, so each case takes about a second.
#   fake-build.sh HARNESS CASE    CASE: success | failure | dropped | killed | parallel | patches | usage |
#                                       integrity | lines | modules | configs | patch | per-patch
set -u
HARNESS=$(realpath "$1")
CASE=$2
T=$(mktemp -d /tmp/hardbench-fakebuild-XXXXXX)
# Run as root, make runs as the build uid (kernel/sandbox.h): it must reach the fake make
# on PATH and write the records below, as any user of the machine could (sticky, as /tmp).
chmod 1777 "$T"
trap 'chmod -R u+w "$T" 2>/dev/null; rm -rf "$T"' EXIT

fail() { echo "FAIL ($CASE): $*" >&2; exit 1; }

# --- a fake kernel tree, as a tarball -----------------------------------------------------
mkdir -p "$T/mk/linux-fake/scripts/kconfig" "$T/bin" "$T/cache"
echo 'all:' > "$T/mk/linux-fake/Makefile"
echo 'config A' > "$T/mk/linux-fake/Kconfig"
# merge_config.sh -m -O DIR BASE FRAGMENT...: appends the fragments (later lines win).
cat > "$T/mk/linux-fake/scripts/kconfig/merge_config.sh" <<'EOF'
#!/bin/sh
shift; shift; out=$1; shift; base=$1; shift
cat "$@" >> "$base"
EOF
chmod +x "$T/mk/linux-fake/scripts/kconfig/merge_config.sh"
tar -cJf "$T/linux-fake.tar.xz" -C "$T/mk" linux-fake || fail "cannot make the tarball"

# --- a fake make: records each call; behaviour set by FAKE_* variables ---------------------
cat > "$T/bin/make" <<'EOF'
#!/bin/sh
echo "$*" >> "$FAKE_MAKE_CALLS"
id -u >> "$FAKE_MAKE_CALLS.uids"
[ -n "${FAKE_MAKE_REFUSE:-}" ] && { echo "make must not run" >&2; exit 99; }
# An out-of-tree module (M=DIR): one .ko per .c, holding the source; installed into
# INSTALL_MOD_DIR, whose default is updates/ (as kbuild's since 6.6).
m=
moddir=updates
for a; do
	case $a in M=*) m=${a#M=} ;; INSTALL_MOD_DIR=*) moddir=${a#INSTALL_MOD_DIR=} ;; esac
done
if [ -n "$m" ]; then
	for a; do
		case $a in
		modules)
			[ -n "${FAKE_MODULE_FAIL:-}" ] && { echo "$m/probe.c:1:1: error: module boom"; exit 2; }
			for c in "$m"/*.c; do
				echo "  CC [M]  $c"; cat "$c" > "${c%.c}.ko"
			done ;;
		INSTALL_MOD_PATH=*)
			d=${a#INSTALL_MOD_PATH=}/lib/modules/6.1.0-fake/$moddir
			mkdir -p "$d" && cp "$m"/*.ko "$d"/ ;;
		esac
	done
	exit 0
fi
for a; do
	case $a in
	tinyconfig) mkdir -p obj && echo 'CONFIG_64BIT=y' > obj/.config ;;
	olddefconfig) grep -v '^CONFIG_DROPME=' obj/.config > obj/.new; mv obj/.new obj/.config ;;
	bzImage)
		if [ -n "${FAKE_MAKE_FAIL:-}" ] || { [ -n "${FAKE_MAKE_FAIL_IF:-}" ] && grep -q "$FAKE_MAKE_FAIL_IF" Makefile; }; then
			echo "mm/slub.c:12:3: error: boom"; echo "make: *** [Makefile:1] Error 2"; exit 2
		fi
		[ -n "${FAKE_MAKE_PIDFILE:-}" ] && echo $$ > "$FAKE_MAKE_PIDFILE"
		if [ -n "${FAKE_MAKE_SLEEP:-}" ]; then
			# Like GNU make, pass SIGTERM on to what it runs.
			sleep "$FAKE_MAKE_SLEEP" & trap 'kill $! 2>/dev/null; exit 143' TERM; wait $!
		fi
		mkdir -p obj/arch/x86/boot obj/include/config
		printf '  CC      a.o\n  CC      b.o\n  CC      c.o\n  CC [M]  m.o\n  LD      vmlinux\n'
		echo kernel > obj/arch/x86/boot/bzImage; echo elf > obj/vmlinux
		echo 6.1.0-fake > obj/include/config/kernel.release ;;
	INSTALL_MOD_PATH=*) mkdir -p "${a#INSTALL_MOD_PATH=}/lib/modules/6.1.0-fake" ;;
	esac
done
exit 0
EOF
chmod +x "$T/bin/make"

# --- kernel-configs/ of the test -----------------------------------------------------------
mkdir -p "$T/src/kernel-configs/builds" "$T/src/kernel-configs/variants" \
	"$T/src/kernel-configs/lines" "$T/src/kernel-configs/fragments" \
	"$T/src/kernel-configs/patches/series/6.12"
printf '[line]\nsource = /nonexistent/6.1.tar.xz\n' > "$T/src/kernel-configs/lines/6.1.line"
printf '[line]\nsource = /nonexistent/6.12.tar.xz\nfragments = l12\n' \
	> "$T/src/kernel-configs/lines/6.12.line"
printf '# CONFIG_L12 is not set\n' > "$T/src/kernel-configs/fragments/l12.config"
printf 'not applied here\n' > "$T/src/kernel-configs/patches/series/6.12/0001-x.patch"
printf '[build]\ndescription = fake 6.12-only\npatches = series\n' \
	> "$T/src/kernel-configs/builds/only612.build"
printf '[variant]\nbuild = only612\ncmdline = init_on_alloc=0 init_on_free=0\n' \
	> "$T/src/kernel-configs/variants/only612.variant"
printf 'CONFIG_64BIT=y\nCONFIG_A=y\n' > "$T/src/kernel-configs/base.config"
printf '[build]\ndescription = fake base\nseed = 001\nfragments =\npatches =\n' \
	> "$T/src/kernel-configs/builds/base.build"
printf '[build]\ndescription = fake patched\npatches = nothere\n' \
	> "$T/src/kernel-configs/builds/patched.build"
printf '[variant]\nbuild = base\ncmdline = init_on_alloc=0 init_on_free=0\n' \
	> "$T/src/kernel-configs/variants/baseline.variant"

export HARDBENCH_SOURCE_DIR="$T/src" FAKE_MAKE_CALLS="$T/make-calls"
export PATH="$T/bin:$PATH"
build() { "$HARNESS" build --source "$T/linux-fake.tar.xz" --cache "$T/cache" "$@"; }
entry() { ls -d "$T"/cache/kernels/base-* 2>/dev/null | grep -v '\.tmp-\|\.old-'; }
no_leftovers() {
	ls -a "$T/cache/kernels" 2>/dev/null | grep -q '^\.tmp-' && fail "staging folder left behind"
	[ -z "$(ls "$T/cache/work" 2>/dev/null)" ] || fail "work folder left behind: $(ls "$T/cache/work")"
}

case $CASE in
success)
	build baseline > "$T/out" 2> "$T/err" || { cat "$T/err"; fail "first build failed"; }
	E=$(entry); [ -n "$E" ] || fail "no cache entry"
	for f in bzImage vmlinux config build.log manifest.json modules/lib/modules/6.1.0-fake; do
		[ -e "$E/$f" ] || fail "entry lacks $f"
	done
	grep -q '"release": "6.1.0-fake"' "$E/manifest.json" || fail "manifest release"
	grep -q '"compiles": 4' "$E/manifest.json" || fail "manifest compile count (4 CC lines)"
	grep -q '"CONFIG_A": "y"' "$E/manifest.json" || fail "manifest options"
	grep -q "^base: $E (release 6.1.0-fake)" "$T/out" || fail "stdout: $(cat "$T/out")"
	no_leftovers
	grep -q tinyconfig "$T/make-calls" || fail "make tinyconfig never ran"
	# Run as root, every make ran as the unprivileged uid (common/unpriv.h), none as root.
	if [ "$(id -u)" = 0 ]; then
		uids=$(sort -u "$T/make-calls.uids" | tr '\n' ' ')
		[ "$uids" = "${HARDBENCH_UNPRIV_UID:-2147000000} " ] || fail "make ran as uid(s) $uids, not 2147000000"
		echo "# make ran as uid(s) $uids"
	fi
	# A hit runs no make at all: this make exits 99 and leaves a record if called.
	rm -f "$T/make-calls"
	FAKE_MAKE_REFUSE=1 build base > "$T/out2" 2> "$T/err2" || { cat "$T/err2"; fail "cached build failed"; }
	[ ! -e "$T/make-calls" ] || fail "make ran on a cache hit: $(cat "$T/make-calls")"
	grep -q "^base: $E " "$T/out2" || fail "hit did not return the entry"
	build --dry-run base | grep -q '^base: cached' || fail "dry-run does not say cached"
	# --force rebuilds and replaces the entry in place.
	build --force base > /dev/null 2>&1 || fail "--force build failed"
	grep -q bzImage "$T/make-calls" || fail "--force did not run make"
	[ "$(entry)" = "$E" ] || fail "--force moved the entry"
	no_leftovers
	# Relative --source and --cache: make runs elsewhere, so the harness must not pass
	# them on relative (modules would land inside the source copy).
	(cd "$T" && "$HARNESS" build --source linux-fake.tar.xz --cache relcache base > /dev/null 2>&1) ||
		fail "relative --cache build failed"
	ls -d "$T"/relcache/kernels/base-*/modules/lib/modules/6.1.0-fake > /dev/null 2>&1 ||
		fail "relative --cache: modules not in the entry"
	;;
failure)
	FAKE_MAKE_FAIL=1 build base > "$T/out" 2> "$T/err" && fail "a failing make built"
	[ $? -eq 1 ] || fail "exit status is not 1"
	grep -q "failed at compile (exit 2)" "$T/err" || fail "error does not name the step: $(cat "$T/err")"
	grep -q "mm/slub.c:12:3: error: boom" "$T/err" || fail "error does not quote the log"
	LOG=$(sed -n 's/.*; log: \(.*\)$/\1/p' "$T/err")
	[ -f "$LOG" ] || fail "the log named ($LOG) does not exist"
	[ -z "$(entry)" ] || fail "a failed build left an entry"
	no_leftovers
	;;
dropped)
	printf 'CONFIG_DROPME=y\n' >> "$T/src/kernel-configs/base.config"
	build base > "$T/out" 2> "$T/err" && fail "a dropped option was accepted"
	grep -q "CONFIG_DROPME: asked y, got absent" "$T/err" || fail "dropped option not named: $(cat "$T/err")"
	grep -q "did not hold after olddefconfig" "$T/err" || fail "no verification message"
	grep -q bzImage "$T/make-calls" && fail "compiled after a failed verification"
	[ -z "$(entry)" ] || fail "a failed build left an entry"
	no_leftovers
	;;
killed)
	# A harness killed mid-compile (SIGKILL: no handler runs) must not leave its make.
	# Not through build(): $! must be the harness itself, not a subshell.
	FAKE_MAKE_SLEEP=60 FAKE_MAKE_PIDFILE="$T/make.pid" "$HARNESS" build --source "$T/linux-fake.tar.xz" \
		--cache "$T/cache" base > "$T/out" 2> "$T/err" & P=$!
	i=0; while [ ! -s "$T/make.pid" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s "$T/make.pid" ] || fail "the fake make never started: $(cat "$T/err")"
	M=$(cat "$T/make.pid")
	kill -KILL $P; wait $P 2>/dev/null
	i=0; while kill -0 "$M" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	kill -0 "$M" 2>/dev/null && { kill "$M"; fail "make (pid $M) outlived the killed harness"; }
	[ -z "$(entry)" ] || fail "a killed build left an entry"
	;;
parallel)
	FAKE_MAKE_SLEEP=2 build base > "$T/o1" 2> "$T/e1" & P1=$!
	sleep 0.5
	FAKE_MAKE_SLEEP=2 build base > "$T/o2" 2> "$T/e2" & P2=$!
	wait $P1 || fail "first parallel build failed: $(cat "$T/e1")"
	wait $P2 || fail "second parallel build failed: $(cat "$T/e2")"
	N=$(grep -c bzImage "$T/make-calls")
	[ "$N" -eq 1 ] || fail "the kernel was compiled $N times"
	cat "$T/e1" "$T/e2" | grep -q "waiting for another build of base" || fail "no waiting message"
	cmp -s "$T/o1" "$T/o2" || fail "the two builds returned different entries"
	;;
patches)
	build patched > "$T/out" 2> "$T/err"; [ $? -eq 2 ] || fail "a build without its patches: exit is not 2"
	[ "$(wc -l < "$T/err")" -eq 1 ] || fail "missing series: not one line: $(cat "$T/err")"
	grep -q "build 'patched' has no patch series for kernel line 6.1: .*kernel-configs/patches/nothere/6.1 does not exist (lines with a series: none)" "$T/err" ||
		fail "folder not named: $(cat "$T/err")"
	build --dry-run patched > /dev/null 2>&1 && fail "dry-run of a build without patches exits 0"
	build only612 2> "$T/err"; [ $? -eq 2 ] || fail "6.12-only variant on 6.1: exit is not 2"
	grep -q "no patch series for kernel line 6.1: .*patches/series/6.1 does not exist (lines with a series: 6.12)" "$T/err" ||
		fail "6.12-only variant: $(cat "$T/err")"
	[ ! -e "$T/make-calls" ] || fail "make ran"
	;;
configs)
	# A user folder: a copy of base under another name shares base's entry (same key).
	build base > /dev/null 2>&1 || fail "base build failed"
	E=$(entry)
	mkdir -p "$T/user/builds"
	cp "$T/src/kernel-configs/builds/base.build" "$T/user/builds/mybase.build"
	rm -f "$T/make-calls"
	FAKE_MAKE_REFUSE=1 build mybase --configs "$T/user" > "$T/out" 2> "$T/err" || { cat "$T/err"; fail "mybase failed"; }
	grep -q "^mybase: $E " "$T/out" || fail "mybase did not use base's entry $E: $(cat "$T/out")"
	FAKE_MAKE_REFUSE=1 HARDBENCH_CONFIGS="$T/user" build mybase > /dev/null 2>&1 || fail "HARDBENCH_CONFIGS not read"
	# A user file with a project name: refused, unless it says overrides = yes.
	cp "$T/src/kernel-configs/builds/base.build" "$T/user/builds/base.build"
	build base --configs "$T/user" 2> "$T/err"; [ $? -eq 2 ] || fail "a shadowing build: exit is not 2"
	grep -q "user/builds/base.build: has the name of .*kernel-configs/builds/base.build (accepted: another name, or 'overrides = yes'" "$T/err" ||
		fail "shadowing: $(cat "$T/err")"
	echo 'overrides = yes' >> "$T/user/builds/base.build"
	FAKE_MAKE_REFUSE=1 build base --configs "$T/user" > "$T/out" 2>&1 || fail "overrides = yes refused: $(cat "$T/out")"
	[ ! -e "$T/make-calls" ] || fail "make ran: $(cat "$T/make-calls")"
	;;
patch)
	# --patch: base + the series as build NAME, the real patch(1) on the real copy.
	printf 'Subject: [PATCH] fake: mark the Makefile\n\n---\n--- a/Makefile\n+++ b/Makefile\n@@ -1 +1 @@\n-all:\n+all: # patched\n' \
		> "$T/mark.patch"
	build --patch "$T/mark.patch" > "$T/out" 2> "$T/err" || { cat "$T/err"; fail "--patch build failed"; }
	grep -q "^fake-mark-the-makefile: $T/cache/kernels/fake-mark-the-makefile-" "$T/out" ||
		fail "the build is not named from the subject: $(cat "$T/out")"
	grep -q "patching file Makefile" "$T/cache"/kernels/fake-mark-the-makefile-*/build.log || fail "not patched"
	sed 's/^-all:$/-any:/' "$T/mark.patch" > "$T/bad.patch"
	rm -f "$T/make-calls"
	build --patch "mark=$T/bad.patch" 2> "$T/err"; [ $? -eq 2 ] || fail "a damaged patch: exit is not 2"
	grep -q "^harness: --patch mark: $T/bad.patch: patch 1/1 'fake: mark the Makefile' does not apply to .*: hunk #1 FAILED at 1 in Makefile$" "$T/err" ||
		fail "damaged patch: $(cat "$T/err")"
	[ ! -e "$T/make-calls" ] || fail "make ran"
	;;
per-patch)
	# run --per-patch: a step that does not build is named, patch number and subject, and
	# nothing boots; the steps before it are built (and cached), the ones after it are not.
	mkdir -p "$T/series"
	mail() { printf 'Subject: [PATCH %s/3] %s\n\n---\n--- a/Makefile\n+++ b/Makefile\n@@ -1 +1 @@\n-%s\n+%s\n' "$@"; }
	mail 1 "fake: mark the Makefile" "all:" "all: # one" > "$T/series/0001-one.patch"
	mail 2 "fake: break the build" "all: # one" "all: # one BROKEN" > "$T/series/0002-two.patch"
	mail 3 "fake: a comment" "all: # one BROKEN" "all: # one BROKEN three" > "$T/series/0003-three.patch"
	cp -r "${HARDBENCH_TEST_WORKLOADS:?}" "$T/src/workloads"
	FAKE_MAKE_FAIL_IF=BROKEN "$HARNESS" run --source "$T/linux-fake.tar.xz" --cache "$T/cache" \
		--patch "s=$T/series" --per-patch --variants baseline --workloads hackbench --cores 1 \
		--boots 1 --clock icount --out "$T/run" > "$T/out" 2> "$T/err"
	rc=$?
	cat "$T/err"
	[ "$rc" = 1 ] || fail "a step that does not build: exit $rc, want 1"
	grep -q "^harness: error: kernel build 's.2' (line 6.1) failed: patch 2/3 'fake: break the build' of --patch s does not build: no cell was run$" "$T/err" ||
		fail "the failure does not name patch 2/3 and its subject"
	ls -d "$T"/cache/kernels/s.1-* > /dev/null 2>&1 || fail "step 1 was not built"
	! ls -d "$T"/cache/kernels/s.3-* > /dev/null 2>&1 || fail "step 3 was built after step 2 failed"
	[ ! -s "$T/run/samples.jsonl" ] || fail "something was measured"
	# The same for a range of commits: the commit that does not build, named.
	git init -q "$T/repo" && tar -xJf "$T/linux-fake.tar.xz" -C "$T/repo" --strip-components=1 || fail "repo"
	gitc() { git -C "$T/repo" -c user.name=t -c user.email=t@t.invalid "$@" > /dev/null || fail "git $*"; }
	gitc add -A && gitc commit -qm "fake: start"
	echo "all: # one" > "$T/repo/Makefile" && gitc commit -qam "fake: mark the Makefile"
	echo "all: # one BROKEN" > "$T/repo/Makefile" && gitc commit -qam "fake: break the build"
	bad=$(git -C "$T/repo" rev-parse HEAD | cut -c1-12)
	FAKE_MAKE_FAIL_IF=BROKEN "$HARNESS" run --cache "$T/cache" --kernels "$T/repo@HEAD~2..HEAD" \
		--variants baseline --workloads hackbench --cores 1 --boots 1 --clock icount --out "$T/run3" \
		> "$T/out" 2> "$T/err"
	rc=$?
	cat "$T/err"
	[ "$rc" = 1 ] || fail "a commit that does not build: exit $rc, want 1"
	grep -q "^harness: error: kernel build 'base' (line head.2-[0-9a-f]*) failed: commit $bad 'fake: break the build', step 2/2 of $T/repo@HEAD~2..HEAD does not build: no cell was run$" "$T/err" ||
		fail "the failure does not name the commit, its subject and step"
	;;
usage)
	build nosuch 2> "$T/err"; [ $? -eq 2 ] || fail "unknown name: exit is not 2"
	[ "$(wc -l < "$T/err")" -eq 1 ] || fail "unknown name: not one line"
	grep -q "nosuch" "$T/err" && grep -q "baseline" "$T/err" && grep -q "base" "$T/err" ||
		fail "unknown name: message lacks the name or the known ones: $(cat "$T/err")"
	build --jobs 0 2>/dev/null; [ $? -eq 2 ] || fail "--jobs 0 accepted"
	"$HARNESS" build --source "$T/none" 2>/dev/null; [ $? -eq 2 ] || fail "missing --source accepted"
	echo text > "$T/notes.txt"
	"$HARNESS" build --source "$T/notes.txt" 2>/dev/null; [ $? -eq 2 ] || fail "non-tarball --source accepted"
	build --frobnicate 2>/dev/null; [ $? -eq 2 ] || fail "unknown option accepted"
	build --list > "$T/list" || fail "--list failed"
	grep -q "^  base  *not cached" "$T/list" && grep -q "^  baseline  *build base" "$T/list" ||
		fail "--list: $(cat "$T/list")"
	build --dry-run baseline > "$T/plan" || fail "--dry-run failed"
	grep -q "^base: not cached" "$T/plan" && grep -q "make ARCH=x86_64 O=obj .*tinyconfig" "$T/plan" &&
		grep -q "merge_config.sh -m -O obj obj/.config" "$T/plan" && grep -q " -j[0-9]* bzImage modules" "$T/plan" ||
		fail "--dry-run plan: $(cat "$T/plan")"
	[ ! -e "$T/make-calls" ] || fail "make ran in a dry run or a usage error"
	;;
integrity)
	build base > /dev/null 2>&1 || fail "first build failed"
	E=$(entry)
	grep -q '"file": "bzImage"' "$E/manifest.json" && grep -q '"sha256"' "$E/manifest.json" ||
		fail "manifest lacks the artifacts' hashes"
	build --verify > "$T/out" 2> "$T/err" || fail "--verify of a good entry: $(cat "$T/err")"
	grep -q "^ok  *base-" "$T/out" || fail "--verify output: $(cat "$T/out")"
	# A copy without -p changes mtimes: the hashes still match, so it is served.
	cp "$E/bzImage" "$T/bz" && cat "$T/bz" > "$E/bzImage"
	FAKE_MAKE_REFUSE=1 build base > /dev/null 2> "$T/err" || fail "a touched entry was refused: $(cat "$T/err")"
	# Same size, other content.
	printf 'kernez\n' > "$E/bzImage"
	FAKE_MAKE_REFUSE=1 build base > /dev/null 2> "$T/err"; RC=$?
	[ $RC -eq 2 ] || fail "a damaged entry: exit $RC, not 2"
	[ "$(wc -l < "$T/err")" -eq 1 ] || fail "not one line: $(cat "$T/err")"
	grep -q "$E/bzImage has SHA-256 .*--force" "$T/err" || fail "error: $(cat "$T/err")"
	build --list | grep -q "^  base  *damaged" || fail "--list does not say damaged"
	# Truncated.
	: > "$E/bzImage"
	build --verify > /dev/null 2> "$T/err"; [ $? -eq 2 ] || fail "--verify of a truncated entry is not exit 2"
	grep -q "$E/bzImage is 0 bytes, the manifest says 7" "$T/err" || fail "--verify: $(cat "$T/err")"
	build --force base > /dev/null 2>&1 || fail "--force did not rebuild"
	build --verify > /dev/null 2>&1 || fail "not good after --force"
	# An entry from before the hashes: its images are checked for being whole first
	# (the fake ones are not real images, so it is refused, naming the file).
	python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); del m["artifacts"]; json.dump(m, open(sys.argv[1], "w"))' "$E/manifest.json"
	FAKE_MAKE_REFUSE=1 build base > /dev/null 2> "$T/err"; [ $? -eq 2 ] || fail "unrecorded fake entry accepted"
	grep -q "$E/bzImage is not a bzImage" "$T/err" || fail "unrecorded: $(cat "$T/err")"
	;;
lines)
	build12() { "$HARNESS" build --cache "$T/cache" --kernel-line 6.12 --source "6.12=$T/linux-fake.tar.xz" "$@"; }
	build base > /dev/null 2> "$T/err" || fail "6.1 build failed: $(cat "$T/err")"
	build12 base > /dev/null 2> "$T/err" || fail "6.12 build failed: $(cat "$T/err")"
	# The same source for both lines: still two entries, the 6.12 one named by its line.
	[ "$(ls -d "$T"/cache/kernels/base-6.12-* | wc -l)" -eq 1 ] || fail "no base-6.12-* entry: $(ls "$T/cache/kernels")"
	[ "$(ls -d "$T"/cache/kernels/base-* | wc -l)" -eq 2 ] || fail "entries: $(ls "$T/cache/kernels")"
	grep -q "CONFIG_L12" "$T"/cache/kernels/base-6.12-*/build.log "$T"/cache/kernels/base-6.12-*/config 2>/dev/null ||
		grep -q "l12.config" "$T"/cache/kernels/base-6.12-*/build.log || fail "6.12 build did not stack l12.config"
	build12 --list > "$T/list" || fail "--list failed"
	grep -q "kernel line 6.12" "$T/list" && grep -q "^  base  *cached" "$T/list" || fail "--list 6.12: $(cat "$T/list")"
	grep -q "^  only612  *not cached" "$T/list" || fail "--list 6.12 series: $(cat "$T/list")"
	build --kernel-line 7.0 base 2> "$T/err"; [ $? -eq 2 ] || fail "unknown line: exit is not 2"
	grep -q "unknown kernel line '7.0' (accepted: 6.1, 6.12)" "$T/err" || fail "unknown line: $(cat "$T/err")"
	build --source "7.0=$T/linux-fake.tar.xz" base 2> "$T/err"; [ $? -eq 2 ] || fail "--source 7.0=: exit is not 2"
	# A plain --source is 6.1's: with --kernel-line 6.12 it would be ignored, so it is refused.
	"$HARNESS" build --cache "$T/cache" --kernel-line 6.12 --source "$T/linux-fake.tar.xz" base 2> "$T/err"
	[ $? -eq 2 ] && grep -q "is for kernel line 6.1, which this command does not build" "$T/err" ||
		fail "plain --source with --kernel-line 6.12: $(cat "$T/err")"
	N=$(grep -c bzImage "$T/make-calls"); [ "$N" -eq 2 ] || fail "$N compiles, expected 2"
	;;
modules)
	P=$T/src/kernel-configs/modules/probe
	mkdir -p "$P"
	printf 'obj-m := probe.o\n' > "$P/Kbuild"
	printf 'int v = 1;\n' > "$P/probe.c"
	printf '[build]\ndescription = fake with a module\nmodules = probe\n' \
		> "$T/src/kernel-configs/builds/withmod.build"
	mods() { ls -d "$T"/cache/kernels/withmod-* 2>/dev/null | grep -v '\.tmp-\|\.old-'; }
	KO=modules/lib/modules/6.1.0-fake/extra/probe.ko
	build --dry-run withmod > "$T/plan" || fail "--dry-run failed"
	grep -q "module probe: copy the sources of $P to .*/extmod/probe" "$T/plan" &&
		grep -q "^  \$ make ARCH=x86_64 O=obj .*M=.*/extmod/probe -j[0-9]* modules$" "$T/plan" &&
		grep -q "M=.*/extmod/probe modules_install INSTALL_MOD_PATH=.*/modules INSTALL_MOD_DIR=extra INSTALL_MOD_STRIP=1$" "$T/plan" ||
		fail "--dry-run lacks the module's steps: $(cat "$T/plan")"
	build base > /dev/null 2>&1 || fail "base build failed"
	build withmod > /dev/null 2> "$T/err" || fail "build with a module failed: $(cat "$T/err")"
	E=$(mods)
	[ "$(cat "$E/$KO" 2>/dev/null)" = "int v = 1;" ] || fail "entry lacks $KO: $(find "$E/modules")"
	# The module is built with the kernel compile's make variables, after it.
	head=$(grep ' bzImage modules$' "$T/make-calls" | tail -1 | sed 's/ -j[0-9]* bzImage modules$//')
	grep -q "^$head M=.*/extmod/probe -j[0-9]* modules$" "$T/make-calls" ||
		fail "module make line differs from the kernel's ($head): $(grep M= "$T/make-calls")"
	grep -q "\"file\": \"$KO\"" "$E/manifest.json" || fail "integrity manifest lacks the .ko"
	grep -q '"name": "probe"' "$E/manifest.json" || fail "manifest does not list the module"
	no_leftovers
	# A damaged .ko is named like any other file of the entry.
	printf 'int v = 9;\n' > "$E/$KO"
	FAKE_MAKE_REFUSE=1 build withmod > /dev/null 2> "$T/err"; [ $? -eq 2 ] || fail "damaged .ko served"
	grep -q "$E/$KO has SHA-256" "$T/err" || fail "damaged .ko: $(cat "$T/err")"
	# A changed module source is a new key: a new entry with the new module; base keeps its.
	printf 'int v = 2;\n' > "$P/probe.c"
	build withmod > /dev/null 2>&1 || fail "rebuild after a module change failed"
	[ "$(mods | wc -l)" -eq 2 ] || fail "a changed module source kept the key: $(mods)"
	grep -lq "int v = 2;" $(mods | sed "s|\$|/$KO|") || fail "no entry holds the changed module"
	FAKE_MAKE_REFUSE=1 build base > /dev/null 2>&1 || fail "a module change rebuilt base, which has none"
	# A module that does not compile fails the build at its step, naming the log.
	printf 'int v = 3;\n' > "$P/probe.c"
	FAKE_MODULE_FAIL=1 build withmod > /dev/null 2> "$T/err"; [ $? -eq 1 ] || fail "failing module: exit not 1"
	grep -q "failed at module probe (exit 2)" "$T/err" && grep -q "error: module boom" "$T/err" ||
		fail "failing module: $(cat "$T/err")"
	[ "$(mods | wc -l)" -eq 2 ] || fail "a failed module build left an entry"
	no_leftovers
	# An unknown module: one line, exit 2, naming it and the known ones.
	printf '[build]\nmodules = nosuch\n' > "$T/src/kernel-configs/builds/badmod.build"
	build badmod 2> "$T/err"; [ $? -eq 2 ] || fail "unknown module: exit is not 2"
	grep -q "module 'nosuch' not found (accepted: probe;" "$T/err" || fail "unknown module: $(cat "$T/err")"
	;;
*) fail "unknown case" ;;
esac
echo "ok ($CASE)"
