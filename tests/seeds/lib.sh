# Shared by the seeds tests: a published.json of one figure with more keys, refused.
# refused_figure SET FILE TARGET FIGURE EXTRA MESSAGE: FILE gets {"figures": [{FIGURE EXTRA}]};
# `report SET --against-seeds=TARGET` (FILE or its folder) must exit 2 with MESSAGE.
refused_figure() {
	local set=$1 file=$2 target=$3 figure=$4 extra=$5 message=$6
	echo "{\"figures\": [{$figure$extra}]}" > "$file"
	expect_exit 2 "$message" -- "$HARNESS" report "$set" --against-seeds="$target"
}
