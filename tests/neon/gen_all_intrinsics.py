#!/usr/bin/env python3
"""Generates one C function per Advanced SIMD intrinsic of clang 19's
arm_neon.h that needs no target feature beyond `neon` (the integer, float and
double intrinsics, and the polynomial ones of the base architecture).

Functions come from their `__ai __attribute__((target("neon")))` definitions;
macros (intrinsics with immediates) from their `#define`, each parameter's
type read from the `TYPE __sK = __pK;` line that copies it, the others being
immediates. The header defines every intrinsic twice (little and big endian);
the first definition is used. Each intrinsic becomes an external function
taking its operands as parameters, so -O2 folds nothing away. Calls clang
rejects (features beyond neon, immediates out of range) are dropped by
collect_intrinsics.sh, which retries with another immediate first.
Usage: gen_all_intrinsics.py [IMMEDIATE] > all_neon.c
"""
import re
import sys

HEADER = "/usr/lib/llvm-19/lib/clang/19/include/arm_neon.h"
FUNC = re.compile(r'^__ai __attribute__\(\(target\("neon"\)\)\) (.+?) (v\w+)\((.*)\) \{$')
MACRO = re.compile(r"^#define (v\w+)\(([^)]*)\) __extension__ \(\{ \\$")
COPY = re.compile(r"^\s*(?:const )?([\w ]+?\*?) (__s\d+\w*) = (__p\d+\w*);")


def intrinsics():
    """name -> (return type or None when void, [param type or None for immediates])."""
    lines = open(HEADER).read().splitlines()
    found = {}
    for i, line in enumerate(lines):
        m = FUNC.match(line)
        if m and m.group(2) not in found and not m.group(2).startswith("__"):
            params = [p.rsplit(" ", 1)[0].strip() for p in m.group(3).split(", ")] if m.group(3) else []
            ret = None if m.group(1) == "void" else m.group(1)
            found[m.group(2)] = (ret, params)
            continue
        m = MACRO.match(line)
        if not m or m.group(1) in found:
            continue
        names = [p.strip() for p in m.group(2).split(",")]
        types = {}
        ret = None
        for body in lines[i + 1:i + 40]:
            if body.startswith("})"):
                break
            r = re.match(r"^\s*(\w[\w ]*?) __ret\w*; \\$", body)
            if r:
                ret = r.group(1)
            c = COPY.match(body)
            if c:
                types[c.group(3)] = c.group(1)
        params = [types.get(n) for n in names]
        # Loads and stores pass their pointer straight to the builtin.
        if m.group(1).startswith(("vld", "vst")) and params and params[0] is None:
            params[0] = "void *"
        if ret is not None or m.group(1).startswith("vst"):
            found[m.group(1)] = (ret, params)
    return found


def main():
    imm = sys.argv[1] if len(sys.argv) > 1 else "1"
    print("#include <arm_neon.h>")
    for name, (ret, params) in sorted(intrinsics().items()):
        decl = [f"{t} a{k}" for k, t in enumerate(params) if t is not None]
        call = ", ".join(f"a{k}" if t is not None else imm for k, t in enumerate(params))
        if ret is None:
            print(f"void f_{name}({', '.join(decl) or 'void'}) {{ {name}({call}); }}")
        else:
            out = ", ".join(decl + [f"{ret} *out"])
            print(f"void f_{name}({out}) {{ *out = {name}({call}); }}")


if __name__ == "__main__":
    main()
