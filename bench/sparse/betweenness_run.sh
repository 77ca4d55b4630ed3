#!/usr/bin/env bash
# --stats --betweenness of the 316 x 316 grid on the H100 (Brandes beside the rows):
# the baseline binary (ocl_sp_base, the kernel before) against this one (ocl_sp) and
# its variants (work-group size, groups, build options), medians of 3 after a
# warm-up; the CSVs' md5 (the same bytes for every variant).
# Usage (device tool): copied into a carry folder beside the two binaries, run with
# OUT set; records: bench/results/nvidia-h100/betweenness/.
#   PLAN=main (default): baseline and this binary, 3 runs each, then the variants once
#   PLAN=groups: bc_sources' groups (OCL_SP_BC_GROUPS), once each (528 three times)
#   PLAN=more: the variant kept (BEST, its environment) on the 316 x 316 grid, and the
#   baseline and this binary on the 100 x 100 grid and a random graph (degree 20, n = 10^4)
#   PLAN=onepass: the 316 x 316 grid, baseline and this binary (and this binary with the
#   kernels of k_old/, OCL_SP_KERNEL_DIR, when there), 3 runs each; then the 1000 x 1000
#   grid's sampled betweenness (--sources: SAMPLE sources spread evenly, default 3960,
#   the generator's weights) with this binary and the baseline, once
#   PLAN=variants: the 316 x 316 grid, baseline (3 runs, one more with OCL_SP_PROFILE=1:
#   its phases in grid316-base-profile.err) and this binary once with each kernel build of
#   VARIANTS (";"-separated OCL_SP_EXTRA_BUILD_OPTIONS, "" the default; a variant with
#   "|ENV=VAL" after it runs with that environment too), each kernel built first on a
#   small grid so that the run is warm; NEW=K: this binary's default K times after the
#   baseline (and a warm-up); PROFILE=0: no profiled run
#   PLAN=wide: the 1000 x 1000 grid's sample alone, with W1000 (e.g. "--weights 1:1":
#   unit weights, counts past float64 from most sources) and SAMPLE; WIDE_EXP=1 adds
#   this binary with -DWIDE_EXP_IN_MASK=1 (the wide exponents in the records' masks)
#   PLAN=exact: the 1000 x 1000 grid's exact betweenness (every source, W1000 weights),
#   this binary once after a warm-up on the 10 x 10 grid (TO seconds, default 570)
#   PLAN=openmp: the 1000 x 1000 grid's spread sample (SAMPLE sources) on the OpenMP
#   engine (the host's cores, at most 16), once, and the 316 x 316 grid's on the H100 and
#   OpenMP once each, for the ratio of the two engines
cd "$(dirname "$0")"
export OCL_SP_CACHE_DIR=/tmp/c
[ "$(nproc)" -gt 16 ] && export OMP_NUM_THREADS=16
O=$OUT
DEV="$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1), $(nvidia-smi -L | wc -l) GPUs on the host, one used"
echo "$(./ocl_sp --version | head -1) | $DEV | cores $(nproc)" > $O/summary.txt
one() {  # LABEL BIN ENVS ARGS...: one run, a JSON line
  local label=$1 bin=$2 envs=$3; shift 3
  local csv=/tmp/$label.csv
  local t0=$(date +%s.%N)
  eval "timeout ${TO:-170} env $envs ./$bin \"\$@\""  --stats $csv --betweenness --json --quiet > $O/last.json 2>$O/last.err
  local rc=$?
  local t1=$(date +%s.%N)
  python3 - "$label" "$rc" "$t0" "$t1" "$csv" "$(./$bin --version | sed -n 2p)" "$DEV" "${envs:+$envs }ocl_sp $*" <<'PY' >> $O/betweenness.jsonl
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
                  "err": open(o + "/last.err").read()[-300:], "driver": "bench/sparse/betweenness_run.sh"}))
PY
  case $label in *profile*) cp $O/last.err $O/$label.err ;; esac
  rm -f $O/last.json
}
runs() {  # LABEL BIN ENVS COUNT ARGS...: a warm-up (program build) and COUNT runs
  local label=$1 bin=$2 envs=$3 count=$4; shift 4
  one $label-warmup $bin "$envs" "$@"
  for r in $(seq $count); do one $label $bin "$envs" "$@"; done
}
G316="--generator grid --n 99856 --algo sssp --device nvidia"
if [ "${PLAN:-main}" = groups ]; then
  # bc_sources' groups (OCL_SP_BC_GROUPS; 132 compute units on the H100)
  for g in 528 396 660 792 528 528 264; do one grid316-new-groups$g ocl_sp "OCL_SP_BC_GROUPS=$g" $G316; done
elif [ "${PLAN:-main}" = variants ]; then
  runs grid316-base ocl_sp_base "" 3 $G316
  [ "${NEW:-0}" -gt 0 ] && runs grid316-new ocl_sp "" $NEW $G316
  [ "${PROFILE:-1}" = 1 ] && one grid316-base-profile ocl_sp_base "OCL_SP_PROFILE=1" $G316
  IFS=';' read -ra VS <<< "${VARIANTS:-}"
  for v in "${VS[@]}"; do
    opts=${v%%|*}; more=""; [ "$opts" != "$v" ] && more=${v#*|}
    tag=$(printf '%s' "$opts $more" | sed 's/-D//g; s/OCL_SP_//g' | tr -c 'A-Za-z0-9=' '-' | tr '=' '_')
    envs="OCL_SP_EXTRA_BUILD_OPTIONS=\"$opts\" $more"
    eval "env $envs ./ocl_sp --generator grid --n 100 --algo sssp --device nvidia --stats /tmp/w.csv --betweenness --quiet" >/dev/null 2>&1
    one grid316-new-$tag ocl_sp "$envs" $G316
  done
elif [ "${PLAN:-main}" = onepass ] || [ "${PLAN:-main}" = wide ]; then
  if [ "$PLAN" = onepass ]; then
    runs grid316-base ocl_sp_base "" 3 $G316
    runs grid316-new ocl_sp "" 3 $G316
    [ -d k_old ] && runs grid316-new-oldkernel ocl_sp "OCL_SP_KERNEL_DIR=$PWD/k_old" 3 $G316
  fi
  python3 -c "
k = ${SAMPLE:-3960}; n = 10**6
print('\n'.join(str((2 * i + 1) * n // (2 * k)) for i in range(k)))" > /tmp/sample.txt
  G1000="--generator grid --n 1000000 ${W1000:-} --algo sssp --device nvidia --sources @/tmp/sample.txt"
  tag=$(printf '%s' "${W1000:-}" | tr -c 'a-z0-9' '-')
  TO=280 one grid1000$tag-sample${SAMPLE:-3960}-new ocl_sp "" $G1000
  TO=280 one grid1000$tag-sample${SAMPLE:-3960}-base ocl_sp_base "" $G1000
  # WIDE_EXP=1: this binary again with the wide exponents in the records' masks
  [ "${WIDE_EXP:-0}" = 1 ] && TO=280 one grid1000$tag-sample${SAMPLE:-3960}-new-expmask ocl_sp \
    "OCL_SP_EXTRA_BUILD_OPTIONS=-DWIDE_EXP_IN_MASK=1" $G1000
elif [ "${PLAN:-main}" = exact ]; then
  tag=$(printf '%s' "${W1000:-}" | tr -c 'a-z0-9' '-')
  one grid10-warmup ocl_sp "" --generator grid --n 100 --algo sssp --device nvidia
  TO=${TO:-570} one grid1000$tag-exact ocl_sp "" --generator grid --n 1000000 ${W1000:-} --algo sssp --device nvidia
elif [ "${PLAN:-main}" = openmp ]; then
  python3 -c "
k = ${SAMPLE:-3960}; n = 10**6
print('\n'.join(str((2 * i + 1) * n // (2 * k)) for i in range(k)))" > /tmp/sample.txt
  tag=$(printf '%s' "${W1000:-}" | tr -c 'a-z0-9' '-')
  TO=280 one grid1000$tag-sample${SAMPLE:-3960}-openmp ocl_sp "" --generator grid --n 1000000 ${W1000:-} \
    --algo sssp --device openmp --sources @/tmp/sample.txt
  TO=280 one grid1000$tag-sample${SAMPLE:-3960}-h100 ocl_sp "" --generator grid --n 1000000 ${W1000:-} \
    --algo sssp --device nvidia --sources @/tmp/sample.txt
elif [ "${PLAN:-main}" = main ]; then
  runs grid316-base ocl_sp_base "" 3 $G316
  runs grid316-new ocl_sp "" 3 $G316
  for wg in 512 1024; do runs grid316-new-wg$wg ocl_sp "OCL_SP_BC_WG=$wg" 1 $G316; done
  runs grid316-new-nomask ocl_sp "OCL_SP_EXTRA_BUILD_OPTIONS=-DMASK_EDGES=0" 1 $G316
  # kernel variants beside the binary (OCL_SP_KERNEL_DIR: every kernel file)
  for k in k2 k3 k4; do [ -d $k ] && runs grid316-new-$k ocl_sp "OCL_SP_KERNEL_DIR=$PWD/$k" 1 $G316; done
else
  # BEST: the environment of the variant kept (e.g. OCL_SP_KERNEL_DIR=$PWD/k4)
  [ -n "${BEST:-}" ] && runs grid316-best ocl_sp "$BEST" 3 $G316
  for b in base new; do
    bin=ocl_sp; [ $b = base ] && bin=ocl_sp_base
    env=${BEST:-}; [ $b = base ] && env=""
    runs grid100-$b $bin "$env" 3 --generator grid --n 10000 --algo sssp --device nvidia
    runs random20-$b $bin "$env" 3 --n 10000 --degree 20 --algo sssp --device nvidia
  done
fi
python3 - <<'PY' >> $O/summary.txt
import json, os, statistics, collections
rs = [json.loads(l) for l in open(os.environ["OUT"] + "/betweenness.jsonl")]
by = collections.defaultdict(list)
for r in rs: by[r["label"]].append(r)
for l, v in by.items():
    w = [x["wall"] for x in v if x["wall"] is not None]
    bc = [round((x.get("kernel_seconds") or {}).get("bc_sources", -1), 3) for x in v]
    print(l, "rc", [x["rc"] for x in v], "wall median", statistics.median(w) if w else None, "walls", w,
          "bc_sources", bc, "md5", sorted(set(x["csv_md5"] for x in v if x["csv_md5"])))
PY
cat $O/summary.txt
