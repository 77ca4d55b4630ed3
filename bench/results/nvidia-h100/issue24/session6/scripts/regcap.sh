# Issue 24 sixth session: sssp_lanes' registers capped (-cl-nv-maxrregcount): more groups resident.
B=build-gpu/ocl_sp; export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
$B --n 200 --algo sssp --device nvidia --quiet >/dev/null
for o in "" -cl-nv-maxrregcount=64 -cl-nv-maxrregcount=72; do OCL_SP_EXTRA_BUILD_OPTIONS="$o" $B --generator grid --n 10000 --algo sssp --device nvidia --stats /tmp/w.csv --quiet >/dev/null; done
one() { # LABEL N EXTRA [options]
  local label=$1 n=$2 x=$3; shift 3
  /usr/bin/time -f "%e s wall, %M KB peak" env OCL_SP_EXTRA_BUILD_OPTIONS="$x" $B --generator grid --n $n --algo sssp --device nvidia --stats /tmp/s.csv "$@" --json --quiet > $OUT/$label.json 2>/tmp/time.txt
  echo "[$label] $(tail -1 /tmp/time.txt); $(python3 -c "import json; r=json.load(open('$OUT/$label.json')); print('solve', round(r['solve'],3), 't_k', round(r['t_k'],3), 'launches', r['kernel_launches'], {k: round(v,3) for k,v in r['kernel_seconds'].items()}, r['placement'])") md5 $(md5sum /tmp/s.csv | cut -c1-12)"
}
for r in 1 2; do
  one s316_$r 100000 ""
  one s316_r64_$r 100000 -cl-nv-maxrregcount=64
  one s316_r72_$r 100000 -cl-nv-maxrregcount=72
done
one m_r64 1000000 -cl-nv-maxrregcount=64
one m_r72 1000000 -cl-nv-maxrregcount=72
PTXAS=$(command -v ptxas || ls /usr/local/cuda*/bin/ptxas | head -1)
for f in /tmp/ocl_sp_cache/*; do
  grep -q sssp_lanes "$f" || continue
  python3 - "$f" > /tmp/k.ptx <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
i = b.find(b'//\n// Generated'); i = i if i >= 0 else b.find(b'.version')
j = b.rfind(b'}')
sys.stdout.write(b[i:j + 1].decode('latin1') + "\n")
PY
  echo "== $f: $(grep -m3 'reqntid' /tmp/k.ptx | tr '\n' ' ')"
  $PTXAS -v --gpu-name sm_90 /tmp/k.ptx -o /dev/null 2>&1 | grep -A4 "Compiling entry function '.*sssp_lanes\b" | grep -E "entry|Used"
done
