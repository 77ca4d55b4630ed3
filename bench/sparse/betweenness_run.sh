#!/usr/bin/env bash
# --stats --betweenness on the H100 (Brandes beside the rows) against OpenMP on
# the host's cores: medians of 3 after a warm-up; the CSVs' md5 across backends.
# Usage (device tool): copied into a carry folder beside the ocl_sp binary (ocl_sp_v1: the
# first kernel version, for the v1 rows), run with OUT set; records: bench/results/nvidia-h100/betweenness/.
cd "$(dirname "$0")"
export OCL_SP_CACHE_DIR=/tmp/c
# a larger host: OpenMP on 16 of its cores, as the one-GPU machine has
[ "$(nproc)" -gt 16 ] && export OMP_NUM_THREADS=16
B=$PWD/ocl_sp
O=$OUT
VER=$($B --version | head -1)
DEV="$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1), $(nvidia-smi -L | wc -l) GPUs on the host, one used"
echo "$VER | $DEV | cores $(nproc) | OMP_NUM_THREADS=${OMP_NUM_THREADS:-all}" > $O/summary.txt
one() {  # LABEL CSV ARGS...: one run, a JSON line
  local label=$1 csv=$2; shift 2
  local t0=$(date +%s.%N)
  timeout 170 env $ENVS ${BIN:-$B} "$@" --stats $csv --betweenness --json --quiet > $O/last.json 2>$O/last.err
  local rc=$?
  local t1=$(date +%s.%N)
  python3 - "$label" "$rc" "$t0" "$t1" "$csv" "$(${BIN:-$B} --version | sed -n 2p)" "$DEV" "${ENVS:+$ENVS }ocl_sp $*" <<'PY' >> $O/betweenness.jsonl
import json, sys, hashlib, os
label, rc, t0, t1, csv, ver, dev, args = sys.argv[1:]
o = os.environ["OUT"]
try:
    r = json.load(open(o + "/last.json"))
except Exception:
    r = {}
md5 = hashlib.md5(open(csv, "rb").read()).hexdigest() if os.path.exists(csv) and rc == "0" else None
print(json.dumps({"label": label, "command": args + " --stats FILE --betweenness --json --quiet",
                  "revision": ver, "device": dev, "rc": int(rc), "elapsed": float(t1) - float(t0),
                  "wall": r.get("wall"), "solve": r.get("solve"), "t_k": r.get("t_k"),
                  "kernel_seconds": r.get("kernel_seconds"), "notes": r.get("notes"), "csv_md5": md5,
                  "err": open(o + "/last.err").read()[-300:]}))
PY
  rm -f $O/last.json
}
three() {  # LABEL ARGS...: a warm-up and 3 runs
  local label=$1; shift
  one "$label-warmup" /tmp/$label.csv "$@"
  for r in 1 2 3; do one "$label" /tmp/$label.csv "$@"; done
}
ENVS=""
G316="--generator grid --n 99856 --algo sssp --device nvidia"
# the earlier kernel (baseline on this machine): a warm-up and one run
BIN=$PWD/ocl_sp_v1 one grid316-h100-v1-warmup /tmp/v1.csv $G316
BIN=$PWD/ocl_sp_v1 one grid316-h100-v1 /tmp/v1.csv $G316
# work-group sizes: a warm-up (program build) and one run each, the best kept
best=256; bestt=1e9
for wg in 256 128 64; do
  ENVS="OCL_SP_BC_WG=$wg"
  one grid316-h100-wg$wg-warmup /tmp/g316.csv $G316
  one grid316-h100-wg$wg /tmp/g316.csv $G316
  t=$(tail -1 $O/betweenness.jsonl | python3 -c "import json,sys; r=json.load(sys.stdin); print((r.get('kernel_seconds') or {}).get('bc_sources', 1e9))")
  if python3 -c "import sys; sys.exit(0 if float('$t') < float('$bestt') else 1)"; then best=$wg; bestt=$t; fi
done
echo "best OCL_SP_BC_WG=$best (bc_sources $bestt s)" >> $O/summary.txt
ENVS="OCL_SP_BC_WG=$best"
for r in 1 2 3; do one grid316-h100-best /tmp/g316.csv $G316; done
three grid100-h100-best --generator grid --n 10000 --algo sssp --device nvidia
three random20-h100-best --n 10000 --degree 20 --algo sssp --device nvidia
ENVS=""
for r in 1 2 3; do one grid100-openmp /tmp/grid100-openmp.csv --generator grid --n 10000 --algo sssp --backend openmp; done
for r in 1 2 3; do one random20-openmp /tmp/random20-openmp.csv --n 10000 --degree 20 --algo sssp --backend openmp; done
md5sum /tmp/v1.csv /tmp/g316.csv >> $O/summary.txt
python3 - <<'PY' >> $O/summary.txt
import json, os, statistics, collections
rs = [json.loads(l) for l in open(os.environ["OUT"] + "/betweenness.jsonl")]
by = collections.defaultdict(list)
for r in rs: by[r["label"]].append(r)
for l, v in by.items():
    w = [x["wall"] for x in v if x["wall"] is not None]
    bc = [(x.get("kernel_seconds") or {}).get("bc_sources") for x in v]
    print(l, "rc", [x["rc"] for x in v], "wall median", statistics.median(w) if w else None, "walls", w,
          "bc_sources", bc, "md5", sorted(set(x["csv_md5"] for x in v if x["csv_md5"])))
PY
cat $O/summary.txt
