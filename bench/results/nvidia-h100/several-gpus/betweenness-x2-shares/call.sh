#!/usr/bin/env bash
# betweenness of the 316 x 316 grid on one GPU and on both (3 runs each, profiled once), then fw n = 150 000 on both
set -u
cd "$(dirname "$0")"; C=$PWD
export LD_LIBRARY_PATH=$C OCL_SP_CACHE_DIR=/tmp/c
R=/tmp/r; mkdir -p $R
G="--generator grid --n 99856 --algo sssp"
./ocl_sp --device gpu:all --generator grid --n 10000 --algo sssp --stats /tmp/w.csv --betweenness --quiet
./ocl_sp --device nvidia --generator grid --n 10000 --algo sssp --stats /tmp/w.csv --betweenness --quiet
for rep in 1 2 3; do for v in one all; do
  dev=nvidia; [ $v = all ] && dev=gpu:all
  timeout 60 ./ocl_sp --device $dev $G --stats $R/$v.csv --betweenness --json > $R/bc-$v-$rep.json 2> $R/bc-$v-$rep.err
done; done
OCL_SP_PROFILE=1 timeout 60 ./ocl_sp --device gpu:all $G --stats $R/all.csv --betweenness --json > $R/bc-all-profile.json 2> $R/bc-all-profile.err
md5sum $R/*.csv > $R/md5.txt; rm -f $R/*.csv
for f in $R/bc-*.json; do python3 -c "
import json,sys; r=json.load(open('$f')); print('$(basename $f)', r['wall'], r['solve'], r['t_k'], round(r['kernel_seconds'].get('bc_sources',0),3), [x for x in r['notes'] if x.startswith('betweenness')])"; done > $R/summary.txt
printf -- "fw150k-2gpu\tCUDA_VISIBLE_DEVICES=0,1 OCL_SP_PROFILE=1\t--device gpu:all --n 150000 --host-memory ${HM:-220G}\n" > $R/runs.tsv
timeout ${TO:-330} bash $C/timed_runs.sh $C/ocl_sp $R $R/runs.tsv > $R/log.txt 2>&1
tar czf $OUT/r.tgz -C $R .
cat $R/md5.txt $R/summary.txt; cut -c1-300 $R/log.txt; cat $R/fw150k-2gpu.time
