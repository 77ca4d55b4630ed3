#!/usr/bin/env python3
"""Opcode counts per kernel in `cuobjdump -sass` output (bench/floor/README.md).

Usage: sass_count.py SASS.txt [KERNEL_SUBSTRING]
Prints, for each function (or those whose name contains the substring), the
instruction count and the opcodes that matter for the (min,+) loop: fused
add+min (VIADDMNMX), separate add (IADD3/IADD/VIADD) and min (IMNMX/VIMNMX),
float add and min, shared loads by width, register moves and branches.
"""
import re
import sys
from collections import Counter

KEY = ["VIADDMNMX", "VIMNMX", "IMNMX", "IADD3", "VIADD", "IADD", "FADD", "FMNMX", "FMNMX3",
       "LDS", "LDS.64", "LDS.128", "LDS.U", "MOV", "SEL", "ISETP", "BRA", "BAR"]


def main():
    path = sys.argv[1]
    want = sys.argv[2] if len(sys.argv) > 2 else ""
    funcs = {}
    cur = None
    for line in open(path, errors="replace"):
        m = re.search(r"Function : (\S+)", line)
        if m:
            cur = m.group(1)
            funcs[cur] = Counter()
            continue
        m = re.match(r"\s+/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", line)
        if cur and m:
            op = m.group(2)
            base = op.split(".")[0]
            funcs[cur][base] += 1
            if base == "LDS":
                width = next((w for w in (".128", ".64") if w in op), "")
                funcs[cur]["LDS" + width] += 1 if width else 0
    for name, c in funcs.items():
        if want and want not in name:
            continue
        total = sum(v for k, v in c.items() if k not in ("LDS.64", "LDS.128"))
        shown = ", ".join(f"{k} {c[k]}" for k in KEY if c.get(k))
        print(f"{path.rsplit('/', 1)[-1]}: {name}: {total} instructions; {shown}")


if __name__ == "__main__":
    main()
