# Issue 24 sixth session, final: the defaults (blocks, __local set, far bits,
# tracked split, column runs), 3 runs of the 10^6 grid; BATCH variants.
B=build-gpu/ocl_sp; export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
$B --n 200 --algo sssp --device nvidia --quiet >/dev/null
$B --generator grid --n 10000 --algo sssp --device nvidia --stats /tmp/w.csv --quiet >/dev/null
one() { # LABEL N [options]
  local label=$1 n=$2; shift 2
  /usr/bin/time -f "%e s wall, %M KB peak" $B --generator grid --n $n --algo sssp --device nvidia --stats /tmp/s.csv "$@" --json --quiet > $OUT/$label.json 2>/tmp/time.txt
  echo "[$label] $(tail -1 /tmp/time.txt); $(python3 -c "import json; r=json.load(open('$OUT/$label.json')); print('solve', round(r['solve'],3), 't_k', round(r['t_k'],3), 'launches', r['kernel_launches'], {k: round(v,3) for k,v in r['kernel_seconds'].items()}, r['placement'])") md5 $(md5sum /tmp/s.csv | cut -c1-12)"
}
for r in 1 2; do
  one s316_$r 100000
  one s316_batch2w_$r 100000 --param BATCH=33792
done
for r in 1 2 3; do one m_$r 1000000; done
one m_batch10240 1000000 --param BATCH=10240
