#!/usr/bin/env bash
# device run 1: host threads (n = 10 000, default vs OMP_NUM_THREADS=16), paths routes, fw 1/2/4 GPUs, stats bytes 1 vs 4 GPUs
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD
O=/tmp/o; mkdir -p $O
{ nproc; nvidia-smi -L; lscpu | grep -E "Model name|Socket|NUMA node\(s\)|Thread\(s\)"; } > $O/host.txt 2>&1
timeout 500 bash timed_runs.sh $PWD/ocl_sp $O runs1.tsv > $O/summary.txt 2>&1
for d in nvidia gpu:all; do
  t=$(echo $d | tr ':' '_')
  ./ocl_sp --device $d --generator geometric --n 3000 --stats $O/stats_$t.csv --json > $O/stats_$t.json 2>&1
  OCL_SP_STATS_ON_HOST=1 ./ocl_sp --device $d --generator geometric --n 3000 --stats $O/stats_host_$t.csv > /dev/null 2>&1
done
./ocl_sp --backend openmp --generator geometric --n 3000 --stats $O/stats_openmp.csv > /dev/null 2>&1
md5sum $O/stats_*.csv > $O/stats_md5.txt
cat $O/stats_md5.txt >> $O/summary.txt
tar czf $OUT/run1.tgz -C $O .
cp $O/summary.txt $O/host.txt $OUT/
