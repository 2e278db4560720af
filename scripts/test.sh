#!/usr/bin/env bash
# The test command of README.md: formatting and lints first, so CI fails on
# unformatted code or a clippy warning before spending time on the tests;
# then the whole suite, against the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --check
cargo clippy --release --all-targets -- -D warnings
# Tests that could not run for want of a tool append to this log (under CI
# they fail instead); the count is printed at the end, pass or fail.
rm -f target/skipped-tests.log
report_skips() {
  if [ -s target/skipped-tests.log ]; then
    echo "symcross tests: $(wc -l < target/skipped-tests.log) skipped for want of a tool (run scripts/setup.sh):" >&2
    sed 's/^/  /' target/skipped-tests.log >&2
  else
    echo "symcross tests: none skipped" >&2
  fi
}
trap report_skips EXIT
cargo test --release --no-fail-fast -- --test-threads=2
