#!/usr/bin/env bash
# The kernel-variant family (build options and tunables A/B, docs/performance/dense.md): for
# each variant of a variants file, the fw and squaring programs built at n = 3001
# (registers from the NVIDIA build log, output compared with the first variant's),
# one out-of-core solve (n = 6000, --device-memory 60M) likewise, then interleaved
# timings through gpu_explore.sh (fw n = 10 000 median of 5, squaring n = 8192
# median of 3), twice. Replaces the per-call scripts archived in
# bench/results/<device>/fw/runs.jsonl.
# Usage (device tool, repo root): bash bench/ab_variants.sh OCL_SP VARIANTS.csv OUT
#   VARIANTS.csv: name,build options,tunables ("KC=16 STAGES=2"), one variant a
#   line, the first the baseline; '#' lines are comments.
set -u
B=$1 V=$2 O=$3
export OCL_SP_CACHE_DIR=$(mktemp -d)
here=$(dirname "$0")
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/device.txt"
mapfile -t rows < <(grep -v '^#' "$V" | grep .)
base=""
echo "== compile, registers, outputs against the first variant (n = 3001; n = 6000 out of core)"
for row in "${rows[@]}"; do
  IFS=, read -r v o k <<<"$row"
  p=()
  for kv in $k; do p+=(--param "$kv"); done
  for a in squaring fw; do
    OCL_SP_SHOW_BUILD_LOG=1 OCL_SP_EXTRA_BUILD_OPTIONS="$o -cl-nv-verbose" \
      "$B" --device nvidia --n 3001 --algo $a --no-tuned "${p[@]}" --output "$O/$v.$a.bin" >"$O/log" 2>&1
    echo "$v $a rc=$? $(grep -o 'Used [0-9]* registers[^\"]*' "$O/log" | sort | uniq -c | tr '\n' ';' | head -c 400)"
    [ -n "$base" ] && { cmp -s "$O/$base.$a.bin" "$O/$v.$a.bin" && echo "  $a output identical" || echo "  $a OUTPUT DIFFERS"; }
  done
  OCL_SP_EXTRA_BUILD_OPTIONS="$o" "$B" --device nvidia --n 6000 --device-memory 60M --no-tuned "${p[@]}" \
    --output "$O/$v.ooc.bin" >"$O/log" 2>&1
  echo "$v ooc rc=$? $(grep -E 'T_k' "$O/log" | tr '\n' ' ')"
  [ -n "$base" ] && { cmp -s "$O/$base.ooc.bin" "$O/$v.ooc.bin" && echo "  ooc output identical" || echo "  ooc OUTPUT DIFFERS"; }
  [ -z "$base" ] && base=$v
done
rm -f "$O"/*.bin "$O/log"
echo "== timings, interleaved, twice"
for rep in 1 2; do
  for row in "${rows[@]}"; do
    IFS=, read -r v o k <<<"$row"
    OCL_SP_EXTRA_BUILD_OPTIONS="$o" bash "$here/gpu_explore.sh" "$B" nvidia 8192 squaring int32 3 "TILED=1 $k" | sed "s/^/$v /"
    OCL_SP_EXTRA_BUILD_OPTIONS="$o" bash "$here/gpu_explore.sh" "$B" nvidia 10000 fw int32 5 "TILED=1 $k" | sed "s/^/$v /"
  done
done
