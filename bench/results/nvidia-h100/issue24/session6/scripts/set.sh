# Issue 24 sixth session: a round's queued heads in a __local set (LANE_SET)
# against global tags, and DELTA, with groups as blocks (316 x 316, then 10^6).
B=build-gpu/ocl_sp; export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache OCL_SP_KERNEL_DIR=$PWD/kernels
$B --n 200 --algo sssp --device nvidia --quiet >/dev/null
for o in "" -DLANE_SET=11 -DLANE_SET=12; do OCL_SP_EXTRA_BUILD_OPTIONS="$o" $B --generator grid --n 10000 --algo sssp --device nvidia --stats /tmp/w.csv --quiet >/dev/null; done
one() { # LABEL N EXTRA_BUILD [options]
  local label=$1 n=$2 x=$3; shift 3
  /usr/bin/time -f "%e s wall, %M KB peak" env OCL_SP_EXTRA_BUILD_OPTIONS="$x" $B --generator grid --n $n --algo sssp --device nvidia --stats /tmp/s.csv "$@" --json --quiet > $OUT/$label.json 2>/tmp/time.txt
  echo "[$label] $(tail -1 /tmp/time.txt); $(python3 -c "import json; r=json.load(open('$OUT/$label.json')); print('solve', round(r['solve'],3), 't_k', round(r['t_k'],3), {k: round(v,3) for k,v in r['kernel_seconds'].items()}, r['placement'])") md5 $(md5sum /tmp/s.csv | cut -c1-12)"
}
for r in 1 2; do
  one s316_base_$r 100000 ""
  one s316_set11_$r 100000 -DLANE_SET=11
  one s316_set12_$r 100000 -DLANE_SET=12
  one s316_d300_$r 100000 "" --param DELTA=300
  one s316_d550_$r 100000 "" --param DELTA=550
done
one m_set12 1000000 -DLANE_SET=12
one m_set11 1000000 -DLANE_SET=11
one m_base 1000000 ""
