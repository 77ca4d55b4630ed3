#!/usr/bin/env bash
# The path rebuild kernel (kernels/paths_rebuild.cl rebuild_paths) by its work-group
# size and persistent groups per compute unit (OCL_SP_REBUILD_WG,
# OCL_SP_REBUILD_GROUPS): `--n N --paths` with no other flag (the default route),
# the distances alone beside it, each a fresh process with --json, RUNS rounds,
# every variant in each round (interleaved). Reports to OUT/runs.jsonl, a line per
# solve to stdout (solve, T_k, the rebuild's kernel seconds, the report's paths line).
#
#   bash bench/paths_rebuild_groups.sh OCL_SP OUT [N] [RUNS] ["WG:G ... | default"]
set -uo pipefail
B=$1 O=$2 N=${3:-30000} RUNS=${4:-2} VARIANTS=${5:-"256:8 1024:2 512:2 256:4 1024:1"}
mkdir -p "$O"
export OCL_SP_CACHE_DIR=${OCL_SP_CACHE_DIR:-$(mktemp -d)}
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; nproc; } > "$O/device.txt"
one() {  # LABEL ENV... -- ARGS...
  local label=$1
  shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  out=$(timeout 120 env "${envs[@]}" "$B" --device "${DEV:-nvidia}" "$@" --json 2>>"$O/stderr.log")
  local rc=$?
  printf '{"driver": "bench/paths_rebuild_groups.sh", "commit": "%s", "label": "%s", "env": "%s", "command": "ocl_sp --device %s %s --json", "rc": %d, "report": %s}\n' \
    "${COMMIT:-}" "$label" "${envs[*]}" "${DEV:-nvidia}" "$*" "$rc" "${out:-null}" >> "$O/runs.jsonl"
  echo "$out" | python3 -c '
import json, sys
try:
    r = json.load(sys.stdin)
except Exception:
    print(sys.argv[1], "no report"); sys.exit()
k = r.get("kernel_seconds", {}).get("rebuild_paths", 0)
print("%-12s solve %.3f s, T_k %.3f s, rebuild_paths %.3f s | %s" % (sys.argv[1], r["solve"], r["t_k"], k, (r.get("paths_kernels") or "")[-120:]))
' "$label"
}
one warmup OCL_SP_X=0 -- --n 3000 --paths > /dev/null
# shape VARIANT: the environment of a variant ("default": none).
shape() { [ "$1" = default ] && echo OCL_SP_X=0 || echo "OCL_SP_REBUILD_WG=${1%%:*} OCL_SP_REBUILD_GROUPS=${1##*:}"; }
# shellcheck disable=SC2046
for v in $VARIANTS; do one "warm-$v" $(shape "$v") -- --n 3000 --paths > /dev/null; done
for ((r = 1; r <= RUNS; r++)); do
  one distances OCL_SP_X=0 -- --n "$N"
  for v in $VARIANTS; do
    # shellcheck disable=SC2046
    one "paths-$v" $(shape "$v") -- --n "$N" --paths
  done
done
