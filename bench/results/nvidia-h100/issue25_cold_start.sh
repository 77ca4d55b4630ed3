#!/usr/bin/env bash
# Issue 25, cold start: `ocl_sp --device nvidia --n 10000` with empty caches (ours
# in a fresh OCL_SP_CACHE_DIR, the driver's JIT cache off), per variant of the fw
# program build, runs interleaved; then warm runs on filled caches and a --verify
# check of the new build. Run on the device machine from a folder holding the
# binary (ocl_sp) and, as a fallback, lib/ with libOpenCL.so.1 and libgomp.so.1.
# As run in the first call (log: issue25_cold_start.txt): its knobs
# OCL_SP_FW_ONE_PROGRAM=1 (the three fw kernels in one program) and
# -DHELPER_EXTERN (non-static kernel helpers) were removed afterwards; its "new"
# is the three kernels built as programs on threads, now OCL_SP_FW_SEPARATE_KERNELS=1.
# Writes $OUT/cold.jsonl (one line per run: variant, run, the --json report),
# $OUT/log.txt and prints a summary (median t_program per variant). DEV and N
# (default nvidia, 10000) try it elsewhere, e.g. DEV=pocl N=200.
set -u
source "$(dirname "$0")/issue25_cold_start_common.sh"
"$B" --version

# variant name -> environment
declare -A env_of=(
  [before]="OCL_SP_FW_ONE_PROGRAM=1 OCL_SP_EXTRA_BUILD_OPTIONS=-DHELPER_EXTERN"
  [static_one]="OCL_SP_FW_ONE_PROGRAM=1"
  [split_serial]="OCL_SP_BUILD_SERIAL=1"
  [split_extern]="OCL_SP_EXTRA_BUILD_OPTIONS=-DHELPER_EXTERN"
  [new]="X=1"
)
declare -A runs_of=([before]=4 [static_one]=4 [split_serial]=4 [split_extern]=3 [new]=6)
order="new before static_one split_serial split_extern"

for i in 1 2 3 4 5 6; do
  for v in $order; do
    [ "$i" -le "${runs_of[$v]}" ] && cold "$v" "$i"
  done
done

echo "== cache entries (PTX) of the first cold run per variant"
for v in $order; do
  for f in /tmp/cache_$v/*.oclbin; do
    printf '%-13s %9d bytes  %3d .entry  %3d .func  %s\n' "$v" "$(wc -c <"$f")" \
      "$(grep -ac '^\.entry\|^\.visible \.entry' "$f")" \
      "$(grep -ac '^\.func\|^\.visible \.func\|^\.weak \.func' "$f")" \
      "$(grep -a '^options:' "$f" | grep -o 'FW_ONLY=[0-9]\|HELPER_EXTERN' | tr '\n' ' ')"
  done
done

echo "== warm: our cache filled by the cold run; driver JIT cache in a fresh folder"
for v in new before; do
  cu=$(mktemp -d)
  for i in 1 2 3; do
    env ${env_of[$v]} CUDA_CACHE_PATH="$cu" OCL_SP_CACHE_DIR="/tmp/cache_$v" \
      "$B" --device "${DEV:-nvidia}" --n "${N:-10000}" --json --quiet >"$O/j" 2>/dev/null
    echo "{\"variant\":\"warm_$v\",\"run\":$i,\"report\":$(cat "$O/j")}" >>"$O/cold.jsonl"
  done
done

echo "== verify (new build, fresh cache)"
vc=$(mktemp -d)
for a in "--n 2000" "--n 2000 --type float32" "--n 1500 --negative" "--n 100" "--n 1300 --negative --type float32"; do
  printf '%s: ' "$a"
  OCL_SP_CACHE_DIR=$vc "$B" --device "${DEV:-nvidia}" --algo fw $a --verify --quiet 2>&1 | grep -E "verify|error" | tr -s ' '
done

python3 - "$O/cold.jsonl" <<'EOF'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
by = {}
for r in rows:
    by.setdefault(r["variant"], []).append(r["report"])
print("%-14s %3s %9s %9s %9s %9s  %s" % ("variant", "n", "t_prog", "min", "max", "t_ctx", "t_k / cache"))
for v, rs in by.items():
    tp = [x["t_program"] for x in rs]
    print("%-14s %3d %9.3f %9.3f %9.3f %9.3f  %.5f %s" % (
        v, len(rs), statistics.median(tp), min(tp), max(tp),
        statistics.median([x["t_context"] for x in rs]),
        statistics.median([x["t_k"] for x in rs]), rs[0]["program_cache"]))
EOF
