#!/bin/bash
# Rewrites the expected mail replies of tests/analysis/test_report_mail.sh from the
# harness in BUILD (default build/). Read the diff before committing: it is the change.
set -eu
src=$(cd "$(dirname "$0")/../../.." && pwd)
harness=${1:-$src/build}/harness
"$harness" report "$src/ci/reference" --format mail > "$src/tests/data/mail/ci-reference.txt"
"$harness" report "$src/tests/data/vmaops-612-icount" --format mail > "$src/tests/data/mail/vmaops-612-icount.txt"
