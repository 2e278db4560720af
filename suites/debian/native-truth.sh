#!/usr/bin/env bash
# Ground truth for a harness of this directory: builds it natively with
# native-truth/truth_runtime.c in place of symcross (random and edge bytes
# for every symbolic input) and runs its main TRIALS times (default 10^6).
# Prints "no difference in N trials" (exit 0) or the first difference
# (exit 1). Usage: ./native-truth.sh HARNESS.c [TRIALS] [-DNAME ...]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
harness="$1"; shift
trials=1000000
if [ $# -gt 0 ] && [[ "$1" != -* ]]; then trials="$1"; shift; fi
cc="${CC:-clang-19}"
exe="$(mktemp -d)/truth"
# The include directories and files of the first manifest entry (of
# symcross.toml, then symcross-long.toml) that
# checks this harness (its own `include`, else the defaults'): the other
# files it links (stubs, a second build of a package's file) come along.
entry=$(awk -v h="$(basename "$harness")" '
  /^\[defaults\]/ { sect = "d" } /^\[\[check\]\]/ { sect = "c"; inc = ""; fl = ""; mine = 0 }
  /^include = / { if (sect == "d") dflt = $0; else inc = $0 }
  /^files = / { fl = $0; if (index($0, "\"" h "\"")) mine = 1 }
  mine && !found { found = 1; myinc = inc; myfiles = fl }
  mine && found && myinc == "" && inc != "" { myinc = inc }
  END { print (myinc != "" ? myinc : dflt); print myfiles }' "$here/symcross.toml" "$here/symcross-long.toml")
includes=$(echo "$entry" | sed -n 1p | sed 's/^include = \[\(.*\)\]/\1/' | tr -d '",')
files=$(echo "$entry" | sed -n 2p | sed 's/^files = \[\(.*\)\]/\1/' | tr -d '",')
[ -n "$files" ] || files="$(basename "$harness")"
for inc in $includes; do incs+=("-I$here/$inc"); done
for f in $files; do srcs+=("$here/$f"); done
"$cc" -O1 -msse2 -msse4.1 -w "$@" -Dmain=symcross_harness_main -I"$here/../../cl-runtime-model" "${incs[@]}" \
  "${srcs[@]}" -x c "$here/native-truth/truth_runtime.c" -lm -o "$exe"
"$exe" "$trials"
