#!/usr/bin/env bash
# Kernel-variant exploration on one OpenCL device: each configuration solved with
# --json, one summary line each (median of the runs' kernel time T_k). Used to
# pick the tiled defaults recorded in docs/performance/dense.md; final figures come from
# `ocl_sp bench` / `ocl_sp sweep`.
# Usage: gpu_explore.sh OCL_SP DEVICE N ALGO TYPE RUNS "CONFIG" ["CONFIG" ...]
#   CONFIG: space-separated NAME=VALUE tunables, e.g. "TILED=1 BLOCK=128 TM=8 TN=8 KC=16"
set -uo pipefail
bin=$1 dev=$2 n=$3 algo=$4 type=$5 runs=$6
shift 6
for cfg in "$@"; do
  args=()
  for kv in $cfg; do args+=(--param "$kv"); done
  tks=()
  line=""
  for ((r = 0; r < runs; r++)); do
    err=$(mktemp)
    out=$("$bin" --device "$dev" --n "$n" --algo "$algo" --type "$type" --no-tuned "${args[@]}" --json 2>"$err") || {
      line="FAILED: $(tail -1 "$err")"
      rm -f "$err"
      break
    }
    rm -f "$err"  # stderr holds notes only (e.g. the first compile's)
    tks+=("$(echo "$out" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["t_k"], r["relaxations"], r["products"], r["wall"])')")
    split=$(echo "$out" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(" ".join("%s=%.1fms" % (k, v * 1e3) for k, v in r.get("kernel_seconds", {}).items()))')
  done
  if [ -z "$line" ]; then
    line=$(printf '%s\n' "${tks[@]}" | python3 -c '
import sys, statistics
rows = [list(map(float, l.split())) for l in sys.stdin if l.strip()]
tk = statistics.median(r[0] for r in rows); relax = rows[0][1]
print(f"T_k median {tk*1e3:9.2f} ms  {relax/tk/1e12:6.2f} Trelax/s  products {int(rows[0][2])}  wall {statistics.median(r[3] for r in rows):.3f} s  runs {len(rows)}")')
  fi
  printf '%-8s n=%-6s %-7s %-40s %s\n' "$algo" "$n" "$type" "$cfg" "$line"
  [ -n "${split:-}" ] && printf '         last run per kernel: %s\n' "$split"
done
