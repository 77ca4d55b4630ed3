#!/usr/bin/env bash
# Paths beyond one buffer and the out-of-core baseline on one GPU: each
# case solved RUNS times with --json, one summary line per solve (T_k, solve,
# whole process, the path step's seconds from the report's paths line), all
# JSON kept in OUT/runs.jsonl with the command. Usage (device tool, repo root):
#   bash bench/paths_panels_run.sh OCL_SP OUT [SET]
# SET: "recover" (default; the host recovery), "rebuild" (the
# device rebuild: checks with --verify, then n = 10 000 /
# 50 000 distances against paths in the single buffer and on panels), "staged"
# (the same checks, then n = 10 000 / 50 000 panels, distances
# and paths interleaved, three of each, OCL_SP_PROFILE=1's phases in stderr.log).
# "default" (no flags: the default route; binaries $B and $BASE, baseline
# first, interleaved REPS times at each n of NS, distances and paths, every
# run under OCL_SP_PROFILE=1) and "copies" (the distances' upload / download
# through the matrix stager under OCL_SP_STAGE_CHUNKS / OCL_SP_STAGE_BYTES).
# ENVV="NAME=value ..." before solve() runs that case under those variables;
# LABEL names the binary in runs.jsonl (COMMIT its commit).
set -uo pipefail
B=$1 O=$2 SET=${3:-recover}
export OCL_SP_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/device.txt"
nproc >> "$O/device.txt"
# solve RUNS TIMEOUT ARGS...: RUNS solves of `ocl_sp --device nvidia ARGS --json`.
solve() {
  local runs=$1 limit=$2
  shift 2
  for ((r = 0; r < runs; r++)); do
    local t0=$(date +%s%N)
    out=$(timeout "$limit" env ${ENVV:-} "$B" --device "${DEV:-nvidia}" "$@" --json 2>"$O/stderr.txt")
    rc=$?
    { echo "== ${LABEL:+$LABEL: }${ENVV:+$ENVV }$*"; cat "$O/stderr.txt"; } >> "$O/stderr.log"
    local wall=$(python3 -c "print(($(date +%s%N) - $t0) / 1e9)")
    echo "{\"driver\": \"bench/paths_panels_run.sh $SET\", \"binary\": \"${LABEL:-$B}\", \"commit\": \"${COMMIT:-}\", \"command\": \"${ENVV:+$ENVV }ocl_sp --device nvidia $* --json\", \"rc\": $rc, \"process_s\": $wall, \"report\": ${out:-null}}" >> "$O/runs.jsonl"
    echo "$out" | python3 -c '
import json, re, sys
args, rc, wall = sys.argv[1], sys.argv[2], float(sys.argv[3])
try:
    r = json.load(sys.stdin)
except Exception:
    print(f"{args}: rc={rc} after {wall:.1f} s (no report)"); sys.exit()
m = re.search(r"([0-9.]+) s$", r.get("paths_kernels", "") or "")
rec = f" recover {float(m.group(1)):.3f} s" if m else ""
tk, solve = r["t_k"], r.get("solve", r.get("wall"))
print(("%s %s %s" % (__import__("os").environ.get("LABEL", ""), __import__("os").environ.get("ENVV", ""), args)).strip() + ": T_k %.3f s, solve %.3f s, process %.2f s%s | %s | %s | verify %s, paths %s" % (tk, solve, wall, rec,
      r.get("placement", ""), (r.get("paths_kernels", "") or "")[:150], r.get("verify"), r.get("paths_check")))
' "$*" "$rc" "$wall"
  done
}
# --paths --verify in each placement (the rebuild and staged sets open with it).
verify_placements() {
  echo "== checks: --paths --verify (every pair's path expanded) in each placement"
  solve 1 60 --n 3001 --panel 1024 --paths --verify
  solve 1 60 --n 3001 --negative --panel 1024 --paths --verify
  solve 1 60 --n 3001 --device-memory 20M --paths --verify
  ENVV=OCL_SP_PATHS_REBUILD=1 solve 1 60 --n 3001 --negative --paths --verify
}
if [ "$SET" = copies ]; then
  export ENVV LABEL
  solve 1 60 --n 2000 > /dev/null   # build and cache the programs
  for n in ${NS:-10000}; do
    for v in ${VARIANTS:-2:8388608}; do  # CHUNKS:BYTES
      ENVV="OCL_SP_PROFILE=1 OCL_SP_STAGE_CHUNKS=${v%%:*} OCL_SP_STAGE_BYTES=${v#*:}" solve "${REPS:-3}" 120 --n "$n"
    done
  done
  exit 0
fi
if [ "$SET" = default ]; then
  export ENVV LABEL
  for b in "$BASE" "$B"; do  # build and cache the programs
    "$b" --device nvidia --n 2000 --paths > /dev/null 2>&1
    OCL_SP_PATHS_REBUILD=1 "$b" --device nvidia --n 2000 --paths > /dev/null 2>&1
  done
  echo "== checks: --paths --verify (every pair's path expanded), the single buffer's rebuild"
  LABEL=new ENVV=OCL_SP_PATHS_REBUILD=1 solve 1 60 --n 3001 --paths --verify
  LABEL=new ENVV=OCL_SP_PATHS_REBUILD=1 solve 1 60 --n 3001 --negative --paths --verify
  MINE=$B
  for n in ${NS:-10000 30000}; do
    echo "== n = $n: distances / paths, no flag, baseline and new interleaved"
    for ((rep = 0; rep < ${REPS:-3}; rep++)); do
      for lb in "base=$BASE" "new=$MINE"; do
        LABEL=${lb%%=*} B=${lb#*=}
        ENVV=OCL_SP_PROFILE=1 solve 1 300 --n "$n"
        ENVV=OCL_SP_PROFILE=1 solve 1 300 --n "$n" --paths
      done
    done
  done
  exit 0
fi
if [ "$SET" = staged ]; then
  export ENVV
  solve 1 60 --n 2000 --panel 1024 --paths > /dev/null   # build and cache the programs
  ENVV=OCL_SP_PATHS_REBUILD=1 solve 1 60 --n 2000 --paths > /dev/null
  verify_placements
  echo "== n = 10 000, panels P = 5120 (2 x 2): distances / paths, interleaved"
  for rep in 1 2 3; do
    solve 1 60 --n 10000 --panel 5120
    ENVV=OCL_SP_PROFILE=1 solve 1 60 --n 10000 --panel 5120 --paths
  done
  echo "== n = 50 000, panels P = 12544 (4 x 4): distances / paths, interleaved"
  for rep in 1 2 3; do
    solve 1 60 --n 50000 --panel 12544
    ENVV=OCL_SP_PROFILE=1 solve 1 60 --n 50000 --panel 12544 --paths
  done
  exit 0
fi
if [ "$SET" = rebuild ]; then
  export ENVV
  solve 1 60 --n 2000 --paths > /dev/null   # build and cache the programs
  solve 1 60 --n 2000 --panel 1024 --paths > /dev/null
  ENVV=OCL_SP_PATHS_REBUILD=1 solve 1 60 --n 2000 --paths > /dev/null
  verify_placements
  echo "== n = 10 000: distances / paths, single buffer (packed keys, rebuild) and panels (P = 5120)"
  for rep in 1 2; do
    solve 1 60 --n 10000
    solve 1 60 --n 10000 --paths
    ENVV=OCL_SP_PATHS_REBUILD=1 solve 1 60 --n 10000 --paths
    solve 1 60 --n 10000 --panel 5120
    solve 1 60 --n 10000 --panel 5120 --paths
  done
  echo "== n = 50 000: distances and paths on panels (P = 12544, 4 x 4), rebuild in the single buffer"
  solve 1 60 --n 50000 --panel 12544
  solve 1 60 --n 50000 --panel 12544 --paths
  ENVV=OCL_SP_PATHS_REBUILD=1 solve 1 60 --n 50000 --paths
  exit 0
fi
solve 1 60 --n 2000 --paths > /dev/null   # build and cache the programs
solve 1 60 --n 2000 --panel 1024 --paths > /dev/null
echo "== n = 10 000: distances / paths, single buffer and panels (P = 5120, 2 x 2 resident)"
for rep in 1 2 3; do
  solve 1 60 --n 10000
  solve 1 60 --n 10000 --paths
  solve 1 60 --n 10000 --panel 5120
  solve 1 60 --n 10000 --panel 5120 --paths
done
echo "== n = 20 000, panels (P = 10240)"
for rep in 1 2; do
  solve 1 90 --n 20000 --panel 10240
  solve 1 90 --n 20000 --panel 10240 --paths
done
echo "== out of core n = 40 000: in core vs --device-memory 1600M"
for rep in 1 2; do
  solve 1 120 --n 40000
  solve 1 120 --n 40000 --device-memory 1600M
done
echo "== n = 50 000, panels (P = 12544, 4 x 4): distances, paths (at most 150 s)"
solve 1 120 --n 50000 --panel 12544
solve 1 150 --n 50000 --panel 12544 --paths
