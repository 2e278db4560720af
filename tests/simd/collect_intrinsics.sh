#!/bin/sh
# Regenerates the set of llvm.x86.* intrinsics that clang 19 leaves as calls
# for SSE..SSE4.2, AVX, AVX2 and FMA3: generates a C file with one call of
# every _mm_*/_mm256_* function and macro of those headers, compiles it at
# -O0 and -O2, and prints "name<TAB>signature" of each llvm.x86.* declaration.
# tests/simd_coverage.rs compares this set with src/simd/coverage.tsv.
set -eu
here=$(dirname "$0")
src=$(mktemp --suffix=.c)
trap 'rm -f "$src"' EXIT
python3 "$here/gen_all_intrinsics.py" > "$src"
for opt in -O0 -O2; do
  clang-19 -mavx2 -mfma -msse4.2 -mcrc32 $opt -S -emit-llvm -o - "$src"
done | sed -n 's/^declare \(.*\) @\(llvm\.x86\.[a-z0-9_.]*\)(\(.*\)).*/\2\t\1(\3)/p' | sort -u
