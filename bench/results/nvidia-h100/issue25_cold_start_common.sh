# Shared set-up of issue25_cold_start.sh and issue25_cold_start_2.sh (sourced by
# both, which define env_of: variant -> environment): the device's ICD, the output
# folder and log, and cold VARIANT RUN: one `ocl_sp --device nvidia --n 10000`
# with empty caches (ours in a fresh folder, the driver's JIT cache off), its JSON
# report appended to $O/cold.jsonl; the first run's cache kept in /tmp/cache_VARIANT.
D=$(cd "$(dirname "$0")" && pwd)
B=$D/ocl_sp
O=${OUT:-/tmp/issue25_out}
mkdir -p "$O" /etc/OpenCL/vendors
[ -f /etc/OpenCL/vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
for l in libOpenCL.so.1 libgomp.so.1; do
  ldconfig -p | grep -q "$l" || export LD_LIBRARY_PATH=$D/lib
done
exec > >(tee "$O/log.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader

cold() {  # variant run
  local c
  c=$(mktemp -d)
  env ${env_of[$1]} CUDA_CACHE_DISABLE=1 OCL_SP_CACHE_DIR="$c" OCL_SP_PROFILE=1 \
    "$B" --device "${DEV:-nvidia}" --n "${N:-10000}" --json --quiet >"$O/j" 2>"$O/e"
  echo "{\"variant\":\"$1\",\"run\":$2,\"report\":$(cat "$O/j")}" >>"$O/cold.jsonl"
  grep "profile: program" "$O/e" | sed "s/^/  $1 #$2 /"
  # The first run of each variant keeps its cache entries: what the driver made.
  [ "$2" = 1 ] && cp -r "$c" "/tmp/cache_$1"
  rm -rf "$c"
}
