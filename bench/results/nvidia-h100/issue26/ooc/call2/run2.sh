#!/bin/bash
# issue 26 part 2, second H100 call: GEMM tiles trimmed to the real rows x columns
# (panel engine), n = 40 000 in core vs --device-memory 1600M (3 rounds), staging
# chunk count 4 (default) vs 3 / 2 (OCL_SP_STAGE_CHUNKS), bytes checked.
O=$OUT/r2; mkdir -p $O; D=$PWD/build-gpu-ooc; NEW=$D/ocl_sp
exec > >(tee $O/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export OCL_SP_CACHE_DIR=$(mktemp -d)
$NEW --device nvidia --n 3000 --quiet > /dev/null; $NEW --device nvidia --n 6003 --device-memory 40M --quiet > /dev/null
line() { python3 -c "
import json,sys
j=json.load(open(sys.argv[1])); print('%s: T_k %.3f s, solve %.3f s, idle %.3f s, gemm %.3f s | %s | %s' % (sys.argv[2], j['t_k'], j['solve'], j['copy_exposed'], j['kernel_seconds'].get('minplus_tiled_acc',0), j['placement'], '; '.join(j['device_lines'])))" "$@"; }
echo "== correctness: bytes, single buffer vs out of core"
for n in 6003; do
  $NEW --device nvidia --n $n --negative --output /tmp/s.bin --quiet > /dev/null
  $NEW --device nvidia --n $n --negative --device-memory $((n / 100))M --output /tmp/o.bin --json > $O/check$n.json
  line $O/check$n.json "n $n --negative"
  cmp /tmp/s.bin /tmp/o.bin && echo "cmp: identical" || echo "cmp: DIFFER"
done
echo "== n = 40 000: in core vs --device-memory 1600M"
for k in 1 2 3; do
  for v in incore ooc ooc-c3 ooc-c2; do
    [ $k = 3 ] && case $v in ooc-c*) continue;; esac; [ $k = 2 ] && [ $v = ooc-c2 ] && continue
    a="--device-memory 1600M"; c=""
    case $v in incore) a="";; ooc-c3) c=3;; ooc-c2) c=2;; esac
    OCL_SP_STAGE_CHUNKS=$c $NEW --device nvidia --n 40000 $a --json > $O/n40k_${v}_$k.json
    line $O/n40k_${v}_$k.json "$v $k"
  done
done
echo "done at ${SECONDS} s"
cd $OUT && tar czf r2.tgz r2
