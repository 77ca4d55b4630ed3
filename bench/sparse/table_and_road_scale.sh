#!/usr/bin/env bash
# The sparse engine's table cases (T_k, medians of 3) and road-network scale
# (.gr read + CSR on 1 and all cores, old and new; 2^24 geometric generated and
# 100 rows to a file). Results to $OUT (the run's log on stdout).
# C: a folder with ocl_sp (Release), mk (bench/sparse/road_gr.cpp), rd and
# rd_base (bench/sparse/read_gr_csr.cpp linked against this and the baseline's
# libocl_sp_core.a):
#   g++ -O2 -o $C/mk bench/sparse/road_gr.cpp
#   g++ -O2 -std=c++17 -fopenmp -Ihost -Iinclude -Ibuild/generated \
#     bench/sparse/read_gr_csr.cpp build/libocl_sp_core.a -lOpenCL -o $C/rd
# Device tool: carry C; start with the nvidia ICD line.
set -uo pipefail
C=${C:-carry-sparse}; B=$C/ocl_sp
export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/device.txt
nproc >> $OUT/device.txt
$B --n 200 --algo sssp --device nvidia --quiet > /dev/null
$B --generator grid --n 2500 --algo sssp --device nvidia --stats /tmp/w.csv --quiet > /dev/null
one() {  # LABEL REPS OPTIONS...
  local l=$1 r=$2; shift 2
  for i in $(seq $r); do
    $B "$@" --algo sssp --device nvidia --json --quiet > $OUT/$l.$i.json 2> $OUT/$l.$i.err
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[2], 't_k', d['t_k'], 'solve', d['solve'], 'wall', d.get('wall'), 'type', d['type'])" $OUT/$l.$i.json $l
  done
}
one random20_10k 3 --generator random --degree 20 --n 10000
one grid316 3 --generator grid --n 100000
one geometric6_100k 3 --generator geometric --degree 6 --n 100000
one random20_100k 1 --generator random --degree 20 --n 100000
# Road-network scale: a 24 M vertex / 58 M arc .gr (arcs u -> u+1..64, weights 1..5000).
/usr/bin/time -f "mk %e s" $C/mk 23947347 58333344 /tmp/usa.gr
ls -la /tmp/usa.gr
for t in 16 1; do OMP_NUM_THREADS=$t /usr/bin/time -f "rd $t threads %e s %M KB" $C/rd /tmp/usa.gr; done
OMP_NUM_THREADS=16 /usr/bin/time -f "rd_base 16 threads %e s %M KB" $C/rd_base /tmp/usa.gr
OMP_NUM_THREADS=16 /usr/bin/time -f "rd 16 threads (again) %e s %M KB" $C/rd /tmp/usa.gr
rm -f /tmp/usa.gr
# 2^24 geometric (weights 1:30 keep int32 exact): generated, 100 rows to a file.
OCL_SP_PROFILE=1 /usr/bin/time -f "geometric 2^24 rows %e s %M KB" $B --generator geometric --n 16777216 --weights 1:30 \
  --algo sssp --device nvidia --sources 0-99 --output /tmp/rows.bin --json > $OUT/geo24_rows.json 2> $OUT/geo24_rows.err
tail -12 $OUT/geo24_rows.err
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('geo24 rows', {k: d.get(k) for k in ('n','edges','type','t_k','t_h','solve','total','wall','kernel_seconds','notes')})" $OUT/geo24_rows.json
ls -la /tmp/rows.bin; rm -f /tmp/rows.bin
df -h /tmp | tail -1
