#!/usr/bin/env bash
# The doctest suite (ctest: unit) as one process per test suite, JOBS of them at
# a time (default: the CPU count, at most 4), the largest first; the cases in no
# suite are one more part. Most of a cold run is PoCL compiling kernels
# on one thread (~13 minutes of a fresh CI root's 2 cores): a part a core halves
# it. Each part's output is printed when it ends; the exit code is non-zero when
# any part failed, a suite ran no test case (without extra options) or the parts'
# cases do not add up to the suite's.
# Usage: bash tests/unit_parts.sh OCL_SP_TESTS [DOCTEST OPTION...]
set -uo pipefail
EXE=${1:?usage: unit_parts.sh OCL_SP_TESTS [DOCTEST OPTION...]}
shift
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
[ "$JOBS" -gt 4 ] && JOBS=4
T=$(mktemp -d "/tmp/ocl_sp_unit.XXXXXX")
trap 'rm -rf "$T"' EXIT

mapfile -t suites < <("$EXE" --list-test-suites --no-version 2>/dev/null |
                      sed -n '/^=====/,/^=====/p' | grep -v '^=====')
if [ ${#suites[@]} -eq 0 ]; then
  echo "FAIL: $EXE lists no test suite"
  exit 1
fi
# The suites whose cases build the most PoCL programs first, so the last part to
# start is a short one (a list by name; a suite not named here runs after them).
first=(opencl_solvers rows api paths panel_engine "value types int64 and float64")
ordered=()
for s in "${first[@]}"; do
  for x in "${suites[@]}"; do [ "$x" = "$s" ] && ordered+=("$s"); done
done
for x in "${suites[@]}"; do
  [[ " ${first[*]} " == *" $x "* ]] || ordered+=("$x")
done
all=$(IFS=,; echo "${suites[*]}")
# Part k: a line "k<TAB>filter": first the cases in no suite (the multi-source
# engine's, betweenness: many PoCL programs), then the suites.
{
  printf '0\t-tse=%s\n' "$all"
  k=1
  for s in "${ordered[@]}"; do printf '%d\t-ts=%s\n' $k "$s"; k=$((k + 1)); done
} >"$T/parts"

run_part() {  # LINE: one part, its output in $T/k.log, its exit code in $T/k.rc
  local k filter
  IFS=$'\t' read -r k filter <<<"$1"
  # Each part its own program cache and tuning file (unless the caller chose a
  # folder): never the user's ~/.cache, no two parts writing one file.
  OCL_SP_CACHE_DIR=${OCL_SP_CACHE_DIR:-$T/cache.$k} "$EXE" "$filter" "${@:2}" >"$T/$k.log" 2>&1
  echo $? >"$T/$k.rc"
  echo "unit part: $filter ($(grep -E '^\[doctest\] test cases:' "$T/$k.log" | sed 's/\[doctest\] //'))"
}
export -f run_part
export EXE T
tr '\n' '\0' <"$T/parts" | xargs -0 -P "$JOBS" -I{} bash -c 'run_part "$@"' _ {} "$@"

fails=0
while IFS=$'\t' read -r k filter; do
  rc=$(cat "$T/$k.rc" 2>/dev/null || echo missing)
  cases=$(grep -Eo '^\[doctest\] test cases: *[0-9]+' "$T/$k.log" | grep -Eo '[0-9]+$' || echo 0)
  if [ "$rc" != 0 ]; then
    echo "=== FAIL part $filter (exit $rc) ==="
    cat "$T/$k.log"
    fails=$((fails + 1))
  elif [ $# -eq 0 ] && [ "$filter" != "-tse=$all" ] && [ "${cases:-0}" -eq 0 ]; then
    echo "=== FAIL part $filter: no test case ran ==="
    fails=$((fails + 1))
  fi
done <"$T/parts"
total=0
for n in $(cat "$T"/*.log | grep -Eo '^\[doctest\] test cases: *[0-9]+' | grep -Eo '[0-9]+$'); do
  total=$((total + n))
done
# Every case in exactly one part: the parts' cases add up to the whole suite's.
want=$("$EXE" --count "$@" 2>/dev/null | grep -Eo 'passing the current filters: [0-9]+' | grep -Eo '[0-9]+$')
if [ "$total" != "$want" ]; then
  echo "FAIL: the parts ran $total test cases, the suite has ${want:-?}"
  fails=$((fails + 1))
fi
echo "unit: $total test cases in $(wc -l <"$T/parts") parts, $JOBS at a time, $fails part(s) failed"
[ "$fails" -eq 0 ]
