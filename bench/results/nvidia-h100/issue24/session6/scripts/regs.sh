# Issue 24 sixth session: registers of the driver's sssp_lanes (ptxas -v on the
# program cache's PTX), and the 10^6 grid with the largest batch memory holds.
B=build-gpu/ocl_sp; export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
$B --generator grid --n 10000 --algo sssp --device nvidia --stats /tmp/w.csv --quiet >/dev/null
one() { # LABEL N [options]
  local label=$1 n=$2; shift 2
  /usr/bin/time -f "%e s wall, %M KB peak" $B --generator grid --n $n --algo sssp --device nvidia --stats /tmp/s.csv "$@" --json --quiet > $OUT/$label.json 2>/tmp/time.txt
  echo "[$label] $(tail -1 /tmp/time.txt); $(python3 -c "import json; r=json.load(open('$OUT/$label.json')); print('solve', round(r['solve'],3), 't_k', round(r['t_k'],3), 'launches', r['kernel_launches'], {k: round(v,3) for k,v in r['kernel_seconds'].items()}, r['placement'])") md5 $(md5sum /tmp/s.csv | cut -c1-12)"
}
one m_batch16384 1000000 --param BATCH=16384
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
  echo "== $f: $(grep -m1 '^.target' /tmp/k.ptx) $(grep -o 'LANE_WG[^ ]*' /tmp/k.ptx | head -1)"
  grep -m3 "reqntid\|maxntid" /tmp/k.ptx
  $PTXAS -v --gpu-name sm_90 /tmp/k.ptx -o /dev/null 2>&1 | grep -A2 "Compiling entry function '.*sssp_lanes'" | head -6
done
