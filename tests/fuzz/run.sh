#!/usr/bin/env bash
# Builds the libFuzzer harnesses (tests/fuzz/*.cpp) with clang into build-fuzz/
# and runs each for FUZZ_SECONDS (default 30) on a copy of its seed corpus
# (tests/fuzz/corpus/<reader>/), after replaying every saved regression input
# (tests/fuzz/regressions/<reader>/*). Exits 1 on any finding — crash, sanitizer
# report, broken reader contract, hang (> 10 s on one input), an allocation over
# 256 MiB or RSS over 2 GiB — and prints the input that caused it (saved under
# build-fuzz/artifacts/<reader>/; add it to tests/fuzz/regressions/<reader>/ and a
# doctest case once fixed).
# Environment: FUZZ_SECONDS (per fuzzer), FUZZ_PARALLEL (fuzzers at a time,
# default 2), FUZZERS (space-separated subset, e.g. "read_gr tuning_store"),
# CXX (a clang++, default clang++), BUILD_DIR (default build-fuzz).
# Usage: bash tests/fuzz/run.sh    (from anywhere)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
SECONDS_EACH=${FUZZ_SECONDS:-30}
PARALLEL=${FUZZ_PARALLEL:-2}
CXX_BIN=${CXX:-clang++}
BUILD=${BUILD_DIR:-build-fuzz}
ALL="read_bin read_gr read_mtx read_edges tuning_store program_cache"
FUZZERS=${FUZZERS:-$ALL}

# libFuzzer and the sanitizer runtimes ship in Debian's libclang-rt-N-dev, and
# clang's OpenMP (the build finds OpenMP) in libomp-N-dev, which a plain
# `apt-get install --no-install-recommends clang` leaves out (a fresh machine).
probe() {
  local d
  d=$(mktemp -d)
  printf '#include <cstddef>\n#include <cstdint>\nextern "C" int LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }\n' >"$d/p.cpp"
  "$CXX_BIN" -fsanitize=fuzzer,address,undefined "$d/p.cpp" -o "$d/p" >/dev/null 2>&1
  local rc=$?
  rm -rf "$d"
  return $rc
}
if ! command -v "$CXX_BIN" >/dev/null; then
  echo "fuzz: $CXX_BIN not found (install clang, or set CXX to a clang++)" >&2
  exit 1
fi
probe_omp() {
  local d
  d=$(mktemp -d)
  printf '#include <omp.h>\nint main() { return omp_get_max_threads() > 0 ? 0 : 1; }\n' >"$d/o.cpp"
  "$CXX_BIN" -fopenmp "$d/o.cpp" -o "$d/o" >/dev/null 2>&1
  local rc=$?
  rm -rf "$d"
  return $rc
}
ver=$("$CXX_BIN" -dumpversion | cut -d. -f1)
missing=()
probe || missing+=("libclang-rt-$ver-dev")
probe_omp || missing+=("libomp-$ver-dev")
if ((${#missing[@]})); then
  echo "fuzz: $CXX_BIN cannot build a libFuzzer target with OpenMP; installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
  probe || { echo "fuzz: $CXX_BIN still cannot build a libFuzzer target" >&2; exit 1; }
  probe_omp || { echo "fuzz: $CXX_BIN still cannot build with -fopenmp" >&2; exit 1; }
fi

CONFIG=(-DCMAKE_CXX_COMPILER="$(command -v "$CXX_BIN")" -DCMAKE_BUILD_TYPE=RelWithDebInfo
        -DOCL_SP_FUZZ=ON -DOCL_SP_BUILD_TESTS=OFF -DOCL_SP_PYTHON=OFF)
# Another compiler in an existing cache makes CMake drop the cache and every -D
# with it: start afresh when the settings change.
if [ "$(cat "$BUILD/.fuzz-config" 2>/dev/null)" != "${CONFIG[*]}" ]; then rm -rf "$BUILD"; fi
cmake -S . -B "$BUILD" "${CONFIG[@]}" >/dev/null
echo "${CONFIG[*]}" >"$BUILD/.fuzz-config"
cmake --build "$BUILD" --target fuzzers -j"${BUILD_JOBS:-2}"

# One fuzzer: replay the regressions, then fuzz; the log goes to $BUILD/logs/NAME.log.
run_one() {
  local name=$1 exe="$BUILD/tests/fuzz/fuzz_$1" reader=${1#read_}
  local seeds="tests/fuzz/corpus/$reader" work="$BUILD/corpus/$reader" art="$BUILD/artifacts/$reader/"
  local log="$BUILD/logs/$name.log" dict=()
  mkdir -p "$work" "$art" "$BUILD/logs"
  [ -f "tests/fuzz/$reader.dict" ] && dict=(-dict="tests/fuzz/$reader.dict")
  local opts=(-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=256 -artifact_prefix="$art"
              -print_final_stats=1 "${dict[@]}")
  : >"$log"
  local reg="tests/fuzz/regressions/$reader"
  if [ -d "$reg" ] && [ -n "$(ls -A "$reg")" ]; then
    if ! "$exe" "${opts[@]}" "$reg"/* >>"$log" 2>&1; then
      echo "FAIL $name: a saved regression input fails again (log $log)"
      return 1
    fi
  fi
  if ! "$exe" "${opts[@]}" -max_total_time="$SECONDS_EACH" "$work" "$seeds" >>"$log" 2>&1; then
    echo "FAIL $name: finding after fuzzing (log $log)"
    grep -E "^(==[0-9]+==ERROR|FUZZ FINDING|SUMMARY|.*runtime error|artifact_prefix|Test unit written)" "$log" | head -8 | sed 's/^/  /'
    local a
    for a in "$art"*; do
      [ -f "$a" ] || continue
      echo "  input $a ($(stat -c %s "$a") bytes):"
      head -c 512 "$a" | od -A d -c | head -12 | sed 's/^/    /'
    done
    return 1
  fi
  local runs cov
  runs=$(grep -Eo "stat::number_of_executed_units: [0-9]+" "$log" | tail -1 | grep -Eo "[0-9]+$" || echo "?")
  cov=$(grep -Eo "cov: [0-9]+ ft: [0-9]+" "$log" | tail -1 || echo "?")
  echo "ok   $name: $runs inputs in ${SECONDS_EACH}s, $cov, corpus $(ls "$work" | wc -l)"
}

failed=0
pids=() names=()
for f in $FUZZERS; do
  case " $ALL " in *" $f "*) ;; *) echo "fuzz: unknown fuzzer '$f' (have: $ALL)" >&2; exit 2 ;; esac
  run_one "$f" &
  pids+=($!)
  names+=("$f")
  if [ "${#pids[@]}" -ge "$PARALLEL" ]; then
    wait "${pids[0]}" || failed=$((failed + 1))
    pids=("${pids[@]:1}")
  fi
done
for p in "${pids[@]}"; do wait "$p" || failed=$((failed + 1)); done
if [ "$failed" -ne 0 ]; then
  echo "fuzz: $failed fuzzer(s) found a problem"
  exit 1
fi
echo "fuzz: every reader clean (${SECONDS_EACH}s each)"
