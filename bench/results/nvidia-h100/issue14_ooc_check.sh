# Out of core n = 40 000 (--device-memory 1600M, P = 5120) after the two-level fw:
# T_k per kernel with the default, one queue, and one level in the panel closes. H100.
# Usage (device tool, repo root): bash bench/results/nvidia-h100/issue14_ooc_check.sh $OUT
O=$1; N=build-gpu/ocl_sp
export OCL_SP_CACHE_DIR=$(mktemp -d)
$N --device nvidia --n 6000 --device-memory 60M > /dev/null 2>&1   # build and cache the programs
for v in "default" "one-queue" "OUTER=1"; do
  case $v in
    default) env=""; p="";;
    one-queue) env="OCL_SP_FW_ONE_QUEUE=1"; p="";;
    OUTER=1) env=""; p="--param OUTER=1";;
  esac
  env $env $N --device nvidia --n 40000 --device-memory 1600M $p --json 2>/dev/null > $O/ooc_$v.json
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(sys.argv[2], "t_o %.2f solve %.2f t_k %.3f t_h %.3f" % (r["t_o"], r["solve"] if "solve" in r else r["wall"], r["t_k"], r["t_h"]), {k: round(v,3) for k,v in r.get("kernel_seconds",{}).items()})' $O/ooc_$v.json $v
done
