#!/usr/bin/env bash
# Installs everything symcross needs on Debian 12 and builds it.
# Safe to run again: apt and cargo skip what is already there.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
# chromium renders the HTML report in its test; oclgrind and lli are the
# peers `symcross bench --peers` measures against.
PACKAGES="clang-19 libclang-rt-19-dev llvm-19-dev libpolly-19-dev libclang-19-dev libz3-dev z3 cvc5 \
  opencl-headers ocl-icd-opencl-dev pocl-opencl-icd csmith libcsmith-dev libzstd-dev zlib1g-dev build-essential pkg-config \
  slurm-wlm munge libsimde-dev qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross libstdc++-12-dev-arm64-cross \
  chromium oclgrind dpkg-dev"
missing=""
for p in $PACKAGES; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "symcross: cargo not found; install Rust (rustup) first" >&2
  exit 1
fi
# scripts/test.sh runs `cargo fmt --check` and `cargo clippy` before the
# tests. rustup's minimal profile leaves both out; add them where rustup
# manages the toolchain, and say what is missing where it does not.
if command -v rustup >/dev/null 2>&1; then
  rustup component add rustfmt clippy || echo "symcross: rustup could not add rustfmt and clippy" >&2
fi
for tool in fmt clippy; do
  cargo "$tool" --version >/dev/null 2>&1 \
    || echo "symcross: cargo $tool not found; scripts/test.sh needs it (rustup component add ${tool/fmt/rustfmt})" >&2
done
# The real consumers the tests read the SARIF and JUnit reports with.
# A failed install fails set-up: the tests that read reports with them
# would otherwise fail later with a less clear message.
python3 -m pip install --quiet -r "$(dirname "$0")/../tests/requirements.txt"
# Bitwuzla, the bit-vector solver that takes the queries Z3 cannot decide
# within its budget (src/solver/portfolio.rs): its PyPI package, run
# through python3. A failed install fails set-up.
python3 -m pip install --quiet "bitwuzla==0.10.0"
python3 -c "import bitwuzla" || { echo "symcross: the bitwuzla Python package does not load" >&2; exit 1; }
# suites/debian checks SIMD code of Debian source packages against their
# C references: `apt-get source` needs a deb-src entry, added once.
src_list=/etc/apt/sources.list.d/symcross-deb-src.sources
if ! grep -rqs "^Types:.*deb-src\|^deb-src " /etc/apt/sources.list /etc/apt/sources.list.d/; then
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    | $SUDO tee "$src_list" >/dev/null
  $SUDO apt-get update -qq
fi
"$(dirname "$0")/../suites/debian/fetch-sources.sh"
cargo build --release
