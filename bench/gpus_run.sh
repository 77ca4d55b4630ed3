#!/usr/bin/env bash
# Several GPUs of one host (docs/scale.md, docs/performance/scale.md; data:
# bench/results/<device>/several-gpus/): the same solves on 1, 2, 4 ... GPUs,
# through bench/timed_runs.sh (one --json report and wall time a run), then a
# scaling table with the median of each case per GPU count and the md5 of the
# --stats files, which must be one per case whatever the GPU count.
#
# Usage, from the repository root on the device machine:
#   bench/gpus_run.sh OCL_SP OUT [CASES]
# CASES (default all): comma-separated of
#   host   --n 10000 with every OpenMP thread against OMP_NUM_THREADS=16 (the
#          host's loops sized to their bytes, not to the core count)
#   fw     fw n = 40 000 (FW_N)
#   sssp   rows of random degree 20, n = 10^5 (SSSP_N), written to /dev/null
#   stats  --stats of geometric n = 10^5 (STATS_N); its bytes compared
#   grid   --stats of the 1000 x 1000 grid (minutes; not in the default)
#   fwbig  fw n = 100 000 (FWBIG_N) on the largest GPU count only, BIG_REPS runs
#          (default 1; a second pair only while the script is under BIG_UNTIL
#          seconds, default 330), each writing its output (not in the default)
#   fwshared fw n = FW_N on each GPU count above 1 with OCL_SP_SHARED_CONTEXT=1
#          (one context, panels device to device), SHARED_REPS (2) runs after a
#          warm-up whose output is compared with fw's; run after fw, before
#          fwbig, only while under SHARED_UNTIL seconds (default 300; not in the
#          default)
# BASE=NAME: a baseline binary beside OCL_SP (e.g. ocl_sp.base, main's build):
# the fw and fwbig runs go with both binaries, interleaved, each binary with a
# program cache of its own; the labels of the baseline's runs read CASE.base.
# Outputs compared: the warm-up of each fw GPU count and binary writes --output
# under CMP_DIR (default TMPDIR/ocl_sp_cmp, or /dev/shm when it has the room),
# as does each fwbig run; each file is compared (cmp) with the new binary's
# file of the lowest GPU count of its case, the result in OUT/cmp.txt and the
# summary, then removed.
# GPU counts: every power of two up to the GPUs nvidia-smi lists (GPUS="1 2 4"
# to choose); k GPUs are CUDA_VISIBLE_DEVICES=0..k-1 with --device gpu:all, one
# GPU --device nvidia (ONE_DEVICE=pocl GPUS=1, or GPUS="1 2" with
# ALL_DEVICES="pocl --split 2", and small sizes: a check of the driver itself on
# a CPU). REPS (default 3) timed runs a case after a warm-up.
# Writes OUT/host.txt, OUT/runs.tsv (the run list: a record's flags), OUT/<label>.json
# and .time (timed_runs.sh), OUT/scaling.csv and OUT/summary.txt.
set -uo pipefail
B=$1 OUT=$2 CASES=${3:-host,fw,sssp,stats}
HERE=$(cd "$(dirname "$0")" && pwd)
REPS=${REPS:-3}
FW_N=${FW_N:-40000} SSSP_N=${SSSP_N:-100000} STATS_N=${STATS_N:-100000}
FWBIG_N=${FWBIG_N:-100000} BIG_REPS=${BIG_REPS:-1} BIG_UNTIL=${BIG_UNTIL:-330}
BASE=${BASE:-}
mkdir -p "$OUT"
{ nproc; nvidia-smi -L 2>/dev/null; lscpu | grep -E "Model name|Socket|NUMA node\(s\)"; } >"$OUT/host.txt" 2>&1
if [ -z "${GPUS:-}" ]; then
  count=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
  GPUS=""
  for k in 1 2 4 8 16; do [ "$k" -le "${count:-1}" ] && GPUS+="$k "; done
fi
has() { [[ ",$CASES," == *",$1,"* ]]; }
# ENV and --device of k GPUs
env_of() { if [ "$1" -eq 1 ]; then echo "-"; else echo "CUDA_VISIBLE_DEVICES=$(seq -s, 0 $(($1 - 1)))"; fi; }
dev_of() { if [ "$1" -eq 1 ]; then echo "--device ${ONE_DEVICE:-nvidia}"; else echo "--device ${ALL_DEVICES:-gpu:all}"; fi; }
tmp=${TMPDIR:-/tmp}
CMP_DIR=${CMP_DIR:-}
if [ -z "$CMP_DIR" ]; then
  CMP_DIR=$tmp/ocl_sp_cmp
  shm=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 {print $4}')
  [ "${shm:-0}" -gt $((100 * 1024 * 1024)) ] && CMP_DIR=/dev/shm/ocl_sp_cmp
fi
mkdir -p "$CMP_DIR"
runs=$OUT/runs.tsv
: >"$runs"
line() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${4:-}" >>"$runs"; }
# binaries: "new" (OCL_SP) and, with BASE, "base"; the ENV of k GPUs for one
bins() { echo new; [ -n "$BASE" ] && echo base; }
bin_of() { [ "$1" = base ] && echo "$BASE"; }
env_bin() {  # env_bin K BIN: CUDA_VISIBLE_DEVICES and the binary's program cache
  local e
  e=$(env_of "$1")
  [ "$e" = - ] && e=""
  [ -n "$BASE" ] && e="$e OCL_SP_CACHE_DIR=$tmp/ocl_sp_cache_$2"
  e=${e# }
  echo "${e:--}"
}
suffix() { [ "$1" = base ] && echo .base; }
case_runs() {  # case_runs CASE ARGS [CMP]: a warm-up and REPS runs on each GPU count
  local c=$1 args=$2 cmp=${3:-} k r b out
  for k in $GPUS; do
    for b in $(bins); do
      out=""
      [ -n "$cmp" ] && out=" --output $CMP_DIR/$c-${k}gpu-$b.bin --output-format bin"
      line - "$(env_bin "$k" "$b")" "$(dev_of "$k") $args$out" "$(bin_of "$b")"
    done
    for r in $(seq "$REPS"); do
      for b in $(bins); do
        line "$c$(suffix "$b")-${k}gpu-$r" "$(env_bin "$k" "$b")" "$(dev_of "$k") ${args//@/$c-${k}gpu-$r}" "$(bin_of "$b")"
      done
    done
  done
}
compare_outputs() {  # compare_outputs CASE [REF_CASE]: each output of CASE against the
  # new binary's of the lowest GPU count (kept as CASE-ref.bin), or REF_CASE's kept one
  local c=$1 ref="" f k
  if [ -n "${2:-}" ]; then
    ref=$CMP_DIR/$2-ref.bin
    [ -f "$ref" ] || ref=""
  else
    for k in $GPUS; do
      [ -z "$ref" ] && [ -f "$CMP_DIR/$c-${k}gpu-new.bin" ] && ref=$CMP_DIR/$c-${k}gpu-new.bin
    done
  fi
  [ -n "$ref" ] || { echo "$c: no output of the new binary to compare" | tee -a "$OUT/cmp.txt"; return; }
  for f in "$CMP_DIR/$c"-*gpu-*.bin; do
    [ -f "$f" ] && [ "$f" != "$ref" ] || continue
    if cmp -s "$ref" "$f"; then r=identical; else r=DIFFERENT; fi
    echo "$c: $(basename "$f") vs $(basename "$ref"): $r ($(stat -c %s "$f") bytes)" | tee -a "$OUT/cmp.txt"
  done
  [ -z "${2:-}" ] && [ -n "$KEEP_REF" ] && mv "$ref" "$CMP_DIR/$c-ref.bin"
  rm -f "$CMP_DIR/$c"-*gpu-*.bin
}
if has host; then
  line - - "$(dev_of 1) --n 10000"
  for r in $(seq "$REPS"); do
    line "n10k-default-$r" - "$(dev_of 1) --n 10000"
    line "n10k-omp16-$r" OMP_NUM_THREADS=16 "$(dev_of 1) --n 10000"
  done
fi
has fw && case_runs fw "--n $FW_N" cmp
has sssp && case_runs sssp "--generator random --degree 20 --n $SSSP_N --algo sssp --output /dev/null --output-format bin"
has stats && case_runs stats "--generator geometric --n $STATS_N --algo sssp --stats $tmp/@.csv"
has grid && case_runs grid "--generator grid --n 1000000 --algo sssp --stats $tmp/@.csv"

bash "$HERE/timed_runs.sh" "$B" "$OUT" "$runs" | tee "$OUT/summary.txt"
KEEP_REF=""
has fwshared && KEEP_REF=1
has fw && compare_outputs fw | tee -a "$OUT/summary.txt"
KEEP_REF=""

# fwshared: fw n = FW_N on every GPU count above 1 with OCL_SP_SHARED_CONTEXT=1
# (one context, panels device to device), the new binary only, a warm-up writing
# the output (compared with the fw case's) and SHARED_REPS runs; only while the
# script is under SHARED_UNTIL seconds (default 300).
if has fwshared; then
  if [ "$SECONDS" -gt "${SHARED_UNTIL:-300}" ]; then
    echo "fwshared: skipped (${SECONDS} s > ${SHARED_UNTIL:-300} s)" | tee -a "$OUT/summary.txt"
  else
    sh_runs=$OUT/runs_shared.tsv
    : >"$sh_runs"
    for k in $GPUS; do
      [ "$k" -gt 1 ] || continue
      e="$(env_bin "$k" new) OCL_SP_SHARED_CONTEXT=1"
      e=${e#- }
      printf '%s\t%s\t%s\t\n' - "$e" "$(dev_of "$k") --n $FW_N --output $CMP_DIR/fwshared-${k}gpu-new.bin --output-format bin" >>"$sh_runs"
      for r in $(seq "${SHARED_REPS:-2}"); do
        printf '%s\t%s\t%s\t\n' "fwshared-${k}gpu-$r" "$e" "$(dev_of "$k") --n $FW_N" >>"$sh_runs"
      done
    done
    cat "$sh_runs" >>"$runs"
    bash "$HERE/timed_runs.sh" "$B" "$OUT" "$sh_runs" | tee -a "$OUT/summary.txt"
    compare_outputs fwshared fw | tee -a "$OUT/summary.txt"
  fi
  rm -f "$CMP_DIR/fw-ref.bin"
fi

# fwbig: the largest GPU count, each first run writing its output (no warm-up:
# the fw case, run before, has filled the program caches), compared afterwards
# (run here, not by timed_runs.sh, which would md5 each 40 GB file).
if has fwbig; then
  k=$(echo $GPUS | awk '{print $NF}')
  for r in $(seq "$BIG_REPS"); do
    [ "$r" -gt 1 ] && [ "$SECONDS" -gt "$BIG_UNTIL" ] && { echo "fwbig: run $r skipped (${SECONDS} s > $BIG_UNTIL s)" | tee -a "$OUT/summary.txt"; break; }
    for b in $(bins); do
      label=fwbig$(suffix "$b")-${k}gpu-$r
      out=""
      [ "$r" -eq 1 ] && out=" --output $CMP_DIR/fwbig-${k}gpu-$b.bin --output-format bin"
      e=$(env_bin "$k" "$b")
      args="$(dev_of "$k") --n $FWBIG_N$out"
      line "$label" "$e" "$args" "$(bin_of "$b")"
      [ "$e" = - ] && e=""
      exe=$B
      [ "$b" = base ] && exe=$(dirname "$B")/$BASE
      # shellcheck disable=SC2086
      /usr/bin/time -f "%e s wall, %M KB peak" env $e "$exe" $args --json --quiet >"$OUT/$label.json" 2>"$OUT/$label.time"
      python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print('[%s] solve %.3f t_k %.3f t_h %.3f idle %.3f %s' % (sys.argv[2], r['solve'], r['t_k'], r['t_h'], r.get('copy_exposed', 0), r.get('placement', '')))" "$OUT/$label.json" "$label" 2>&1 | tee -a "$OUT/summary.txt"
    done
    [ "$r" -eq 1 ] && compare_outputs fwbig | tee -a "$OUT/summary.txt"
  done
fi

# The table: median solve and T_k per case and GPU count; the --stats files' md5.
python3 - "$OUT" "$runs" <<'PY' | tee -a "$OUT/summary.txt"
import csv, hashlib, json, os, re, statistics, sys
out, runs = sys.argv[1], sys.argv[2]
rows = {}
for l in open(runs):
    label = l.split("\t")[0]
    m = re.match(r"(.+)-(\d+)gpu-\d+$", label) or re.match(r"(n10k-[a-z0-9]+)-\d+$", label)
    if not m:
        continue
    key = (m.group(1), int(m.group(2)) if m.lastindex == 2 else 1)
    try:
        r = json.load(open(os.path.join(out, label + ".json")))
    except Exception:
        continue
    md5 = ""
    st = re.search(r"--stats (\S+)", l)
    if st and os.path.exists(st.group(1)):
        md5 = hashlib.md5(open(st.group(1), "rb").read()).hexdigest()
        os.remove(st.group(1))
    rows.setdefault(key, []).append((r.get("solve"), r.get("t_k"), md5))
with open(os.path.join(out, "scaling.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["case", "gpus", "runs", "solve_median", "t_k_median", "speedup_solve", "stats_md5"])
    for (c, k), v in sorted(rows.items()):
        solve = statistics.median(x[0] for x in v if x[0] is not None)
        tk = statistics.median(x[1] for x in v if x[1] is not None)
        one = rows.get((c, 1))
        base = statistics.median(x[0] for x in one) if one else float("nan")
        md5s = sorted({x[2] for x in v if x[2]})
        w.writerow([c, k, len(v), "%.4f" % solve, "%.4f" % tk, "%.3f" % (base / solve), " ".join(md5s)])
        print("%-14s %d GPU(s): solve %.3f s, T_k %.3f s, %.2fx %s" % (c, k, solve, tk, base / solve, " ".join(md5s)))
for c in {c for c, _ in rows}:
    md5s = {x[2] for (cc, _), v in rows.items() if cc == c for x in v if x[2]}
    if len(md5s) > 1:
        print("error: %s: the --stats bytes differ between placements: %s" % (c, " ".join(sorted(md5s))))
PY
