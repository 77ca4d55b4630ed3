#!/usr/bin/env bash
# Whole-process time of `ocl_sp --device DEV --n N`, warm caches:
# RUNS runs each of the fast exit (default) and OCL_SP_CLEAN_EXIT=1 (every
# destructor runs), interleaved, plus one OCL_SP_PROFILE=1 run of each.
# Usage: whole_process.sh OCL_SP DEV N RUNS
set -u
bin=$1 dev=$2 n=$3 runs=$4
TIMEFORMAT=%R
"$bin" --device "$dev" --n "$n" > /dev/null 2>&1  # warm the program cache
for ((r = 0; r < runs; r++)); do
  for clean in 0 1; do
    t=$( { time OCL_SP_CLEAN_EXIT=$clean "$bin" --device "$dev" --n "$n" > /dev/null 2>&1; } 2>&1)
    echo "clean_exit=$clean run=$r wall_s=$t"
  done
done | tee /dev/stderr | /usr/bin/env python3 -c '
import sys, statistics
w = {}
for l in sys.stdin:
    f = dict(kv.split("=") for kv in l.split())
    w.setdefault(f["clean_exit"], []).append(float(f["wall_s"]))
for k, v in sorted(w.items()):
    print(f"clean_exit={k}: median {statistics.median(v):.3f} s  min {min(v):.3f}  max {max(v):.3f}  runs {len(v)}")'
for clean in 0 1; do
  echo "== OCL_SP_PROFILE=1 OCL_SP_CLEAN_EXIT=$clean"
  OCL_SP_PROFILE=1 OCL_SP_CLEAN_EXIT=$clean "$bin" --device "$dev" --n "$n" 2>&1 | grep -iE "profile|T_|process|wall"
done
