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
for pkg in libwebp opus libvpx speexdsp pixman highway; do
  [ -d "$pkg" ] && continue
  rm -rf "fetch-$pkg" && mkdir "fetch-$pkg"
  if ! (cd "fetch-$pkg" && apt-get source -qq "$pkg" >/dev/null 2>"../fetch-$pkg.err"); then
    # A format 1.0 source package (pixman 0.42.2-1) carries Debian's
    # packaging as a .diff.gz, which some archive mirrors answer with 404
    # while the .dsc and the upstream tarball are served. The code under
    # test is upstream's: fetch the tarball alone (apt checks it against
    # the archive's Sources index) and unpack it.
    rm -rf "fetch-$pkg" && mkdir "fetch-$pkg"
    (cd "fetch-$pkg" && apt-get source -qq --tar-only "$pkg" >/dev/null 2>>"../fetch-$pkg.err" \
      && tar -xf ./*.orig.tar.*) || { cat "fetch-$pkg.err" >&2; echo "symcross: apt-get source $pkg failed" >&2; exit 1; }
  fi
  rm -f "fetch-$pkg.err"
  dir=$(find "fetch-$pkg" -mindepth 1 -maxdepth 1 -type d | head -1)
  [ -n "$dir" ] || { echo "symcross: apt-get source $pkg gave no source tree" >&2; exit 1; }
  mv "$dir" "$pkg"
  rm -rf "fetch-$pkg"
done
