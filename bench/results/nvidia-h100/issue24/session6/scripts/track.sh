# Issue 24 sixth session: the next split from candidates tracked as written
# (LANE_TRACK_MIN, default) against the far pile's min pass, and DELTA at 316.
B=build-gpu/ocl_sp; export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
$B --n 200 --algo sssp --device nvidia --quiet >/dev/null
for o in "" -DLANE_TRACK_MIN=0; do OCL_SP_EXTRA_BUILD_OPTIONS="$o" $B --generator grid --n 10000 --algo sssp --device nvidia --stats /tmp/w.csv --quiet >/dev/null; done
one() { # LABEL N EXTRA_BUILD [options]
  local label=$1 n=$2 x=$3; shift 3
  /usr/bin/time -f "%e s wall, %M KB peak" env OCL_SP_EXTRA_BUILD_OPTIONS="$x" $B --generator grid --n $n --algo sssp --device nvidia --stats /tmp/s.csv "$@" --json --quiet > $OUT/$label.json 2>/tmp/time.txt
  echo "[$label] $(tail -1 /tmp/time.txt); $(python3 -c "import json; r=json.load(open('$OUT/$label.json')); print('solve', round(r['solve'],3), 't_k', round(r['t_k'],3), {k: round(v,3) for k,v in r['kernel_seconds'].items()}, r['placement'])") md5 $(md5sum /tmp/s.csv | cut -c1-12)"
}
for r in 1 2 3; do
  one s316_track_$r 100000 ""
  one s316_pass_$r 100000 -DLANE_TRACK_MIN=0
done
one s316_d200 100000 "" --param DELTA=200
one s316_d800 100000 "" --param DELTA=800
one m_track 1000000 ""
one m_pass 1000000 -DLANE_TRACK_MIN=0
