# Issue 24 seventh session: two lane sets (default) x3, one set, LANE_WG=128 with
# two sets; host phases (OCL_SP_PROFILE) of each; the CSV written on all cores.
B=build-gpu/ocl_sp; export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
$B --n 200 --algo sssp --device nvidia --quiet >/dev/null
$B --generator grid --n 10000 --algo sssp --device nvidia --stats /tmp/w.csv --quiet >/dev/null
$B --generator grid --n 10000 --algo sssp --device nvidia --stats /tmp/w.csv --param LANE_WG=256 --quiet >/dev/null
mkdir -p /tmp/r
one() { # LABEL N SETS [options]
  local label=$1 n=$2 sets=$3; shift 3
  /usr/bin/time -f "%e s wall, %M KB peak" env OCL_SP_LANE_SETS=$sets OCL_SP_PROFILE=1 $B --generator grid --n $n --algo sssp --device nvidia --stats /tmp/s.csv "$@" --json --quiet > /tmp/r/$label.json 2>/tmp/r/$label.time
  echo "[$label] $(tail -1 /tmp/r/$label.time); $(python3 -c "import json; r=json.load(open('/tmp/r/$label.json')); print('solve', round(r['solve'],3), 'total', round(r['total'],3), 'wall', round(r['wall'],3), 't_k', round(r['t_k'],3), {k: round(v,3) for k,v in r['kernel_seconds'].items()}, r['params'], r['program_cache'])") md5 $(md5sum /tmp/s.csv | cut -c1-12)"
}
one s316_sets2 100000 2
for r in 1 2 3; do one m_sets2_$r 1000000 2; done
one m_sets1 1000000 1
one m_sets2_wg128 1000000 2 --param LANE_WG=128
tar czf $OUT/sets3.tgz -C /tmp r
