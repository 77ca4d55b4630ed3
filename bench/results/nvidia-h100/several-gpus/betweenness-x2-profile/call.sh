#!/usr/bin/env bash
# betweenness of the 316 x 316 grid on one GPU and on every GPU, profiled
set -u
cd "$(dirname "$0")"; C=$PWD
export LD_LIBRARY_PATH=$C OCL_SP_CACHE_DIR=/tmp/c
R=/tmp/r; mkdir -p $R
G="--generator grid --n 99856 --algo sssp"
./ocl_sp --device gpu:all --generator grid --n 10000 --algo sssp --stats /tmp/w.csv --betweenness --quiet
./ocl_sp --device nvidia --generator grid --n 10000 --algo sssp --stats /tmp/w.csv --betweenness --quiet
for v in one all; do
  dev=nvidia; [ $v = all ] && dev=gpu:all
  OCL_SP_PROFILE=1 timeout 60 ./ocl_sp --device $dev $G --stats $R/$v.csv --betweenness --json > $R/bc-$v.json 2> $R/bc-$v.err
  OCL_SP_PROFILE=1 timeout 60 ./ocl_sp --device $dev $G --stats $R/s-$v.csv --json > $R/stats-$v.json 2> $R/stats-$v.err
  OCL_SP_PROFILE=1 timeout 60 ./ocl_sp --device $dev $G --stats $R/k-$v.csv --betweenness --sources 0-9999 --json > $R/bck-$v.json 2> $R/bck-$v.err
done
md5sum $R/*.csv > $R/md5.txt; rm -f $R/*.csv
tar czf $OUT/r.tgz -C $R .
cat $R/md5.txt; grep -h -E "solve|T_k|betweenness|profile" $R/*.err | cut -c1-200 | head -80
