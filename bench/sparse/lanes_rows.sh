#!/usr/bin/env bash
# Rows: the per-source engine (defaults) against sources side by side
# (--param LANES=8), T_k and solve, medians of 3 (random 10^5: 1). Log on stdout.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
for p in "" "--param LANES=8"; do
  one "random20_10k${p:+ lanes8}" 3 --generator random --degree 20 --n 10000 $p
  one "grid316${p:+ lanes8}" 3 --generator grid --n 100000 $p
  one "geometric6_100k${p:+ lanes8}" 3 --generator geometric --degree 6 --n 100000 $p
done
one "random20_100k lanes8" 1 --generator random --degree 20 --n 100000 --param LANES=8
same_grid_rows
