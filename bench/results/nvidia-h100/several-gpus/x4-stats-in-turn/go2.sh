#!/usr/bin/env bash
# device run 2: --paths default route (n = 10 000 / 30 000, one GPU); --stats of the 1000 x 1000 grid on 4 GPUs; stats bytes on 1 / 2 / 4 GPUs (geometric n = 3000 and 100 000)
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD
O=/tmp/o2; mkdir -p $O
timeout 400 bash timed_runs.sh $PWD/ocl_sp $O runs2.tsv > $O/summary.txt 2>&1
for n in 3000 100000; do
  for d in one two four; do
    case $d in one) a="--device nvidia"; e="";; two) a="--device gpu:all"; e="CUDA_VISIBLE_DEVICES=0,1";; four) a="--device gpu:all"; e="";; esac
    env $e ./ocl_sp --generator geometric --n $n --algo sssp $a --stats $O/geo${n}_$d.csv --json > $O/geo${n}_$d.json 2>&1
  done
done
md5sum $O/geo*.csv /tmp/g4_*.csv > $O/stats_md5.txt 2>&1
cat $O/stats_md5.txt >> $O/summary.txt
rm -f $O/geo*.csv
tar czf $OUT/run2.tgz -C $O .
cp $O/summary.txt $OUT/
