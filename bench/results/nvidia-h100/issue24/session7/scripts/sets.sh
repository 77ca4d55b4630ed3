# Issue 24 seventh session: --stats launches taking two lane sets in turn on two
# queues (default) against one launch at a time (OCL_SP_LANE_SETS=1).
B=build-gpu/ocl_sp; export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
$B --n 200 --algo sssp --device nvidia --quiet >/dev/null
$B --generator grid --n 10000 --algo sssp --device nvidia --stats /tmp/w.csv --quiet >/dev/null
one() { # LABEL N SETS [options]
  local label=$1 n=$2 sets=$3; shift 3
  /usr/bin/time -f "%e s wall, %M KB peak" env OCL_SP_LANE_SETS=$sets OCL_SP_PROFILE=1 $B --generator grid --n $n --algo sssp --device nvidia --stats /tmp/s.csv "$@" --json --quiet > $OUT/$label.json 2>/tmp/time.txt
  grep -v "^[0-9.]* s wall" /tmp/time.txt > $OUT/$label.profile
  echo "[$label] $(tail -1 /tmp/time.txt); $(python3 -c "import json; r=json.load(open('$OUT/$label.json')); print('solve', round(r['solve'],3), 't_k', round(r['t_k'],3), {k: round(v,3) for k,v in r['kernel_seconds'].items()}, r['placement'])") md5 $(md5sum /tmp/s.csv | cut -c1-12)"
}
for r in 1 2; do
  one s316_sets2_$r 100000 2
  one s316_sets1_$r 100000 1
done
one m_sets2 1000000 2
one m_sets1 1000000 1
