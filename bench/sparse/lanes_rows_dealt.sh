#!/usr/bin/env bash
# Rows in lanes after the blocked deal: grid 316 x 316 per source and LANES=8
# (3 each), geometric and random n = 10^4 in lanes once, bytes against per source.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
one "grid316" 3 --generator grid --n 100000
one "grid316 lanes8" 3 --generator grid --n 100000 --param LANES=8
one "random20_10k lanes8" 3 --generator random --degree 20 --n 10000 --param LANES=8
one "geometric6_100k lanes8" 1 --generator geometric --degree 6 --n 100000 --param LANES=8
same_grid_rows
