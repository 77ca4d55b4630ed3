#!/usr/bin/env bash
# The largest dense solves of one host and betweenness on several GPUs: the calls
# behind bench/results/nvidia-h100/several-gpus/{fw-150k-x2,fw-150k-x2-scan,
# fw-200k-x4,fw-200k-x4-fill-variant,betweenness-x2,betweenness-x2-profile,
# betweenness-x2-shares}. Usage (device machine, OUT set; OCL_SP: the binary,
# default ./ocl_sp beside this script):
#   bench/gpus_fw_betweenness.sh big      fw n = 200 000 on GPUs 0-3 (HM: --host-memory, default 480G)
#   bench/gpus_fw_betweenness.sh two      fw n = 150 000 on GPUs 0-1, then the 316 x 316 grid's
#                                         --stats --betweenness: one GPU, gpu:all, mpirun -np 2
#                                         (and -np 4 on 4 GPUs), 3 rounds, the CSVs' md5
#   bench/gpus_fw_betweenness.sh profile  the grid profiled (OCL_SP_PROFILE=1) on one GPU and on
#                                         all: --stats --betweenness, --stats alone, a 10 000-source sample
#   bench/gpus_fw_betweenness.sh shares   the grid on one GPU and on all, 3 rounds and one profiled,
#                                         then fw n = 150 000 on GPUs 0-1 (no warm-up)
# Everything lands in a tar, OUT/r.tgz (the device tool returns at most 8 files).
set -u
C=$(cd "$(dirname "$0")" && pwd)
B=${OCL_SP:-$C/ocl_sp}
export OCL_SP_CACHE_DIR=${OCL_SP_CACHE_DIR:-/tmp/c}
R=$(mktemp -d)
{ nvidia-smi -L; nproc; free -g; } > "$R/host.txt" 2>&1
GRID=(--generator grid --n 99856 --algo sssp)
M=(timeout 120 mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH -x OCL_SP_CACHE_DIR)
warm_grid() {
  "$B" --device gpu:all --generator grid --n 10000 --algo sssp --stats /tmp/w.csv --betweenness --quiet
  "$B" --device nvidia --generator grid --n 10000 --algo sssp --stats /tmp/w.csv --betweenness --quiet
}
fw_runs() {  # LABEL GPUS N WARM: one fw run through timed_runs.sh (a warm-up first when WARM=1)
  local label=$1 gpus=$2 n=$3 warm=$4
  : > "$R/runs.tsv"
  [ "$warm" = 1 ] && printf -- "-\tCUDA_VISIBLE_DEVICES=%s\t--device gpu:all --n 20000\n" "$gpus" >> "$R/runs.tsv"
  printf -- "%s\tCUDA_VISIBLE_DEVICES=%s OCL_SP_PROFILE=1\t--device gpu:all --n %s --host-memory %s\n" \
    "$label" "$gpus" "$n" "${HM:-480G}" >> "$R/runs.tsv"
  timeout "${TO:-540}" bash "$C/timed_runs.sh" "$B" "$R" "$R/runs.tsv" > "$R/log.txt" 2>&1
}
case ${1:-} in
big) fw_runs fw200k-4gpu 0,1,2,3 200000 1 ;;
two)
  fw_runs fw150k-2gpu 0,1 150000 1
  "$B" --device nvidia --generator grid --n 10000 --algo sssp --stats /tmp/w.csv --betweenness --quiet
  vs="one all mpi2"; [ "$(nvidia-smi -L | wc -l)" -ge 4 ] && vs="$vs mpi4"
  for rep in 1 2 3; do
    for v in $vs; do
      t0=$(date +%s.%N)
      case $v in
        one) timeout 120 "$B" --device nvidia "${GRID[@]}" --stats "$R/bc-$v.csv" --betweenness --json --quiet ;;
        all) timeout 120 "$B" --device gpu:all "${GRID[@]}" --stats "$R/bc-$v.csv" --betweenness --json --quiet ;;
        mpi*) "${M[@]}" -np "${v#mpi}" "$B" --device gpu "${GRID[@]}" --stats "$R/bc-$v.csv" --betweenness --json --quiet ;;
      esac > "$R/bc-$v-$rep.json"
      rc=$?
      echo "$v $rep rc=$rc elapsed=$(python3 -c "import time; print(round(time.time() - $t0, 3))")" >> "$R/bc.txt"
    done
  done
  md5sum "$R"/bc-*.csv >> "$R/bc.txt" ;;
profile)
  warm_grid
  for v in one all; do
    dev=nvidia; [ $v = all ] && dev=gpu:all
    for what in "bc:--betweenness" "stats:" "bck:--betweenness --sources 0-9999"; do
      tag=${what%%:*}; more=${what#*:}
      # shellcheck disable=SC2086
      OCL_SP_PROFILE=1 timeout 60 "$B" --device $dev "${GRID[@]}" --stats "$R/$tag-$v.csv" $more --json \
        > "$R/$tag-$v.json" 2> "$R/$tag-$v.err"
    done
  done
  md5sum "$R"/*.csv > "$R/md5.txt" ;;
shares)
  warm_grid
  for rep in 1 2 3; do for v in one all; do
    dev=nvidia; [ $v = all ] && dev=gpu:all
    timeout 60 "$B" --device $dev "${GRID[@]}" --stats "$R/$v.csv" --betweenness --json > "$R/bc-$v-$rep.json" 2> "$R/bc-$v-$rep.err"
  done; done
  OCL_SP_PROFILE=1 timeout 60 "$B" --device gpu:all "${GRID[@]}" --stats "$R/all.csv" --betweenness --json \
    > "$R/bc-all-profile.json" 2> "$R/bc-all-profile.err"
  md5sum "$R"/*.csv > "$R/md5.txt"
  fw_runs fw150k-2gpu 0,1 150000 0 ;;
*) echo "usage: $0 big|two|profile|shares" >&2; exit 2 ;;
esac
rm -f "$R"/*.csv
tar czf "$OUT/r.tgz" -C "$R" .
