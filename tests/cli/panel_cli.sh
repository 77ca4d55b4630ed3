#!/usr/bin/env bash
# End-to-end tests of the panel engine's command line (DESIGN.md "Scale") on PoCL:
# --panel / --device-memory / --split placements give the same bytes as the single
# buffer (also with the panel GEMM of 64 x 64 tiles, 8 x 4 a work-item, a ring of
# three chunks: NVIDIA's default below P = 4096); negative cycles leave no file; plans that cannot fit are refused before
# any work (in under a second); device lists; Ctrl-C stops cleanly; the report
# names the placement.
# Usage: panel_cli.sh /path/to/ocl_sp
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_python json numpy

D=(--device pocl --quiet)
check single 0 "$BIN" --n 333 "${D[@]}" --output "$T/single.bin"
expect single-placement grep -q "placement single buffer" "$T/out"
for args in "--panel 128" "--panel 256" "--panel 512" "--panel 128 --device-memory 600K" \
            "--device-memory 700K" "--panel 128 --split 2" "--split 2 --device-memory 1M" \
            "--panel 128 --type float32" \
            "--panel 256 --param TILED=1 --param BLOCK=64 --param TM=8 --param TN=4 --param KC=16 --param STAGES=3" \
            "--panel 128 --split 2 --param TILED=1 --param BLOCK=64 --param TM=8 --param TN=4 --param KC=16 --param STAGES=3"; do
  name=$(echo "$args" | tr -c 'a-z0-9' '_')
  # shellcheck disable=SC2086
  check "panels$name" 0 "$BIN" --n 333 "${D[@]}" $args --verify --output "$T/p.bin" || continue
  expect "panels$name-verified" grep -q "verify    ok" "$T/out"
  case "$args" in
    *float32*) ;;
    *) expect "panels$name-same-bytes" cmp -s "$T/p.bin" "$T/single.bin" ;;
  esac
done
check ooc-report 0 "$BIN" --n 333 "${D[@]}" --panel 128 --device-memory 600K --json
expect ooc-json "$PY" -c "
import json; r=json.load(open('$T/out'))
assert r['placement'].startswith('out of core'), r['placement']
assert r['panel']==128 and r['bytes_moved']>0 and r['devices']==1, r
# copy_exposed is the device's idle time in the engine: within the solve, never negative
assert 0 <= r['copy_exposed'] <= r['solve'], r"
# The text report names it for what it is (it may exceed T_h: host work counts).
check ooc-text 0 "$BIN" --n 333 "${D[@]}" --panel 128 --device-memory 600K
expect ooc-idle-line grep -qE "placement out of core.*device idle [0-9.]+ [mu]?s \\(copies not hidden, host work; T_h" "$T/out"
check split-report 0 "$BIN" --n 300 "${D[@]}" --split 2 --panel 128 --json
expect split-json "$PY" -c "
import json; r=json.load(open('$T/out'))
assert r['devices']==2 and 'on 2 devices' in r['placement'] and len(r['device_lines'])==2, r"

# bench: a column of several devices (--split 2 on fw), verified against the CPU.
check bench-split 0 "$BIN" bench --devices pocl --split 2 --algos fw --sizes 300 --reps 1 --quiet --json "$T/b.json"
expect bench-split-ok "$PY" -c "
import json; r=json.load(open('$T/b.json'))['results']
assert len(r)==1 and r[0]['status']=='ok' and r[0]['verify']=='ok', r"
check bench-list-column 0 "$BIN" bench --devices pocl:all --algos fw --sizes 200 --reps 1 --quiet

# Negative edges and a negative cycle through both placements: exit 3, no file.
check neg-edges 0 "$BIN" --n 300 --negative "${D[@]}" --panel 128 --device-memory 600K --verify
printf '0 1 1\n1 2 -5\n2 0 1\n2 3 1\n299 298 1\n' >"$T/cyc.edges"
for args in "--panel 128" "--panel 128 --device-memory 600K" "--panel 128 --split 2"; do
  # shellcheck disable=SC2086
  check "neg-cycle-$(echo "$args" | tr -c 'a-z0-9' '_')" 3 "$BIN" --input "$T/cyc.edges" "${D[@]}" $args --output "$T/cyc.bin"
  expect "neg-cycle-no-file" test ! -e "$T/cyc.bin"
done

# Paths in every panel placement: --verify checks distances and every
# pair's path; the via file is then expanded independently in Python against the
# input (negative edges, zero weights, an unreachable part, n = 333 not a multiple
# of P = 128), and must give the single buffer's distances.
write_paths_graph "$T/neg.edges"
echo "332 332 0" >>"$T/neg.edges"
check paths-single 0 "$BIN" --input "$T/neg.edges" "${D[@]}" --output "$T/pd1.npy"
for args in "--panel 128" "--panel 128 --device-memory 600K" "--panel 128 --split 2" \
            "--split 2 --device-memory 1M"; do
  name=$(echo "$args" | tr -c 'a-z0-9' '_')
  # shellcheck disable=SC2086
  check "paths$name" 0 "$BIN" --input "$T/neg.edges" "${D[@]}" $args --paths --verify \
    --query 0 5 --output "$T/pd.npy" --paths-output "$T/via.npy" || continue
  expect "paths$name-verified" grep -q "verify    ok" "$T/out"
  expect "paths$name-checked" grep -q "check     paths ok" "$T/out"
  expect "paths$name-rebuilt" grep -q "rebuilt on the device" "$T/out"
  expect "paths$name-same-distances" cmp -s "$T/pd.npy" "$T/pd1.npy"
  # every 7th source, and one in the unreachable part
  expect "paths$name-expanded" expand_paths "$T/pd.npy" "$T/via.npy" "$T/neg.edges" 7 332
done
check paths-panel-negcycle 3 "$BIN" --input "$T/cyc.edges" "${D[@]}" --panel 128 --paths \
  --paths-output "$T/cycvia.npy"
expect paths-panel-negcycle-no-file test ! -e "$T/cycvia.npy"

# --paths: the report (JSON paths_kernels, text paths line) opens with the route
# and why: below the panel threshold the single buffer's rebuild (exact sums; float
# weights too where they are integers), panels where --panel asks, the path
# kernels (packed keys where they fit) under OCL_SP_PATHS_REBUILD=0 and for float
# weights whose sums could round.
route() {  # NAME WANT ARGS...: --json run, paths_kernels starts with "route: WANT"
  local name=$1 want=$2; shift 2
  check "route-$name" 0 "$@" --paths --json || return
  expect "route-$name-json" "$PY" -c "
import json, sys; r = json.load(open('$T/out')); k = r['paths_kernels']
sys.exit(0 if k.startswith('route: $want') else 'paths_kernels: ' + k)"
}
route single "single buffer, rebuilt on the device (exact sums" "$BIN" --n 300 "${D[@]}"
route panels "panels, rebuilt on the device (the distances run on panels" "$BIN" --n 300 "${D[@]}" --panel 128
route rebuild "single buffer, rebuilt on the device (OCL_SP_PATHS_REBUILD=1)" env OCL_SP_PATHS_REBUILD=1 "$BIN" --n 300 "${D[@]}"
route packed "packed keys (OCL_SP_PATHS_REBUILD=0)" env OCL_SP_PATHS_REBUILD=0 "$BIN" --n 300 "${D[@]}"
route float "single buffer, rebuilt on the device (float weights" "$BIN" --n 300 "${D[@]}" --type float32
printf '0 1 0.5\n1 2 0.25\n0 2 1.5\n2 0 0.125\n' >"$T/frac.edges"
route float-frac "path kernels (float weights" "$BIN" --input "$T/frac.edges" "${D[@]}" --type float32
check route-text 0 "$BIN" --n 300 "${D[@]}" --paths --query 0 17 --query 5 299
# Without --verify only via is kept (hops are not read back: 4 n^2 bytes fewer);
# --verify checks the paths with hops; the queries expand to the same vertices.
expect route-text-line grep -q "paths     via matrix (route: single buffer, rebuilt on the device (exact sums.*, +0.3 MiB" "$T/out"
grep -E '^path [0-9]' "$T/out" >"$T/q-lean"
check route-text-verify 0 "$BIN" --n 300 "${D[@]}" --paths --query 0 17 --query 5 299 --verify
expect route-text-verify-line grep -q "paths     via + hops matrices (route: single buffer, rebuilt on the device (exact sums.*, +0.7 MiB" "$T/out"
grep -E '^path [0-9]' "$T/out" >"$T/q-verify"
expect route-text-queries bash -c "[ -s '$T/q-lean' ] && cmp -s '$T/q-lean' '$T/q-verify'"

# Refusals: exit 2 for usage, exit 1 for memory, before any work.
check dev-twice 2 "$BIN" --n 50 --device pocl,pocl && expect dev-twice-msg grep -q "named twice" "$T/err"
check split-squaring 0 "$BIN" --n 300 --device pocl --split 2 --algo squaring --verify --output "$T/sq.bin"
expect split-squaring-devices grep -q "on 2 devices" "$T/out"
expect split-squaring-same-bytes cmp -s "$T/sq.bin" <("$BIN" --n 300 --backend serial --output - --output-format bin 2>/dev/null)
check panel-squaring 0 "$BIN" --n 300 --device pocl --panel 128 --algo squaring --verify
check split-fw-naive 2 "$BIN" --n 50 --device pocl --split 2 --algo fw-naive
check panel-openmp 2 "$BIN" --n 50 --backend openmp --panel 128
check bad-size 2 "$BIN" --n 50 --device pocl --device-memory 12Q
check bad-host-size 2 "$BIN" --n 50 --backend serial --host-memory lots
check too-small-device 1 "$BIN" --n 300 --device pocl --panel 128 --device-memory 100K
expect too-small-msg grep -q "device memory" "$T/err"
start=$(date +%s%N)
check host-too-small 1 "$BIN" --n 2000000 --backend openmp
end=$(date +%s%N)
expect host-refused-fast test $(((end - start) / 1000000)) -lt 1000
expect host-refused-msg grep -q "host memory" "$T/err"
start=$(date +%s%N)
check host-limit 1 "$BIN" --n 60000 --device pocl --host-memory 2G
end=$(date +%s%N)
expect host-limit-fast test $(((end - start) / 1000000)) -lt 2000  # PoCL platform start-up included
expect host-limit-msg grep -q -- "--host-memory" "$T/err"
# ulimit -v: the address-space limit is honoured (PoCL's buffers are host memory).
# Not under AddressSanitizer (tests/sanitize/run.sh sets OCL_SP_UNDER_ASAN): its
# shadow memory reservation cannot start inside such a limit.
if [ -z "${OCL_SP_UNDER_ASAN:-}" ]; then
  check rlimit 1 bash -c "ulimit -v 3000000; exec '$BIN' --n 20000 --device pocl"
  expect rlimit-msg grep -q "RLIMIT_AS" "$T/err"
else
  echo "note rlimit case not run under ASan (shadow memory needs the address space)"
fi

# No progress line when stderr is not a terminal.
check no-progress 0 "$BIN" --n 300 --device pocl --panel 128
expect no-progress-line sh -c "! grep -q 'round ' '$T/err'"

# On a terminal (script(1) gives one) a long solve shows round, % and ETA. The
# line waits 2 s by default, longer than this solve takes on an idle machine:
# shown at once and redrawn every 20 ms here (OCL_SP_PROGRESS_AFTER / _MS).
check progress-tty 0 env OCL_SP_PROGRESS_AFTER=0 OCL_SP_PROGRESS_MS=20 \
  script -qec "'$BIN' --n 3200 --device pocl --panel 128 --device-memory 10M" /dev/null
expect progress-line grep -aq "round [0-9]*/25 .*% .*ETA" "$T/out"
expect progress-idle grep -aq "ETA [0-9:-]*  device idle [0-9.]* s" "$T/out"
check progress-quiet 0 env OCL_SP_PROGRESS_AFTER=0 OCL_SP_PROGRESS_MS=20 \
  script -qec "'$BIN' --n 3200 --device pocl --panel 128 --device-memory 10M --quiet" /dev/null
expect progress-quiet-none sh -c "! grep -aq 'ETA' '$T/out'"

# Ctrl-C (SIGINT) during a long panel solve: exit 130, no output file.
"$BIN" --n 5000 --device pocl --panel 128 --output "$T/int.bin" >"$T/int.out" 2>"$T/int.err" &
pid=$!
sleep 3
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
expect sigint-exit test "$rc" -eq 130
expect sigint-msg grep -q "^error: interrupted" "$T/int.err"
expect sigint-no-file test ! -e "$T/int.bin"
expect sigint-no-temp sh -c "! ls '$T' | grep -q 'int.bin.tmp'"

finish_tests
