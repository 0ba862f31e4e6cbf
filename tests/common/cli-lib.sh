# Shared helpers of the shell tests of the analysis commands (sourced). Each test gets HARNESS and DATA
# from its arguments; WORK, fail and finish come from tests/common/lib.sh.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
HARNESS=$1
DATA=$2

# expect_exit CODE PATTERN -- COMMAND...: the exit status is CODE and stderr+stdout match
# the grep -E PATTERN (the bad value must be named in the message).
expect_exit() {
	local want=$1 pattern=$2 out rc
	shift 3
	out=$("$@" 2>&1)
	rc=$?
	[ "$rc" = "$want" ] || fail "'$*' exited $rc, want $want; output: $out"
	echo "$out" | grep -Eq -- "$pattern" || fail "'$*' output lacks /$pattern/: $out"
	[ "$want" != 2 ] || [ "$(echo "$out" | grep -c .)" = 1 ] || fail "'$*' usage error is not one line: $out"
}

# contains FILE LINE: FILE has LINE exactly (as a whole line, after trimming trailing spaces).
contains() {
	sed 's/[[:space:]]*$//' "$1" | grep -Fxq -- "$2" || fail "$1 lacks the line: $2"
}

import() { # CSV DIR
	"$HARNESS" import "$1" --out "$2" > /dev/null 2>&1 || fail "import $1 failed"
}
