#!/usr/bin/env bash
# The test command of README.md: the whole suite, against the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --no-fail-fast -- --test-threads=2
