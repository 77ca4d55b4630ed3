#!/bin/bash
# issue 26 part 2 (out-of-core look-ahead), one H100 call: correctness on the GPU
# (single buffer vs out of core bytes), n = 40 000 in core vs --device-memory 1600M
# (new binary, and main's as baseline), then n = 150 000 out of core once.
# Usage (device tool, repo root): bash build-gpu-ooc/run.sh   (writes under $OUT)
O=$OUT/r; mkdir -p $O; D=$PWD/build-gpu-ooc; NEW=$D/ocl_sp; OLD=$D/ocl_sp_main
exec > >(tee $O/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
grep -E "MemTotal|MemAvailable" /proc/meminfo; nproc
export OCL_SP_CACHE_DIR=$(mktemp -d)
for b in $NEW $OLD; do $b --device nvidia --n 3000 --quiet > /dev/null; $b --device nvidia --n 6003 --device-memory 40M --quiet > /dev/null; done
line() { python3 -c "
import json,sys
j=json.load(open(sys.argv[1])); print('%s: T_k %.3f s, solve %.3f s, idle %.3f s | %s | %s' % (sys.argv[2], j['t_k'], j['solve'], j['copy_exposed'], j['placement'], '; '.join(j['device_lines'])))" "$@"; }
echo "== correctness: bytes, single buffer vs out of core (new binary)"
$NEW --device nvidia --n 6003 --negative --output /tmp/s.bin --quiet > /dev/null
for sb in "" 3000000; do
  OCL_SP_STAGE_BYTES=$sb $NEW --device nvidia --n 6003 --negative --device-memory 40M --output /tmp/o.bin --json > $O/check$sb.json
  line $O/check$sb.json "n 6003 --negative 40M stage '$sb'"
  cmp /tmp/s.bin /tmp/o.bin && echo "cmp: identical" || echo "cmp: DIFFER"
done
$NEW --device nvidia --n 40000 --output /tmp/s40.bin --quiet > /dev/null
$NEW --device nvidia --n 40000 --device-memory 1600M --output /tmp/o40.bin --quiet > /dev/null
cmp /tmp/s40.bin /tmp/o40.bin && echo "cmp n 40000 single vs 1600M: identical" || echo "cmp n 40000: DIFFER"
rm -f /tmp/s40.bin /tmp/o40.bin
echo "== n = 40 000: in core vs --device-memory 1600M, 3 rounds"
for k in 1 2 3; do
  for v in new-incore new-ooc main-ooc main-incore; do
    [ $v = main-incore ] && [ $k != 2 ] && continue
    b=$NEW; case $v in main-*) b=$OLD;; esac
    a=""; case $v in *ooc) a="--device-memory 1600M";; esac
    $b --device nvidia --n 40000 $a --json > $O/n40k_${v}_$k.json
    line $O/n40k_${v}_$k.json "$v $k"
  done
done
echo "== progress line (tty), new out of core"
script -qec "$NEW --device nvidia --n 40000 --device-memory 1600M" /dev/null > $O/progress_tty.txt 2>&1 || true
tr '\r' '\n' < $O/progress_tty.txt | grep -E "idle|T_k|solve|fw," | tail -8
echo "== n = 150 000 out of core (elapsed ${SECONDS} s)"
left=$((575 - SECONDS))
timeout $left $NEW --device nvidia --n 150000 --host-memory 124G --json > $O/n150k.json; echo "rc $?"
line $O/n150k.json "n150k" || tail -c 600 $O/n150k.json
echo "done at ${SECONDS} s"
cd $OUT && tar czf r.tgz r
