#!/bin/sh
# Suite 'kernel': build `base` from Debian's linux-source-6.1 into the harness's cache
# (the default one, so CI keeps it between runs), check its manifest, then build again
# and prove the second run was a cache hit: a `make` first on PATH records any call and
# fails, and the run must succeed without it.
#   kernel-base.sh HARNESS
set -u
HARNESS=$(realpath "$1")
SRC=/usr/src/linux-source-6.1.tar.xz
if [ ! -f "$SRC" ]; then
	echo "SKIP: $SRC is missing (apt-get install linux-source-6.1)"
	exit 77
fi
T=$(mktemp -d /tmp/hardbench-kernel-test-XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Jobs: the host's cores (the harness default); CI runners are small.
"$HARNESS" build base > "$T/out" || fail "harness build base failed"
cat "$T/out"
E=$(sed -n 's/^base: \(.*\) (release \(.*\))$/\1/p' "$T/out")
REL=$(sed -n 's/^base: .* (release \(.*\))$/\1/p' "$T/out")
[ -d "$E" ] || fail "no entry folder in the output"
M="$E/manifest.json"
python3 - "$M" "$REL" <<'PY' || fail "manifest check failed"
import json, sys
m = json.load(open(sys.argv[1]))
assert m["build"] == "base", m["build"]
assert len(m["key"]) == 64, m["key"]
assert m["release"] == sys.argv[2] and m["release"].startswith("6.1."), m["release"]
assert m["source"]["identity"].startswith("tarball:"), m["source"]
opts = m["options"]
for name, want in (("CONFIG_SLUB", "y"), ("CONFIG_64BIT", "y"), ("CONFIG_TEST_VMALLOC", "m"),
                   ("CONFIG_INIT_ON_ALLOC_DEFAULT_ON", "n")):
    assert opts.get(name) == want, (name, opts.get(name))
assert m["stats"]["seconds"]["total"] >= 0
# The out-of-tree probe base ships (modules = xpfo_probe): installed, and under the hashes.
ko = "modules/lib/modules/%s/extra/xpfo_probe.ko" % sys.argv[2]
assert [x["name"] for x in m["modules"]] == ["xpfo_probe"], m["modules"]
assert any(a["file"] == ko for a in m["artifacts"]), "artifacts lack " + ko
print("manifest ok: release", m["release"], "key", m["key"][:16],
      "built in %.0f s" % m["stats"]["seconds"]["total"])
PY
for f in bzImage vmlinux config build.log "modules/lib/modules/$REL/modules.dep" \
	"modules/lib/modules/$REL/extra/xpfo_probe.ko"; do
	[ -e "$E/$f" ] || fail "entry lacks $f"
done
grep -q '^CONFIG_SLUB=y' "$E/config" || fail "config is not base's"

mkdir "$T/bin"
# Run as root, make would run as the unprivileged uid (kernel/sandbox.h): the stand-in and
# its record must be ones that uid reaches, or a make would find the real one unseen.
chmod 1777 "$T"
printf '#!/bin/sh\necho "$*" >> "%s/make-called"\nexit 99\n' "$T" > "$T/bin/make"
chmod +x "$T/bin/make"
START=$(date +%s.%N)
PATH="$T/bin:$PATH" "$HARNESS" build base > "$T/out2" || fail "second build failed"
END=$(date +%s.%N)
[ ! -e "$T/make-called" ] || fail "make ran on the second build: $(cat "$T/make-called")"
cmp -s "$T/out" "$T/out2" || fail "second build returned another entry: $(cat "$T/out2")"
echo "second build: cache hit, no make, $(echo "$END - $START" | bc) s"
