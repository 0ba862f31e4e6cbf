# Opening a report page in headless Chromium (sourced; needs fail from lib.sh):
#   browser_check PAGE REPORT_JSON [--charts]
# loads PAGE offline in a fresh profile, saves PAGE's screenshot as PAGE.png next to it,
# checks the DOM the browser leaves (tests/common/html_dom_check.py) and that the console
# stayed silent. Returns 77 with BROWSER_SKIP set when no chromium is installed.
BROWSER_SKIP=

browser_bin() {
	command -v chromium || command -v chromium-browser
}

# chromium ARGS...: headless, offline, no sandbox (root), a fresh profile each time.
browser_run() {
	local profile
	profile=$(mktemp -d "$WORK/chromium-profile-XXXXXX")
	"$(browser_bin)" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --enable-logging=stderr --v=0 --window-size=1400,2000 "$@"
}

browser_check() {
	local page=$1 json=$2 charts=${3:-} log dom
	if ! browser_bin > /dev/null; then
		BROWSER_SKIP="chromium is not installed (ci/packages.txt lists it; Debian: apt-get install chromium)"
		return 77
	fi
	log=$WORK/chromium-$$.log
	dom=$WORK/chromium-$$.dom
	browser_run --dump-dom "file://$page" > "$dom" 2> "$log" || { fail "chromium --dump-dom failed: $(tail -3 "$log")"; return 1; }
	if grep -q ':CONSOLE' "$log"; then
		fail "console messages while loading $page: $(grep ':CONSOLE' "$log" | head -5)"
	fi
	python3 "$(dirname "${BASH_SOURCE[0]}")/html_dom_check.py" "$dom" "$json" $charts >&2 || fail "DOM checks of $page"
	browser_run --screenshot="$page.png" "file://$page" > /dev/null 2> "$log" || fail "chromium --screenshot failed: $(tail -3 "$log")"
	[ "$(head -c 8 "$page.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "no PNG screenshot at $page.png"
	return 0
}
