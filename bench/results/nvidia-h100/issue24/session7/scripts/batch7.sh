# Issue 24 seventh session: smaller launches with two lane sets (BATCH=2048: 256
# groups a set, about the 264 groups of 256 the H100's registers allow at once;
# BATCH=1024: 128), against the default (528 a set) in the same call.
B=build-gpu/ocl_sp; export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
$B --n 200 --algo sssp --device nvidia --quiet >/dev/null
$B --generator grid --n 10000 --algo sssp --device nvidia --stats /tmp/w.csv --param LANE_WG=256 --quiet >/dev/null
mkdir -p /tmp/r
one() { # LABEL N [options]
  local label=$1 n=$2; shift 2
  /usr/bin/time -f "%e s wall, %M KB peak" $B --generator grid --n $n --algo sssp --device nvidia "$@" --json --quiet > /tmp/r/$label.json 2>/tmp/r/$label.time
  echo "[$label] $(tail -1 /tmp/r/$label.time); $(python3 -c "import json; r=json.load(open('/tmp/r/$label.json')); print('solve', round(r['solve'],3), 'wall', round(r['wall'],3), 't_k', round(r['t_k'],3), r['kernel_launches'])") $(md5sum /tmp/s.csv | cut -c1-12)"
}
one m_b2048_1 1000000 --stats /tmp/s.csv --param BATCH=2048
one m_default 1000000 --stats /tmp/s.csv
one m_b1024 1000000 --stats /tmp/s.csv --param BATCH=1024
one m_b2048_2 1000000 --stats /tmp/s.csv --param BATCH=2048
tar czf $OUT/batch7.tgz -C /tmp r
