#!/usr/bin/env bash
# Panel-engine measurements on the device tool (docs/performance/scale.md; data: bench/results/<device>/out-of-core/):
#   scale_run.sh h200   OUT  -- no-regression bench, n = 40000 single / resident /
#                               out of core (1/4 of the matrix), bit-compared; n = 100000
#   scale_run.sh h100   OUT  -- n = 40000 in core and at 1/4 device memory; n = 150000
#                               out of core (90 GB > 80 GB of device memory)
#   scale_run.sh x2     OUT  -- 1 vs 2 GPUs at n = 40000 and 100000
# Each solve is one `ocl_sp --json` line in OUT/runs.jsonl; logs in OUT/log.txt.
set -uo pipefail
mode=$1 out=$2
bin=${BIN:-build-gpu/ocl_sp}
export OCL_SP_CACHE_DIR=${OCL_SP_CACHE_DIR:-/tmp/ocl_sp_cache}
mkdir -p "$out" "$OCL_SP_CACHE_DIR"
tmp=${TMPDIR:-/tmp}
log="$out/log.txt"
solve() {  # solve LABEL ARGS...: one JSON report per line, tagged with LABEL
  local label=$1
  shift
  echo "== $label: ocl_sp $*" >>"$log"
  local t0 t1
  t0=$(date +%s.%N)
  "$bin" --quiet --json "$@" >"$tmp/r.json" 2>>"$log"
  local rc=$?
  t1=$(date +%s.%N)
  python3 - "$label" "$rc" "$t0" "$t1" "$tmp/r.json" >>"$out/runs.jsonl" <<'PY'
import json, sys
label, rc, t0, t1, f = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
try:
    r = json.load(open(f))
except Exception:
    r = {}
keep = {k: r.get(k) for k in ("n", "device", "placement", "panel", "devices", "t_o", "t_h", "t_k",
                             "solve", "wall", "relaxations_per_s", "bytes_moved", "copy_exposed",
                             "device_lines", "verify", "kernel_seconds")}
keep.update(label=label, rc=rc, process_s=round(t1 - t0, 3),
            t_k_rate_T=round((r.get("relaxations_per_s") or 0) / 1e12, 3),
            solve_rate_T=round(((r.get("n") or 0) ** 3 / r["solve"]) / 1e12, 3) if r.get("solve") else None)
print(json.dumps(keep))
PY
  tail -c 600 "$out/runs.jsonl" | tail -1 | cut -c1-400 >>"$log"
}
{ nvidia-smi -L; free -g; nproc; } >>"$log" 2>&1
N="--device nvidia --no-tuned"
# Warm the program cache (first NVIDIA compile of each program) and check the
# panel placements bit-exactly on the GPU at a size the CPU reference can do.
solve warm-single $N --n 5000
solve verify-resident $N --n 5000 --panel 1280 --verify
solve verify-ooc $N --n 5000 --device-memory 40M --verify
solve verify-neg $N --n 5000 --negative --panel 2048 --verify
# n = 40 000 in one buffer, out of core at a quarter, resident: identical bytes.
n40k_placements() {
  solve n40k-single $N --n 40000 --output "$tmp/single.bin"
  solve n40k-ooc-quarter $N --n 40000 --device-memory 1600M --output "$tmp/ooc.bin"
  echo "cmp single ooc: $(cmp "$tmp/single.bin" "$tmp/ooc.bin" && echo identical)" >>"$log"
  rm -f "$tmp/ooc.bin"
  solve n40k-resident $N --n 40000 --panel 10112 --output "$tmp/res.bin"
  echo "cmp single resident: $(cmp "$tmp/single.bin" "$tmp/res.bin" && echo identical)" >>"$log"
  rm -f "$tmp/single.bin" "$tmp/res.bin"
}
case $mode in
  h200)
    "$bin" bench --devices nvidia --sizes 10000,20000 --algos fw --reps 5 --no-tuned --quiet >"$out/bench_fw.txt" 2>&1
    n40k_placements
    solve n100k-auto $N --n 100000 --host-memory 120G
    ;;
  h100)
    n40k_placements
    solve n150k-ooc $N --n 150000 --host-memory 124G
    ;;
  h200b)
    solve n40k-single $N --n 40000
    solve n40k-ooc-staging $N --n 40000 --device-memory 1600M
    solve n40k-ooc-eighth $N --n 40000 --device-memory 800M
    solve n100k-auto $N --n 100000 --host-memory 120G
    ;;
  h100b)
  solve n40k-single $N --n 40000 --output "$tmp/single.bin"
    solve n40k-ooc-quarter $N --n 40000 --device-memory 1600M --output "$tmp/ooc.bin"
    echo "cmp single ooc: $(cmp "$tmp/single.bin" "$tmp/ooc.bin" && echo identical)" >>"$log"
    rm -f "$tmp/single.bin" "$tmp/ooc.bin"
    solve n150k-ooc $N --n 150000 --host-memory 124G
    ;;
  x2)
    solve n40k-1gpu $N --n 40000
    solve n40k-2gpu --device gpu:all --no-tuned --n 40000
    solve n100k-1gpu $N --n 100000 --host-memory 240G
    solve n100k-2gpu --device gpu:all --no-tuned --n 100000 --host-memory 240G
    ;;
esac
echo "done" >>"$log"
