#!/usr/bin/env python3
"""Regenerates the set of llvm.aarch64.neon.* intrinsics that clang 19 leaves
as calls for the Advanced SIMD intrinsics of arm_neon.h that need only the
`neon` feature: one call of each (gen_all_intrinsics.py), compiled for
aarch64-linux-gnu at -O0 and -O2. Calls clang rejects are retried with the
immediate 0 instead of 1 (lane numbers of one-lane vectors), then dropped
(they need a feature beyond neon). Prints "name<TAB>signature" of each
llvm.aarch64.neon.* declaration; tests/neon_coverage.rs compares the set with
src/neon/coverage.tsv. With --count, prints how many intrinsics compiled.
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CLANG = ["clang-19", "--target=aarch64-linux-gnu", "-ferror-limit=0", "-S", "-emit-llvm", "-o", "-"]


def generate(imm):
    return subprocess.run([sys.executable, os.path.join(HERE, "gen_all_intrinsics.py"), imm],
                          capture_output=True, text=True, check=True).stdout.splitlines()


def compile_lines(lines, opt):
    """(IR text, set of 1-based line numbers clang rejected)."""
    with tempfile.NamedTemporaryFile("w", suffix=".c", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        path = f.name
    try:
        r = subprocess.run(CLANG + [opt, path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    bad = {int(m.group(1)) for m in re.finditer(re.escape(path) + r":(\d+):\d+: error", r.stderr)}
    return r.stdout, bad


def accepted(lines):
    """The lines clang compiles, removing rejected ones until none is left."""
    keep = list(lines)
    while True:
        _, bad = compile_lines(keep, "-O0")
        if not bad:
            return keep
        keep = [l for k, l in enumerate(keep, start=1) if k not in bad]


def main():
    ones = generate("1")
    zeros = generate("0")
    first = accepted(ones)
    kept = set(first)
    retry = [ones[0]] + [z for o, z in zip(ones[1:], zeros[1:]) if o not in kept and o != z]
    second = accepted(retry)
    program = first + second[1:]
    if "--count" in sys.argv:
        print(len(program) - 1)
        return
    decls = set()
    for opt in ("-O0", "-O2"):
        ir, bad = compile_lines(program, opt)
        assert not bad, "accepted program no longer compiles"
        for m in re.finditer(r"^declare (.*?) @(llvm\.aarch64\.neon\.[a-z0-9_.]*)\((.*)\).*$", ir, re.M):
            decls.add(f"{m.group(2)}\t{m.group(1)}({m.group(3)})")
    for d in sorted(decls):
        print(d)


if __name__ == "__main__":
    main()
