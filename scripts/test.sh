#!/usr/bin/env bash
# The test command of README.md: formatting and lints first, so CI fails on
# unformatted code or a clippy warning before spending time on the tests;
# then the whole suite, against the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --check
cargo clippy --release --all-targets -- -D warnings
cargo test --release --no-fail-fast -- --test-threads=2
