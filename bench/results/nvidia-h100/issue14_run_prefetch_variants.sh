B=build-gpu/ocl_sp; E=bench/gpu_explore.sh; O=$1
export OCL_SP_CACHE_DIR=$(mktemp -d)
for X in "-cl-nv-maxrregcount 128" "-DSTAGE_PREFETCH -cl-nv-maxrregcount 128" "-DSTAGE_PREFETCH -cl-nv-maxrregcount 168"; do
  export OCL_SP_EXTRA_BUILD_OPTIONS="$X"; echo "== extra '$X'"
  OCL_SP_EXTRA_BUILD_OPTIONS="$X -cl-nv-verbose" OCL_SP_SHOW_BUILD_LOG=1 $B --device nvidia --n 3001 --verify 2>&1 | grep -E -A3 "entry function 'fw_tiled_phase3|verify" | grep -E "registers|spill|verify"
  OCL_SP_EXTRA_BUILD_OPTIONS="$X -cl-nv-verbose" OCL_SP_SHOW_BUILD_LOG=1 $B --device nvidia --n 3001 --algo squaring --verify 2>&1 | grep -E -A3 "entry function 'minplus_tiled_product|verify" | grep -E "registers|spill|verify"
  bash $E $B nvidia 10000 fw int32 5 "TILED=1 BLOCK=128 TM=8 TN=8 KC=32" "TILED=1 BLOCK=128 TM=8 TN=8 KC=16"
  bash $E $B nvidia 10000 squaring int32 3 "TILED=1 BLOCK=128 TM=8 TN=8 KC=32" "TILED=1 BLOCK=128 TM=8 TN=8 KC=16"
done
