#!/usr/bin/env bash
# End-to-end tests of the readers' limits: headers declaring huge
# counts are input errors naming the file and the line (exit 2), a graph of the
# largest vertex count is refused by the memory check before its n x n matrix
# exists (exit 1, at once), and every input the fuzzers ever failed on
# (tests/fuzz/regressions/) is now a clean result or a clean error.
# Usage: input_limits_cli.sh /path/to/ocl_sp
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
FUZZ="$(dirname "${BASH_SOURCE[0]}")/../fuzz/regressions"

printf 'p sp 2000000000 1\na 1 2 3\n' >"$T/n.gr"
check huge-n-gr 2 "$BIN" --input "$T/n.gr" --backend serial --algo fw
expect huge-n-gr-msg grep -qxF "error: $T/n.gr: line 1: vertex count '2000000000' must be in [1, 200000]" "$T/err"
# auto (the default) may solve a sparse graph of any n: the memory plan refuses it.
check huge-n-gr-auto 1 "$BIN" --input "$T/n.gr" --backend serial
expect huge-n-gr-auto-msg grep -q "^error: n = 2000000000 (int32) with m = 1 edges .*needs [0-9]* MiB of host memory" "$T/err"
printf 'p sp 5 4000000000000000000\na 1 2 3\n' >"$T/m.gr"
check huge-m-gr 2 "$BIN" --input "$T/m.gr" --backend serial
expect huge-m-gr-msg grep -q "m.gr: line 1: problem line declares 4000000000000000000 arcs but the file has 1" "$T/err"
printf '%%%%MatrixMarket matrix coordinate integer symmetric\n200000 200000 39999999999\n1 2 3\n' >"$T/m.mtx"
check huge-nnz-mtx 2 "$BIN" --input "$T/m.mtx" --backend serial
expect huge-nnz-mtx-msg grep -q "m.mtx: line 2: size line declares 39999999999 entries" "$T/err"
printf '\x40\x0d\x03\x00\xff\xff\xff\x7f' >"$T/m.bin"  # n = 200000, m = 2^31 - 1, no edges
check huge-m-bin 2 "$BIN" --input "$T/m.bin" --backend serial
expect huge-m-bin-msg grep -q "m.bin: byte offset 8: truncated: 2147483647 edges need" "$T/err"

# The largest n a reader accepts: a clean memory refusal, before the matrix
# (--verify needs the n x n result; without it sssp streams its rows).
for f in gr txt; do
  if [ $f = gr ]; then printf 'p sp 200000 1\na 200000 1 7\n' >"$T/big.$f"; else printf '199999 0 7\n' >"$T/big.$f"; fi
  start=$(date +%s%N)
  check "largest-n-$f" 1 "$BIN" --input "$T/big.$f" --backend serial --verify
  end=$(date +%s%N)
  expect "largest-n-$f-msg" grep -q "^error: n = 200000 (int32) .*needs [0-9]* MiB of host memory" "$T/err"
  expect "largest-n-$f-fast" test $(((end - start) / 1000000)) -lt 3000
done

# Every saved fuzz finding, through the command line.
found=0
for f in "$FUZZ"/*/*; do
  [ -f "$f" ] || continue
  found=$((found + 1))
  reader=$(basename "$(dirname "$f")")
  name="fuzz-$reader-$(basename "$f")"
  case $reader in
    bin | gr | mtx | edges)
      got=0
      "$BIN" --input "$f" --format "$reader" --backend serial --type float32 >"$T/out" 2>"$T/err" || got=$?
      # A graph (0), an input error (2) or a negative cycle (3), each with a message.
      expect "$name-exit" test "$got" = 0 -o "$got" = 2 -o "$got" = 3
      [ "$got" = 0 ] || expect "$name-msg" err_starts
      ;;
    tuning_store)
      mkdir -p "$T/tc"
      cp "$f" "$T/tc/tuning.txt"
      # Read by the solve (default backend: PoCL where present) for tuned values.
      check "$name" 0 env OCL_SP_CACHE_DIR="$T/tc" "$BIN" --n 8
      ;;
  esac
done
expect fuzz-regressions-present test "$found" -gt 0
# The two that were undefined behaviour: a negative self-loop of -1e308.
check fuzz-self-loop-edges 3 "$BIN" --input "$FUZZ/edges/huge_negative_self_loop.txt" --format edges \
  --backend serial --type float32
expect fuzz-self-loop-edges-msg grep -qxF \
  "error: negative cycle detected: 2 -> 2 (length -1e+308); no distances written" "$T/err"

finish_tests
