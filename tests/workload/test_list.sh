#!/bin/sh
# `harness list`: the workloads with their parameters and metrics; bad arguments exit 2
# with one line.  usage: test_list.sh HARNESS WORKLOAD... (every registered workload)
H=$1
shift
fail=0
check() { if ! eval "$2"; then echo "FAIL: $1" >&2; fail=1; fi; }

out=$("$H" list workloads) ; rc=$?
check "list workloads exits 0 (got $rc)" '[ $rc -eq 0 ]'
for w in "$@"; do
  check "lists $w" 'printf "%s\n" "$out" | grep -q "^  $w: "'
done
check "shows a parameter with its default and accepted values" \
  'printf "%s\n" "$out" | grep -q "hackbench.groups=10  (int: an integer from 1 to 1000)"'
check "shows a metric with unit and direction" \
  'printf "%s\n" "$out" | grep -q "release_wall *s *lower  is better"'

err=$("$H" list gadgets 2>&1 >/dev/null); rc=$?
check "list gadgets exits 2 (got $rc)" '[ $rc -eq 2 ]'
check "names the bad value and the accepted ones: $err" \
  'printf "%s\n" "$err" | grep -q "bad value .gadgets. (accepted: all, variants, builds, workloads, lines, params)"'
check "one line" '[ $(printf "%s\n" "$err" | wc -l) -eq 1 ]'

err=$("$H" list --colour 2>&1 >/dev/null); rc=$?
check "list --colour exits 2 (got $rc): $err" '[ $rc -eq 2 ]'

out=$("$H" list 2>/dev/null); rc=$?
check "plain list exits 0 and has all four parts (rc $rc)" \
  '[ $rc -eq 0 ] && printf "%s\n" "$out" | grep -q "^variants" && printf "%s\n" "$out" | grep -q "^builds" && printf "%s\n" "$out" | grep -q "^workloads" && printf "%s\n" "$out" | grep -q "^kernel lines"'
check "a 6.12-only build names its lines" \
  'printf "%s\n" "$out" | grep -A1 "^  mseal-off " | grep -q "series for lines: 6.12$"'
out=$("$H" list lines); rc=$?
check "list lines names both lines and the default (rc $rc)" \
  '[ $rc -eq 0 ] && printf "%s\n" "$out" | grep -q "^  6.1 .*(default)" && printf "%s\n" "$out" | grep -q "^  6.12 "'
out=$("$H" list --names variants); rc=$?
check "list --names variants: one bare name a line (rc $rc)" \
  '[ $rc -eq 0 ] && printf "%s\n" "$out" | grep -qx baseline && ! printf "%s\n" "$out" | grep -q " "'
out=$("$H" list --names params); rc=$?
check "list --names params: W.KEY= of every workload (rc $rc)" \
  '[ $rc -eq 0 ] && printf "%s\n" "$out" | grep -qx "hackbench.groups=" && printf "%s\n" "$out" | grep -qx "hugetlb.pages="'
out=$("$H" list --names); rc=$?
check "list --names: every kind (rc $rc)" \
  '[ $rc -eq 0 ] && printf "%s\n" "$out" | grep -qx kasan-vmalloc && printf "%s\n" "$out" | grep -qx 6.12 && printf "%s\n" "$out" | grep -qx vmaops'
exit $fail
