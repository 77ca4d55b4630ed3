#!/usr/bin/env bash
# The host's side of the largest solves and of paths, on a 4-GPU host: the calls
# behind bench/results/nvidia-h100/several-gpus/{matrix-fill-x4,ooc-x4} and
# paths/via-alone/. Usage (device machine, OUT set; OCL_SP: the binary, default
# ./ocl_sp beside this script; MATRIX_FILL: bench/floor/matrix_fill built with
# g++ -O2 -fopenmp, default ./matrix_fill beside it):
#   bench/host_side_run.sh fill   matrix_fill 64 GiB on 16 and on 64 threads (NOFILL=1: not), then the
#                                 generator's n = GEN_N (200 000) matrix (OpenMP backend, the run cut
#                                 once the graph is made) in the default order and with
#                                 OCL_SP_MATRIX_FILL=assign and with OCL_SP_HOST_THREADS=64,
#                                 GEN_REPS (2) times each, interleaved
#   bench/host_side_run.sh genctx the generator's n = GEN_N matrix alone (OpenMP backend) against the
#                                 same beside the contexts of --device gpu:all, GEN_REPS (2) times each,
#                                 interleaved, then gpu:all with OMP_NUM_THREADS=16
#   bench/host_side_run.sh paths  GPU 0: fw distances against --paths at n = 10 000 (3 rounds),
#                                 30 000 (2) and 50 000 (1), interleaved, after warm-ups
#   bench/host_side_run.sh ooc    fw n = 100 000 on every GPU: resident, then out of core on
#                                 all of them (--device-memory 8G), then the 316 x 316 grid's
#                                 --stats --betweenness on one GPU and under mpirun -np 2
#                                 (GPUs 0-1), 3 rounds, the CSVs' md5
#   bench/host_side_run.sh mpistats the grid's --stats --betweenness profiled (OCL_SP_PROFILE=1):
#                                 one process on GPU 0, mpirun -np 1 and -np 2 (GPUs 0-1), and
#                                 -np 2 with --stats alone
# Everything lands in a tar, OUT/MODE.tgz (the device tool returns at most 8 files).
set -u
C=$(cd "$(dirname "$0")" && pwd)
B=${OCL_SP:-$C/ocl_sp}
F=${MATRIX_FILL:-$C/matrix_fill}
export OCL_SP_CACHE_DIR=${OCL_SP_CACHE_DIR:-/tmp/c}
R=$(mktemp -d)
{ nvidia-smi -L; nproc; free -g; cat /sys/kernel/mm/transparent_hugepage/enabled; lscpu | grep -E "Model name|Socket|NUMA node\(s\)"; } > "$R/host.txt" 2>&1
timed() {  # LABEL ENV ARGS: one line through timed_runs.sh into $R/runs.tsv and $R/log.txt
  printf -- "%s\t%s\t%s\n" "$1" "$2" "$3" > "$R/one.tsv"
  cat "$R/one.tsv" >> "$R/runs.tsv"
  timeout "${TO:-300}" bash "$C/timed_runs.sh" "$B" "$R" "$R/one.tsv" >> "$R/log.txt" 2>&1
}
gen_only() {  # LABEL ENV [DEVICE ARGS]: the n = GEN_N matrix made (default --backend openmp), the
  # run cut (SIGKILL) after the graph's profile line
  local label=$1 env=$2 dev=${3:---backend openmp} t0 pid
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  env OCL_SP_PROFILE=1 $env "$B" $dev --n "${GEN_N:-200000}" --host-memory "${HM:-480G}" \
    > /dev/null 2> "$R/$label.err" &
  pid=$!  # env execs ocl_sp: this is its pid
  for _ in $(seq 1 600); do
    if ! kill -0 $pid 2>/dev/null || grep -q "profile: graph" "$R/$label.err"; then break; fi
    sleep 0.2
  done
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  echo "$label $env $(grep "profile: graph" "$R/$label.err") elapsed=$(python3 -c "import time; print(round(time.time() - $t0, 3))")" >> "$R/gen.txt"
}
case ${1:-} in
fill)
  if [ -z "${NOFILL:-}" ]; then
    "$F" 64 16 > "$R/matrix_fill.jsonl"
    "$F" 64 64 >> "$R/matrix_fill.jsonl"
  fi
  for rep in $(seq 1 "${GEN_REPS:-2}"); do
    gen_only "gen-default-$rep" ""
    gen_only "gen-assign-$rep" "OCL_SP_MATRIX_FILL=assign"
    gen_only "gen-threads64-$rep" "OCL_SP_HOST_THREADS=64"
  done ;;
genctx)
  "$B" --device gpu:all --n 20000 > /dev/null 2>&1  # the program cache warm
  for rep in $(seq 1 "${GEN_REPS:-2}"); do
    gen_only "gen-openmp-$rep" ""
    gen_only "gen-gpuall-$rep" "" "--device gpu:all"
  done
  gen_only "gen-gpuall-omp16" "OMP_NUM_THREADS=16" "--device gpu:all" ;;
paths)
  export CUDA_VISIBLE_DEVICES=0
  for n in 10000 30000; do timed - - "--device nvidia --n $n --paths"; done
  for rep in 1 2 3; do
    for n in 10000 30000 50000; do
      { [ $n = 30000 ] && [ $rep = 3 ]; } && continue
      { [ $n = 50000 ] && [ $rep != 1 ]; } && continue
      timed "dist-$n-$rep" - "--device nvidia --n $n"
      timed "paths-$n-$rep" OCL_SP_PROFILE=1 "--device nvidia --n $n --paths"
    done
  done ;;
ooc)
  CUDA_VISIBLE_DEVICES=$(seq -s, 0 $(($(nvidia-smi -L | wc -l) - 1)))
  export CUDA_VISIBLE_DEVICES
  timed - - "--device gpu:all --n 20000"
  timed fw100k-resident OCL_SP_PROFILE=1 "--device gpu:all --n 100000"
  timed fw100k-ooc-8g OCL_SP_PROFILE=1 "--device gpu:all --n 100000 --device-memory 8G"
  GRID=(--generator grid --n 99856 --algo sssp --stats)
  M=(timeout 120 mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH -x OCL_SP_CACHE_DIR -x CUDA_VISIBLE_DEVICES)
  export CUDA_VISIBLE_DEVICES=0,1
  "$B" --device nvidia --generator grid --n 10000 --algo sssp --stats /tmp/w.csv --betweenness --quiet
  for rep in 1 2 3; do
    for v in one mpi2; do
      t0=$(date +%s.%N)
      case $v in
        one) timeout 120 "$B" --device nvidia "${GRID[@]}" "$R/bc-$v.csv" --betweenness --json ;;
        mpi2) "${M[@]}" -np 2 "$B" --device gpu "${GRID[@]}" "$R/bc-$v.csv" --betweenness --json ;;
      esac > "$R/bc-$v-$rep.json" 2> "$R/bc-$v-$rep.err"
      rc=$?
      echo "$v $rep rc=$rc elapsed=$(python3 -c "import time; print(round(time.time() - $t0, 3))")" >> "$R/bc.txt"
    done
  done
  md5sum "$R"/bc-*.csv >> "$R/bc.txt" ;;
mpistats)
  export CUDA_VISIBLE_DEVICES=0,1
  G=(--generator grid --n 99856 --algo sssp --stats)
  M=(timeout 120 mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH -x OCL_SP_CACHE_DIR -x CUDA_VISIBLE_DEVICES -x OCL_SP_PROFILE)
  "$B" --device nvidia --generator grid --n 10000 --algo sssp --stats /tmp/w.csv --betweenness --quiet
  export OCL_SP_PROFILE=1
  for v in one np1 np2 np2-stats; do
    case $v in
      one) timeout 120 "$B" --device nvidia "${G[@]}" "$R/$v.csv" --betweenness --json ;;
      np1) "${M[@]}" -np 1 "$B" --device gpu "${G[@]}" "$R/$v.csv" --betweenness --json ;;
      np2) "${M[@]}" -np 2 "$B" --device gpu "${G[@]}" "$R/$v.csv" --betweenness --json ;;
      np2-stats) "${M[@]}" -np 2 "$B" --device gpu "${G[@]}" "$R/$v.csv" --json ;;
    esac > "$R/$v.json" 2> "$R/$v.err" < /dev/null
    echo "$v rc=$?" >> "$R/rc.txt"
  done
  md5sum "$R"/*.csv >> "$R/rc.txt" ;;
*) echo "usage: $0 fill|genctx|paths|ooc|mpistats" >&2; exit 2 ;;
esac
rm -f "$R"/*.csv "$R/one.tsv"
tar czf "$OUT/${1}.tgz" -C "$R" .
