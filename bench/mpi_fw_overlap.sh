#!/usr/bin/env bash
# The distributed fw's overlap (docs/performance/mpi.md "Four GPUs: the
# broadcasts' uploads behind the GEMMs"): R ranks, one GPU each (`mpirun -np R
# ocl_sp --device gpu`), two binaries side by side (BASE: before, NEW: after),
# against one process on one GPU (--device gpu) and over all (--device gpu:all)
# with BASE (the single-process solve is the same code in both). First the bytes
# (n = 5000, P = 640: both binaries' ranks against one process; this also warms
# the program cache), then the jobs of JOBS in order, each as long as LIMIT
# seconds (from the start) allow: NAME:N:REPS[:PANEL] (PANEL: --panel) with NAME one of one_gpu, gpu_all,
# ranks_base, ranks_new, ranks_new_pageable (NEW with OCL_SP_MPI_PINNED=0), ranks_new_sleep (NEW with
# OCL_SP_MPI_POLL=sleep: 50 us sleeps between polls while broadcasts are in flight), ranks_tcp
# (NEW with Open MPI's TCP transport forced, `--mca pml ob1 --mca btl tcp,self`: the
# stand-in for ranks on several hosts), ranks_cma (NEW with shared memory's single copy asked for,
# `--mca btl_vader_single_copy_mechanism cma`, where the host's environment turns it off), ranks_trace
# (NEW writing the rounds' trace, OCL_SP_MPI_TRACE, to OUT/NAME.RANK.tsv: bench/mpi_round_chain.py reads it),
# ranks_kKaA (NEW with the GEMMs in runs of K local panels, A launches queued ahead:
# OCL_SP_MPI_GEMM_PANELS=K OCL_SP_MPI_GEMM_AHEAD=A). Every
# JSON report and the job's wall time kept in OUT (then packed into OUT/runs.tgz:
# the device tool brings back only a few files).
# Usage (device tool, repo root): bash bench/mpi_fw_overlap.sh BASE NEW OUT [R] [LIMIT] JOBS...
#   e.g. ... 4 540 ranks_new:40000:3 ranks_base:40000:3 one_gpu:40000:3 gpu_all:40000:3
set -u
BASE=$1 NEW=$2 O=$3 R=${4:-4} LIMIT=${5:-540}
shift 5
MPI_EXTRA_X="-x OCL_SP_MPI_PINNED -x OCL_SP_MPI_POLL" . "$(dirname "$0")/mpi_common.sh"
START=$(date +%s)
export OCL_SP_MPI_PINNED=1 OCL_SP_MPI_POLL=yield
left() { echo $((LIMIT - ($(date +%s) - START))); }
"$BASE" --n 5000 --algo fw --device gpu --quiet --output "$O/one.bin" >/dev/null
$M "$NEW" --n 5000 --algo fw --device gpu --panel 640 --quiet --output "$O/new.bin" >/dev/null
$M "$BASE" --n 5000 --algo fw --device gpu --panel 640 --quiet --output "$O/base.bin" >/dev/null
cmp "$O/one.bin" "$O/new.bin" && echo "fw n = 5000: new ranks identical to one process" | tee -a "$O/wall.txt"
cmp "$O/one.bin" "$O/base.bin" && echo "fw n = 5000: base ranks identical to one process" | tee -a "$O/wall.txt"
rm -f "$O"/*.bin
for job in "$@"; do
  IFS=: read -r name n reps panel <<<"$job"
  F=(--n "$n" --algo fw --json)
  [ -n "${panel:-}" ] && F+=(--panel "$panel")
  for k in $(seq "$reps"); do
    # the longest single run seen so far must still fit
    [ "$(left)" -gt "$([ "$n" -gt 50000 ] && echo 90 || echo 20)" ] || { echo "$name n=$n run $k: out of time" | tee -a "$O/wall.txt"; continue; }
    case $name in
      one_gpu) timed "${name}_${n}${panel:+_p$panel}_$k" "$BASE" "${F[@]}" --device gpu --quiet ;;
      gpu_all) timed "${name}_${n}${panel:+_p$panel}_$k" "$BASE" "${F[@]}" --device gpu:all --quiet ;;
      ranks_base) timed "${name}_${n}${panel:+_p$panel}_$k" $M "$BASE" "${F[@]}" --device gpu ;;
      ranks_new) timed "${name}_${n}${panel:+_p$panel}_$k" $M "$NEW" "${F[@]}" --device gpu ;;
      ranks_tcp) timed "${name}_${n}${panel:+_p$panel}_$k" $M --mca pml ob1 --mca btl tcp,self "$NEW" "${F[@]}" --device gpu ;;
      ranks_trace) t="${name}_${n}${panel:+_p$panel}_$k" tag=$t i=1
        while [ -e "$O/$tag.json" ]; do i=$((i + 1)) tag=${t}_$i; done  # the name timed gives the run
        timed "$t" $M -x OCL_SP_MPI_TRACE="$O/$tag" "$NEW" "${F[@]}" --device gpu ;;
      ranks_cma) timed "${name}_${n}${panel:+_p$panel}_$k" $M --mca btl_vader_single_copy_mechanism cma "$NEW" "${F[@]}" --device gpu ;;
      ranks_new_sleep) OCL_SP_MPI_POLL=sleep timed "${name}_${n}${panel:+_p$panel}_$k" $M "$NEW" "${F[@]}" --device gpu ;;
      ranks_k*a*) [[ $name =~ ^ranks_k([0-9]+)a([0-9]+)$ ]] || { echo "unknown job $name"; continue; }
        OCL_SP_MPI_GEMM_PANELS=${BASH_REMATCH[1]} OCL_SP_MPI_GEMM_AHEAD=${BASH_REMATCH[2]} \
          timed "${name}_${n}${panel:+_p$panel}_$k" $M "$NEW" "${F[@]}" --device gpu ;;
      ranks_new_pageable) OCL_SP_MPI_PINNED=0 timed "${name}_${n}${panel:+_p$panel}_$k" $M "$NEW" "${F[@]}" --device gpu ;;
    esac
  done
done
echo "done after $(($(date +%s) - START)) s" | tee -a "$O/wall.txt"
(cd "$O" && tar czf runs.tgz $(ls *.json *.err *.tsv wall.txt device.txt 2>/dev/null) && rm -f *.json *.err *.tsv)
