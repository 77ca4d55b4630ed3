#!/usr/bin/env bash
# Offline portability check of the OpenCL kernels for AMD and NVIDIA GPUs without
# their hardware or drivers: clang compiles every kernel x value type x tunable
# value exactly as the host builds it (common.cl + kernel file, OpenCL C 1.2, every
# extension disabled so double / subgroups / atom_* are refused) for
#   amdgcn-amd-amdhsa  gfx803 gfx906 gfx90a gfx1030   (ROCm-era AMD GPUs)
#   nvptx64-nvidia-nvcl                              (NVIDIA's OpenCL target)
# with -Wall -Werror (each tunable setting for NVPTX and one AMD GPU in turn, the
# defaults for all: targets_for below). Any error fails the test; a missing clang
# FAILS it too.
# Usage: compile_kernels.sh [KERNEL_DIR]    (env CLANG=/path/to/clang to choose)
set -uo pipefail

kdir="${1:-$(cd "$(dirname "$0")/../../kernels" && pwd)}"
if [ ! -f "$kdir/common.cl" ]; then
  echo "error: no common.cl in kernel folder '$kdir'" >&2
  exit 1
fi

clang="${CLANG:-}"
if [ -z "$clang" ]; then
  for c in clang-14 clang-15 clang-16 clang-17 clang-18 clang-19 clang; do
    if command -v "$c" >/dev/null 2>&1; then clang="$c"; break; fi
  done
fi
if [ -z "$clang" ] || ! command -v "$clang" >/dev/null 2>&1; then
  echo "error: clang not found: the offline AMD/NVIDIA kernel check needs clang 14 or newer" \
       "(apt install clang-14, or set CLANG=/path/to/clang); refusing to skip" >&2
  exit 1
fi
for t in amdgcn nvptx64; do
  if ! "$clang" -print-targets 2>/dev/null | grep -qw "$t"; then
    echo "error: $clang was built without the $t target; use a clang that has it (CLANG=...)" >&2
    exit 1
  fi
done

common=(-x cl -cl-std=CL1.2 -Xclang -finclude-default-header -Xclang -cl-ext=-all -Wall -Werror)
gfxs=(gfx803 gfx906 gfx90a gfx1030)
nvptx="-target nvptx64-nvidia-nvcl -S"  # -S: PTX text; there is no ptxas here
amd() { echo "-target amdgcn-amd-amdhsa -nogpulib -mcpu=$1 -c"; }
# Targets of one compile: each file's defaults for every AMD GPU and NVPTX; a
# tunable setting for NVPTX and one AMD GPU, the next one in turn (every setting
# reaches amdgcn, every GPU sees settings of every file; what a GPU accepts
# differs in registers and instructions, not in the OpenCL C). ALL_GFX=1: every
# setting for every GPU (1 062 compiles against 552: ~8 min on 2 cores).
turn=0
targets_for() {  # SETTING: sets `targets`
  targets=()
  if [ -z "$1" ] || [ "${ALL_GFX:-0}" = 1 ]; then
    for gfx in "${gfxs[@]}"; do targets+=("$(amd "$gfx")"); done
  else
    targets+=("$(amd "${gfxs[turn % ${#gfxs[@]}]}")")
    turn=$((turn + 1))
  fi
  targets+=("$nvptx")
}

# Tunable settings per kernel file ("" = the file's own defaults). Kernel files
# not listed are still compiled with their defaults.
declare -A tunables
tunables[minplus_square.cl]="WG=4 WG=8 WG=16 WG=32"
tunables[fw_naive.cl]="WG=4 WG=8 WG=16 WG=32"
fw=""
for b in 8 16 32 64; do for w in 1 2 4 8; do fw+=" BLOCK=$b,WPT=$w"; done; done
tunables[fw_blocked.cl]="$fw"
# Every value of every tiled tunable, each BLOCK with every TM x TN shape; KC
# rotates through its values (the full product would double the test's time).
tiled=""
kcs=(8 16 32)
i=0
for b in 32 64 128; do for tm in 4 8; do for tn in 4 8; do
  tiled+=" BLOCK=$b,TM=$tm,TN=$tn,KC=${kcs[i % 3]}"
  i=$((i + 1))
done; done; done
# Plus NVIDIA's configuration with the register prefetch of the product and the
# panel GEMM (STAGE_PREFETCH, on by FULL_UNROLL there), portable OpenCL C too.
tiled+=" BLOCK=128,TM=8,TN=8,KC=32,STAGE_PREFETCH"
# The staging ring (STAGES 2-4) with plain copies on every target, and NVIDIA's
# sm_80+ build of it (PTX cp.async in inline asm: the NVPTX target only).
tiled+=" BLOCK=128,TM=8,TN=8,KC=16,STAGES=2 BLOCK=64,TM=4,TN=8,KC=32,STAGES=3 BLOCK=128,TM=4,TN=4,KC=8,STAGES=2"
tiled+=" BLOCK=32,TM=4,TN=4,KC=8,STAGES=4"
tiled+=" BLOCK=128,TM=8,TN=8,KC=16,STAGES=2,FULL_UNROLL,NV_CP_ASYNC"
tiled+=" BLOCK=64,TM=4,TN=8,KC=16,STAGES=3,NV_CP_ASYNC BLOCK=32,TM=4,TN=4,KC=8,STAGES=4,NV_CP_ASYNC"
# The fw programs as the host builds them (cold start): the one kernel of
# the ring (ONE_FW_KERNEL; with cp.async on NVPTX) and, without the ring, each
# kernel a program of its own (FW_ONLY).
tiled+=" BLOCK=64,TM=4,TN=8,KC=16,STAGES=2,TILED_FW,ONE_FW_KERNEL"
tiled+=" BLOCK=128,TM=8,TN=8,KC=16,STAGES=2,TILED_FW,ONE_FW_KERNEL,FULL_UNROLL,NV_CP_ASYNC"
tiled+=" BLOCK=64,TM=4,TN=8,KC=16,TILED_FW,FW_ONLY=2 BLOCK=64,TM=4,TN=8,KC=16,TILED_FW,FW_ONLY=3"
tiled+=" BLOCK=64,TM=4,TN=8,KC=16,TILED_FW,FW_ONLY=4"
tunables[minplus_tiled.cl]="$tiled"
# Path kernels: every value of BLOCK, WPT and WG, each BLOCK with two WPTs (BLOCK=64
# is compiled although it runs only where four 64 x 64 tiles fit __local memory).
tunables[paths.cl]="BLOCK=8,WPT=1,WG=4 BLOCK=8,WPT=8,WG=8 BLOCK=16,WPT=2,WG=16 \
BLOCK=16,WPT=4,WG=32 BLOCK=32,WPT=1,WG=4 BLOCK=32,WPT=8,WG=8 BLOCK=64,WPT=4,WG=16 \
BLOCK=64,WPT=2,WG=32"
tunables[fw_paths_packed.cl]="WPT=4 WPT=8 WPT=16"  # 64 x 64 tiles fixed
tunables[paths_rebuild.cl]="WG=64,VW=32 WG=256,VW=32"
# CPU-shaped FW (TILED=2): every BLOCK the host takes (128 reads the column
# operand in place: one 64 KiB tile of __local memory, as on GPUs' limit).
tunables[fw_cpu.cl]="BLOCK=32 BLOCK=64 BLOCK=128"
# Files the host builds only for devices with cl_khr_fp64 (every value type).
declare -A fp64_only
fp64_only[betweenness.cl]=1
tunables[betweenness.cl]="BC_WG=64 BC_WG=256"
tunables[sssp.cl]="WG=32 WG=64,LANE_SET=12 WG=256 WG=1024,LANE_SET=10 WG=1024,NEAR_FAR_LOCAL_ROW WG=512,NEAR_FAR_ONLY"
# LANE_SET: the lanes' __local set; NEAR_FAR_LOCAL_ROW: sssp_near_far alone, each row in __local memory;
# NEAR_FAR_ONLY: the near-far kernels alone (renumbered searches in groups of their own size)
# Files the host builds after another one in the same program
# ("sssp.cl+sssp_pull.cl+sssp_figures.cl+sssp_order.cl").
declare -A appended
appended[sssp.cl]="sssp_pull.cl sssp_figures.cl sssp_order.cl"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

jobs_file="$work/jobs"
: >"$jobs_file"
n_kernels=0
for f in "$kdir"/*.cl; do
  name="$(basename "$f")"
  [ "$name" = common.cl ] && continue
  [[ " ${appended[*]} " == *" $name "* ]] && continue  # compiled with the file it follows
  n_kernels=$((n_kernels + 1))
  # Concatenated as the host does: common.cl, a newline, the kernel file (and the
  # files built after it).
  { cat "$kdir/common.cl"; echo; cat "$f"; for a in ${appended[$name]:-}; do echo; cat "$kdir/$a"; done; } >"$work/$name"
  [ -n "${tunables[$name]+x}" ] || echo "note: $name has no tunable list here; defaults only"
  for setting in "" ${tunables[$name]:-}; do
    defs=""
    for kv in ${setting//,/ }; do defs+=" -D$kv"; done
    targets_for "$setting"
    for type in VALUE_INT32 VALUE_FLOAT32; do
      for tgt in "${targets[@]}"; do
        [[ $setting == *NV_CP_ASYNC* && $tgt != *nvptx64* ]] && continue
        printf '%s\t%s\t%s\n' "$name" "-D$type$defs${fp64_only[$name]:+ -Xclang -cl-ext=+cl_khr_fp64}" "$tgt" >>"$jobs_file"
      done
    done
  done
  # The 64-bit types (--type int64 | float64): the defaults, the first two
  # settings and every cp.async one, with only the extensions the host requires
  # for them: cl_khr_fp64 for float64, 64-bit atomics for sssp (compare-and-swap
  # everywhere, atom_min where cl_khr_int64_extended_atomics is found). The packed
  # path keys are 32-bit: the host never builds that file for 64-bit types.
  [ "$name" = fw_paths_packed.cl ] && continue
  wide=("")
  k=0
  for setting in ${tunables[$name]:-}; do
    k=$((k + 1))
    if [ $k -le 2 ] || [[ $setting == *NV_CP_ASYNC* ]]; then wide+=("$setting"); fi
  done
  for setting in "${wide[@]}"; do
    targets_for "$setting"
    defs=""
    for kv in ${setting//,/ }; do defs+=" -D$kv"; done
    for type in VALUE_INT64 VALUE_FLOAT64; do
      ext=""
      [ $type = VALUE_FLOAT64 ] || [ -n "${fp64_only[$name]:-}" ] && ext="+cl_khr_fp64"
      variants=("")
      if [ "$name" = sssp.cl ]; then
        ext="${ext:+$ext,}+cl_khr_int64_base_atomics"
        variants=("" "-DHAVE_ATOM_MIN64")
      fi
      for v in "${variants[@]}"; do
        extra="$defs${v:+ $v}"
        [ -n "$v" ] && ext2="$ext,+cl_khr_int64_extended_atomics" || ext2="$ext"
        for tgt in "${targets[@]}"; do
          [[ $setting == *NV_CP_ASYNC* && $tgt != *nvptx64* ]] && continue
          # fw_cpu.cl is the CPU devices' family (TILED=2, never a GPU default): its
          # 16-wide 64-bit vectors exhaust amdgcn's registers at compile time.
          [[ $name == fw_cpu.cl && $tgt == *amdgcn* ]] && continue
          printf '%s\t%s\t%s\n' "$name" "-D$type$extra${ext2:+ -Xclang -cl-ext=$ext2}" "$tgt" \
            >>"$jobs_file"
        done
      done
    done
  done
done
if [ "$n_kernels" -eq 0 ]; then
  echo "error: no kernel files besides common.cl in '$kdir'" >&2
  exit 1
fi

compile_one() {  # name <TAB> defines <TAB> target flags
  local name defs tgt
  IFS=$'\t' read -r name defs tgt <<<"$1"
  # shellcheck disable=SC2086
  if ! out="$("$clang" "${common[@]}" $tgt $defs -o /dev/null "$work/$name" 2>&1)"; then
    printf 'FAILED: %s %s [%s]\n%s\n\n' "$name" "$defs" "$tgt" "$out" >"$work/fail.$BASHPID"
  fi
}
export -f compile_one
export clang work
export common_flags="${common[*]}"

total="$(wc -l <"$jobs_file")"
par="$(nproc 2>/dev/null || echo 2)"
# Arrays cannot be exported: rebuild `common` inside each worker from its string.
tr '\n' '\0' <"$jobs_file" |
  xargs -0 -P "$par" -n 1 bash -c 'read -r -a common <<<"$common_flags"; compile_one "$1"' _

failures=("$work"/fail.*)
if [ -e "${failures[0]}" ]; then
  cat "$work"/fail.*
  echo "error: $(ls "$work"/fail.* | wc -l) of $total kernel compilations failed ($clang)" >&2
  exit 1
fi
echo "ok: $total compilations ($n_kernels kernel files x value types x tunables x" \
     "${gfxs[*]} (in turn; ALL_GFX=${ALL_GFX:-0}) nvptx64) with $("$clang" --version | head -1)"
