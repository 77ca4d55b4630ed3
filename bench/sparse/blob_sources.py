#!/usr/bin/env python3
"""Source orders of a K x K grid's first ROWS rows for the lanes kernel's groups
(experiments, docs/performance/sparse.md): `blob_sources.py K ROWS H WD`
prints the ids so that each run of H*WD consecutive entries is an H x WD block of
the grid (H rows, WD columns; H = 1: row segments, the id order)."""
import sys
K, ROWS, H, WD = (int(a) for a in sys.argv[1:5])
assert ROWS % H == 0 and K % WD == 0 or H == 1
out = []
if H == 1:
    out = range(ROWS * K)
else:
    for band in range(0, ROWS, H):
        for c0 in range(0, K - K % WD, WD):
            for r in range(band, band + H):
                out.extend(r * K + c for c in range(c0, c0 + WD))
        for r in range(band, band + H):  # the columns left over, as row segments
            out.extend(r * K + c for c in range(K - K % WD, K))
print("\n".join(map(str, out)))
