#!/bin/bash
# Bad input to the ad-hoc options: one line naming the value, exit 2, and nothing built
# or booted (the kernel cache and the results folder stay empty). Good input shows in the
# plan (--dry-run). Usage: cli.sh HARNESS DATA_DIR (tests/data/adhoc)
. "$(dirname "$0")/../common/cli-lib.sh"
export HARDBENCH_CACHE=$WORK/cache HARDBENCH_RESULTS=$WORK/results
unset HARDBENCH_CONFIGS
mkdir -p "$WORK/cache" "$WORK/results"
series=$DATA/format-patch
run=("$HARNESS" run --variants baseline --workloads hackbench --cores 1 --boots 1)

nothing_built() {
	[ -z "$(ls -A "$WORK/cache/kernels" 2>/dev/null)" ] || fail "a kernel was built: $(ls "$WORK/cache/kernels")"
	[ -z "$(ls -A "$WORK/results")" ] || fail "a result set was made: $(ls "$WORK/results")"
}

tap_case missing_patch_file
expect_exit 2 "--patch x=$WORK/none.patch: no such file '$WORK/none.patch'" -- "${run[@]}" --patch "x=$WORK/none.patch"
nothing_built

tap_case not_an_mbox
printf 'From someone\nSubject: numbers\n\nhackbench was 7%% slower here.\n' > "$WORK/notes.txt"
expect_exit 2 "notes.txt: no patch in it" -- "${run[@]}" --patch "x=$WORK/notes.txt"
nothing_built

tap_case name_clash
expect_exit 2 "--patch: the name 'baseline' is taken \(a variant" -- "${run[@]}" --patch "baseline=$series"
expect_exit 2 "--variant: the name 'base' is taken \(a build" -- "${run[@]}" --variant "base=base:quiet"
expect_exit 2 "--variant: the name 'two' is taken \(given by another option" -- "${run[@]}" \
	--variant two=base:a --variant two=base:b
nothing_built

tap_case variant_and_cmdline_errors
expect_exit 2 "--variant x=nosuch:a: no build 'nosuch' \(accepted: .*base" -- "${run[@]}" --variant x=nosuch:a
expect_exit 2 "--variant slub: expected NAME=BUILD:ARGS" -- "${run[@]}" --variant slub
expect_exit 2 "--patch-cmdline other=a=1: no --patch named 'other'" -- "${run[@]}" --patch-cmdline other=a=1
nothing_built

tap_case damaged_patch_names_hunk_and_file
# The series against the tree it was made from (--source), one context line damaged.
mkdir -p "$WORK/damaged"
cp "$series"/*.patch "$WORK/damaged/"
sed -i 's/^ int e;$/ int E;/' "$WORK/damaged/0002-af_unix-set-f-which-depends-on-b.patch"
expect_exit 2 "--patch bad: .*0002-af_unix-set-f-which-depends-on-b.patch: patch 2/2 'af_unix: set f, which depends on b' does not apply to .*: hunk #1 FAILED at 3 in net/unix/af_unix.c" \
	-- "${run[@]}" --source "$DATA/tree" --patch "bad=$WORK/damaged"
nothing_built

tap_case image_without_the_guests_options
mkdir -p "$WORK/img"
head -c 4096 /dev/urandom > "$WORK/img/bzImage"
printf 'CONFIG_64BIT=y\nCONFIG_VIRTIO=y\n' > "$WORK/img/.config"
expect_exit 2 "--kernel mine=$WORK/img/bzImage: its config $WORK/img/.config lacks what the guest path needs: CONFIG_" \
	-- "${run[@]}" --kernel "mine=$WORK/img/bzImage"
expect_exit 2 "--kernel mine=$WORK/img/none: no such file" -- "${run[@]}" --kernel "mine=$WORK/img/none"
expect_exit 2 "--kernel baseline=.*: the name 'baseline' is taken" -- "${run[@]}" --kernel "baseline=$WORK/img/bzImage"
nothing_built

tap_case kernels_refs_that_cannot_be_used
git init -q "$WORK/repo" && cp -r "$DATA/tree/." "$WORK/repo/" && git -C "$WORK/repo" add -A &&
	git -C "$WORK/repo" -c user.name=t -c user.email=t@t.invalid commit -qm one || fail "git repo"
expect_exit 2 "--kernels $WORK/repo@nosuch: no commit 'nosuch' in $WORK/repo" -- "${run[@]}" --kernels "$WORK/repo@nosuch"
# A ref is never an option to git (--end-of-options): nothing is written.
expect_exit 2 "no commit '--output=$WORK/x'" -- "${run[@]}" --kernels "$WORK/repo@--output=$WORK/x"
[ ! -e "$WORK/x" ] || fail "git took the ref as an option"
expect_exit 2 "'$WORK/img' is not a git work tree" -- "${run[@]}" --kernels "$WORK/img@HEAD"
echo "int z;" >> "$WORK/repo/net/unix/af_unix.c"
expect_exit 2 "--kernels $WORK/repo@HEAD: $WORK/repo has uncommitted changes" -- "${run[@]}" --kernels "$WORK/repo@HEAD"
expect_exit 2 "--line-fragment $WORK/notes.txt: goes with --kernels PATH@REF" -- "${run[@]}" --line-fragment "$WORK/notes.txt"
nothing_built

tap_case good_input_joins_the_plan
out=$("${run[@]}" --dry-run --source "$DATA/tree" --patch "$series" --variant "slub-debug=base:slub_debug=FZ" 2>&1)
echo "$out" | grep -Eq "baseline +hackbench" || fail "baseline not in the plan: $out"
echo "$out" | grep -Eq "af-unix-set-b +hackbench" || fail "the --patch variant (named from its subject) not in the plan: $out"
echo "$out" | grep -Eq "slub-debug +hackbench" || fail "the --variant not in the plan: $out"
nothing_built

tap_case per_patch_steps_join_the_plan
expect_exit 2 "--per-patch: goes with --patch NAME=SERIES" -- "${run[@]}" --per-patch --dry-run
expect_exit 2 "--variant: the name 'two.2' is taken \(given by another option" -- "${run[@]}" --dry-run \
	--source "$DATA/tree" --patch "two=$series" --per-patch --variant two.2=base:quiet
out=$("${run[@]}" --dry-run --source "$DATA/tree" --patch "two=$series" --per-patch 2>&1)
for v in baseline two.1 two.2; do
	echo "$out" | grep -Eq " $v +hackbench" || fail "$v not in the plan: $out"
done
echo "$out" | grep -Eq " two +hackbench" && fail "the whole series as a variant of its own besides its last step: $out"
echo "$out" | grep -q "step 2/2 'af_unix: set f, which depends on b': two.2 = base + patches 1-2 of 2" ||
	fail "step 2 not explained: $out"
# With a command line of its own, step 0 is base with it (two.0), not baseline.
out=$("${run[@]}" --dry-run --source "$DATA/tree" --patch "two=$series" --per-patch --patch-cmdline two=quiet 2>&1)
echo "$out" | grep -Eq " two.0 +hackbench" || fail "no step 0 with the series' command line: $out"
# A series of one patch is the series: no ".1".
out=$("${run[@]}" --dry-run --source "$DATA/tree" --patch "one=$series/0001-af_unix-set-b.patch" --per-patch 2>&1)
echo "$out" | grep -Eq " one +hackbench" || fail "a 1-patch series is not variant 'one': $out"
nothing_built

tap_case kernels_refs_become_lines
git -C "$WORK/repo" checkout -q -- . && echo "int z;" >> "$WORK/repo/net/unix/af_unix.c" &&
	git -C "$WORK/repo" -c user.name=t -c user.email=t@t.invalid commit -qam two || fail "commit two"
out=$("${run[@]}" --dry-run --kernels "$WORK/repo@HEAD~1,$WORK/repo@HEAD" 2>&1)
one=$(git -C "$WORK/repo" rev-parse --short=7 HEAD~1) two=$(git -C "$WORK/repo" rev-parse --short=7 HEAD)
echo "$out" | grep -q "plan: 2 kernel lines" || fail "not two lines: $out"
echo "$out" | grep -Eq "head-1-$one +baseline" || fail "HEAD~1 is not line head-1-$one: $out"
echo "$out" | grep -Eq "head-$two +baseline" || fail "HEAD is not line head-$two: $out"
for c in $(git -C "$WORK/repo" rev-parse HEAD~1 HEAD); do
	[ -f "$WORK/cache/src/git/$c.tar" ] || fail "commit $c not exported into the source cache"
done
nothing_built

tap_case kernels_range_becomes_steps
# A..B: A as step 0, then each commit of the range, each a line in the same rounds.
echo "int y;" >> "$WORK/repo/net/unix/af_unix.c" &&
	git -C "$WORK/repo" -c user.name=t -c user.email=t@t.invalid commit -qam three || fail "commit three"
out=$("${run[@]}" --dry-run --kernels "$WORK/repo@HEAD~2..HEAD" 2>&1)
echo "$out" | grep -q "plan: 3 kernel lines" || fail "not three lines: $out"
zero=$(git -C "$WORK/repo" rev-parse --short=7 HEAD~2)
for k in 1 2; do
	c=$(git -C "$WORK/repo" rev-parse --short=7 "HEAD~$((2 - k))")
	echo "$out" | grep -Eq "head.$k-$c +baseline" || fail "step $k is not line head.$k-$c: $out"
done
echo "$out" | grep -Eq "head-2-$zero +baseline" || fail "step 0 is not line head-2-$zero: $out"
echo "$out" | grep -q "step 2/2, commit [0-9a-f]* 'three'" || fail "step 2 not named with its subject: $out"
expect_exit 2 "--kernels $WORK/repo@HEAD..HEAD: no commit in HEAD..HEAD" -- "${run[@]}" --kernels "$WORK/repo@HEAD..HEAD"
nothing_built

tap_finish
