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
# The include directories of the manifest entry that checks this harness
# (its own `include`, else the defaults').
includes=$(awk -v h="$(basename "$harness")" '
  /^\[defaults\]/ { sect = "d" } /^\[\[check\]\]/ { sect = "c"; inc = ""; mine = 0 }
  /^include = / { if (sect == "d") dflt = $0; else inc = $0 }
  /^files = / && index($0, "\"" h "\"") { mine = 1 }
  mine && inc != "" && !found { found = inc }
  END { print (found != "" ? found : dflt) }' "$here/symcross.toml" | sed 's/^include = \[\(.*\)\]/\1/' | tr -d '",')
for inc in $includes; do incs+=("-I$here/$inc"); done
"$cc" -O1 -msse2 -msse4.1 -w "$@" -Dmain=symcross_harness_main -I"$here/../../cl-runtime-model" "${incs[@]}" \
  "$here/$harness" "$here/dispatch_stubs.c" -x c "$here/native-truth/truth_runtime.c" -lm -o "$exe"
"$exe" "$trials"
