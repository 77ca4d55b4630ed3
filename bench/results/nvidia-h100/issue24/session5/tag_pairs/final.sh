B=build-gpu/ocl_sp; export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
$B --n 200 --algo sssp --device nvidia --quiet >/dev/null
OCL_SP_KERNEL_DIR=$PWD/build-gpu/kernels_head $B --n 200 --algo sssp --device nvidia --quiet >/dev/null
one() { # LABEL KDIR N
  /usr/bin/time -f "%e s wall, %M KB peak" env ${2:+OCL_SP_KERNEL_DIR=$2} $B --generator grid --n $3 --algo sssp --device nvidia --stats /tmp/s.csv --json --quiet > $OUT/$1_$3_$4.json 2>/tmp/time.txt
  echo "[$1] n=$3 run $4: $(tail -1 /tmp/time.txt); $(python3 -c "import json; r=json.load(open('$OUT/$1_$3_$4.json')); print('total', r['total'], 't_k', r['t_k'], {k: round(v,3) for k,v in r['kernel_seconds'].items()}, r['placement'])")"; md5sum /tmp/s.csv | cut -c1-12; }
for r in 1 2; do one head $PWD/build-gpu/kernels_head 100000 $r; one new "" 100000 $r; done
one head $PWD/build-gpu/kernels_head 1000000 1
for r in 1 2 3; do one new "" 1000000 $r; done
