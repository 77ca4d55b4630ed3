#!/usr/bin/env bash
# device run 3: --stats bytes of geometric n = 100 000 on 1 / 2 / 4 GPUs (3 runs on 4) after the per-device lane_order scratch
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD
O=/tmp/o3; mkdir -p $O
./ocl_sp --version | sed -n 2p > $O/summary.txt
for d in one two four four2 four3; do
  case $d in one) a="--device nvidia"; e="";; two) a="--device gpu:all"; e="CUDA_VISIBLE_DEVICES=0,1";; *) a="--device gpu:all"; e="";; esac
  env $e ./ocl_sp --generator geometric --n 100000 --algo sssp $a --stats $O/geo_$d.csv --json > $O/geo_$d.json 2>$O/geo_$d.err; echo "$d rc $?" >> $O/summary.txt
  python3 -c "import json;r=json.load(open('$O/geo_$d.json'));print('$d solve',r['solve'],r['placement'])" >> $O/summary.txt 2>&1
done
md5sum $O/geo_*.csv >> $O/summary.txt
rm -f $O/geo_*.csv
tar czf $OUT/run3.tgz -C $O .
cp $O/summary.txt $OUT/
