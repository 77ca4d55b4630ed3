# Issue 24 sixth session: --stats with lanes groups as blocks (lane_order) against
# consecutive ids (OCL_SP_LANE_ORDER=ids), 316 x 316 and 1000 x 1000 grids.
B=build-gpu/ocl_sp; export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
$B --n 200 --algo sssp --device nvidia --quiet >/dev/null
$B --generator grid --n 10000 --algo sssp --device nvidia --stats /tmp/w.csv --quiet >/dev/null
$B --generator grid --n 10000 --algo sssp --device nvidia --stats /tmp/w.csv --param LANES=16 --quiet >/dev/null
one() { # LABEL N ENV [options]
  local label=$1 n=$2 env=$3; shift 3
  /usr/bin/time -f "%e s wall, %M KB peak" env $env $B --generator grid --n $n --algo sssp --device nvidia --stats /tmp/s.csv "$@" --json --quiet > $OUT/$label.json 2>/tmp/time.txt
  echo "[$label] $(tail -1 /tmp/time.txt); $(python3 -c "import json; r=json.load(open('$OUT/$label.json')); print('solve', round(r['solve'],3), 't_k', round(r['t_k'],3), {k: round(v,3) for k,v in r['kernel_seconds'].items()}, r['placement'])") md5 $(md5sum /tmp/s.csv | cut -c1-12)"
}
for r in 1 2; do
  one s316_ids_$r 100000 OCL_SP_LANE_ORDER=ids
  one s316_blocks_$r 100000 X=1
  one s316_blocks16_$r 100000 X=1 --param LANES=16
done
one m_blocks_1 1000000 X=1
one m_blocks16_1 1000000 X=1 --param LANES=16
one m_ids_1 1000000 OCL_SP_LANE_ORDER=ids
