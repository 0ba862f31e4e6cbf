#!/bin/bash
# harness report --format html on real sets: one page with a headline table and a chart
# per workload, the conditions, nothing fetched from anywhere; names from the run are
# escaped (a set whose variant and workload names are markup, opened in headless Chromium
# when it is installed: no script runs but the page's own, no console message).
# Usage: test_report_html.sh HARNESS DATA_DIR
. "$(dirname "$0")/../common/cli-lib.sh"
. "$(dirname "$0")/../common/browser.sh"
REFERENCE=$DATA/../../ci/reference

tap_case page_of_a_quick_run
"$HARNESS" report "$REFERENCE" --format html > "$WORK/ref.html" 2> "$WORK/err" || fail "html: $(cat "$WORK/err")"
[ "$(grep -c '<section class="workload"' "$WORK/ref.html")" = 3 ] || fail "want 3 workload sections (hugetlb, hackbench, test_vmalloc)"
[ "$(grep -c '<table class="sortable headline">' "$WORK/ref.html")" = 3 ] || fail "want 3 headline tables"
if command -v gnuplot > /dev/null; then
	[ "$(grep -c '^<svg' "$WORK/ref.html")" -ge 3 ] || fail "no inline SVG charts"
	grep -q '95% CI, Welch' "$WORK/ref.html" || fail "the charts' axis does not name the estimate"
else
	grep -q 'gnuplot is not installed' "$WORK/ref.html" || fail "no note on the missing charts"
fi
grep -q "Content-Security-Policy\" content=\"default-src 'none'" "$WORK/ref.html" || fail "no policy"
grep -Eq '(src|href)="(https?:)?//|<link|@import|url\(' "$WORK/ref.html" && fail "the page fetches something"
for text in 'AMD EPYC' 'init_on_alloc=1 init_on_free=0' '1 round of every variant, interleaved' \
	'6.1 (6.1.192): base 4b50a4af97ce' 'harness run --variants baseline,init_on_alloc,init_on_free' \
	'<td class="verdict">within noise</td>' '<td class="verdict">worse</td>' '<th scope="col" class="num">95% CI</th>' '<th scope="col" class="num">cost [%, or x]</th>' \
	'<td class="num" data-v="19254.' '>193.5x</td>' '>below resolution</td>' \
	'id="details"' 'published figures'; do
	grep -qF -- "$text" "$WORK/ref.html" || fail "page lacks: $text"
done
"$HARNESS" report "$REFERENCE" --format html --metric time > "$WORK/time.html" 2>/dev/null || fail "html --metric"
[ "$(grep -c 'data-metric="wall"' "$WORK/time.html")" = 0 ] || fail "--metric time shows wall rows"

tap_case merged_set_has_per_host_figures
# seed 003's 6.12 vmaops run split by round into two "hosts", merged back
for h in A:0 B:1; do
	mkdir -p "$WORK/node${h%:*}"
	jq ".host.hostname = \"node${h%:*}\"" "$DATA/vmaops-612-icount/meta.json" > "$WORK/node${h%:*}/meta.json"
	jq -c "select((.boot == 0) == (${h#*:} == 0))" "$DATA/vmaops-612-icount/samples.jsonl" > "$WORK/node${h%:*}/samples.jsonl"
done
"$HARNESS" merge "$WORK/merged" "$WORK/nodeA" "$WORK/nodeB" > /dev/null 2>&1 || fail "merge"
"$HARNESS" report "$WORK/merged" --format html > "$WORK/merged.html" 2>/dev/null || fail "html of a merged set"
grep -q '<section id="hosts">' "$WORK/merged.html" || fail "no per-host section"
grep -q '^  host nodeB' "$WORK/merged.html" || fail "no figures of nodeB"
grep -q '<section id="hosts">' "$WORK/ref.html" && fail "a one-host run got a per-host section"

tap_case hostile_names_escaped
mkdir -p "$WORK/evil"
jq '.plan.variants = ["baseline"] | .host.hostname = "<b>host</b>"' "$REFERENCE/meta.json" > "$WORK/evil/meta.json"
jq -c 'if .variant == "init_on_free" then .variant = "<script>alert(1)</script>" else . end |
       if .workload == "hackbench" then .workload = "w\"><img src=x onerror=alert(2)>" else . end' \
	"$REFERENCE/samples.jsonl" > "$WORK/evil/samples.jsonl"
"$HARNESS" report "$WORK/evil" --format html > "$WORK/evil.html" 2> "$WORK/err" || fail "html: $(cat "$WORK/err")"
[ "$(grep -o '<script' "$WORK/evil.html" | wc -l)" = 1 ] || fail "a <script> besides the page's own"
grep -Eq '<img|<b>host' "$WORK/evil.html" && fail "markup from the run reached the page"
grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$WORK/evil.html" || fail "the variant's name is not shown escaped"
"$HARNESS" report "$WORK/evil" --format json > "$WORK/evil.json" 2>/dev/null
browser_check "$WORK/evil.html" "$WORK/evil.json"
[ $? = 77 ] && tap_skip "$BROWSER_SKIP"

tap_finish
