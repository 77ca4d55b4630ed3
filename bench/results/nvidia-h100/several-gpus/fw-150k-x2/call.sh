#!/usr/bin/env bash
# x4 calls: big = fw n=200000 on 4 GPUs; two = fw n=150000 on 2 GPUs + betweenness under mpirun
set -u
cd "$(dirname "$0")"; C=$PWD
export LD_LIBRARY_PATH=$C OCL_SP_CACHE_DIR=/tmp/c
R=/tmp/r; mkdir -p $R
{ nvidia-smi -L; nproc; free -g; cat /sys/fs/cgroup/memory.max 2>/dev/null; } > $R/host.txt
case $1 in
big)
  printf -- "-\tCUDA_VISIBLE_DEVICES=0,1,2,3\t--device gpu:all --n 20000\nfw200k-4gpu\tCUDA_VISIBLE_DEVICES=0,1,2,3 OCL_SP_PROFILE=1\t--device gpu:all --n 200000 --host-memory ${HM:-480G}\n" > $R/runs.tsv
  timeout ${TO:-540} bash $C/timed_runs.sh $C/ocl_sp $R $R/runs.tsv > $R/log.txt 2>&1 ;;
two)
  printf -- "-\tCUDA_VISIBLE_DEVICES=0,1\t--device gpu:all --n 20000\nfw150k-2gpu\tCUDA_VISIBLE_DEVICES=0,1 OCL_SP_PROFILE=1\t--device gpu:all --n 150000 --host-memory ${HM:-480G}\n" > $R/runs.tsv
  timeout ${TO:-330} bash $C/timed_runs.sh $C/ocl_sp $R $R/runs.tsv > $R/log.txt 2>&1
  G="--generator grid --n 99856 --algo sssp --stats"
  M="timeout 120 /usr/bin/mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH -x OCL_SP_CACHE_DIR"
  ./ocl_sp --device nvidia --generator grid --n 10000 --algo sssp --stats /tmp/w.csv --betweenness --quiet
  for rep in 1 2 3; do
    vs="one all mpi2"; [ "$(nvidia-smi -L | wc -l)" -ge 4 ] && vs="$vs mpi4"
    for v in $vs; do
      t0=$(date +%s.%N)
      case $v in
        one) timeout 120 ./ocl_sp --device nvidia $G $R/bc-$v.csv --betweenness --json --quiet > $R/bc-$v-$rep.json ;;
        all) timeout 120 ./ocl_sp --device gpu:all $G $R/bc-$v.csv --betweenness --json --quiet > $R/bc-$v-$rep.json ;;
        mpi4) $M -np 4 ./ocl_sp --device gpu $G $R/bc-$v.csv --betweenness --json --quiet > $R/bc-$v-$rep.json ;;
        mpi2) $M -np 2 ./ocl_sp --device gpu $G $R/bc-$v.csv --betweenness --json --quiet > $R/bc-$v-$rep.json ;;
      esac
      rc=$?; echo "$v $rep rc=$rc elapsed=$(python3 -c "import time; print(round(time.time() - $t0, 3))")" >> $R/bc.txt
    done
  done
  md5sum $R/bc-*.csv >> $R/bc.txt; rm -f $R/bc-*.csv ;;
esac
tar czf $OUT/r.tgz -C $R .
cat $R/log.txt $R/bc.txt 2>/dev/null | cut -c1-400
