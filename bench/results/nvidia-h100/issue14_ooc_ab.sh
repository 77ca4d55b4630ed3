# Out of core n = 40 000 (--device-memory 1600M): the panel GEMM's time with the
# binaries before this session (build-gpu-base, 85f59b5), after the two-level
# commit (build-gpu-old, dfcb9d4) and now (build-gpu). H100.
O=$1
export OCL_SP_CACHE_DIR=$(mktemp -d)
for b in build-gpu-base build-gpu-old build-gpu; do
  $b/ocl_sp --device nvidia --n 6000 --device-memory 60M > /dev/null 2>&1
  $b/ocl_sp --device nvidia --n 40000 --device-memory 1600M --json 2>/dev/null > $O/r.json
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(sys.argv[2], "solve %.2f t_k %.3f" % (r["solve"], r["t_k"]), {k: round(v,3) for k,v in r.get("kernel_seconds",{}).items()})' $O/r.json $b
done
