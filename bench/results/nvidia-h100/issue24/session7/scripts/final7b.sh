# Issue 24 seventh session, final (2): the binary after the ASan fix (the sssp
# engine built on the main thread again; two lane sets, solver released beside
# the CSV, CSV on every core), --stats 1000 x 1000 x3.
B=build-gpu/ocl_sp; export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
$B --n 200 --algo sssp --device nvidia --quiet >/dev/null
$B --generator grid --n 10000 --algo sssp --device nvidia --stats /tmp/w.csv --quiet >/dev/null
$B --generator grid --n 10000 --algo sssp --device nvidia --stats /tmp/w.csv --param LANE_WG=256 --quiet >/dev/null
mkdir -p /tmp/r
one() { # LABEL N [options]
  local label=$1 n=$2; shift 2
  /usr/bin/time -f "%e s wall, %M KB peak" env OCL_SP_PROFILE=1 $B --generator grid --n $n --algo sssp --device nvidia "$@" --json --quiet > /tmp/r/$label.json 2>/tmp/r/$label.time
  echo "[$label] $(tail -1 /tmp/r/$label.time); $(python3 -c "import json; r=json.load(open('/tmp/r/$label.json')); print('solve', round(r['solve'],3), 'total', round(r['total'],3), 'wall', round(r['wall'],3), 't_k', round(r['t_k'],3), 't_h', round(r['t_h'],3), {k: round(v,3) for k,v in r['kernel_seconds'].items()}, r['placement'], r['program_cache'])")"
}
for r in 1 2 3; do one m_$r 1000000 --stats /tmp/s.csv; md5sum /tmp/s.csv; done
tar czf $OUT/final7b.tgz -C /tmp r
