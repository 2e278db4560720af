#!/usr/bin/env bash
# Fetches the Debian source packages whose SIMD code the harnesses of this
# directory check, into sources/ (not part of the repository): the code
# under test is the package's, unchanged, fetched from the archive.
# Needs a deb-src entry for bookworm (scripts/setup.sh adds one) and
# dpkg-dev. Safe to run again: a package already fetched is kept.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$here/sources"
cd "$here/sources"
for pkg in libwebp opus; do
  [ -d "$pkg" ] && continue
  rm -rf "fetch-$pkg" && mkdir "fetch-$pkg"
  (cd "fetch-$pkg" && apt-get source -qq "$pkg" >/dev/null)
  dir=$(find "fetch-$pkg" -mindepth 1 -maxdepth 1 -type d | head -1)
  [ -n "$dir" ] || { echo "symcross: apt-get source $pkg gave no source tree" >&2; exit 1; }
  mv "$dir" "$pkg"
  rm -rf "fetch-$pkg"
done
