#!/usr/bin/env bash
# Output safety: device nodes, FIFOs and standard output are written in
# place, never replaced by a regular file; symlinks are followed (the target is
# replaced, the link stays); an output that is the input is refused before any
# work; write errors leave nothing behind. Device nodes are private copies made
# with mknod in the test's own folder: real /dev nodes are never touched.
# Usage: output_safety.sh /path/to/ocl_sp
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_python numpy

# Reference output as a regular file.
check ref 0 "$BIN" --n 30 --backend serial --output "$T/ref.bin"

# A private /dev/full: ENOSPC is an error (exit 1), the node stays a device.
mknod "$T/full" c 1 7
check full 1 "$BIN" --n 300 --backend serial --output "$T/full" --output-format bin
expect full-msg err_starts
expect full-msg-enospc grep -q "No space left" "$T/err"
expect full-still-chardev test -c "$T/full"
expect full-no-temp sh -c "! ls '$T' | grep -q 'full.tmp'"

# The 64-bit types the same (8-byte values, a larger file to fail on).
for t in int64 float64; do
  check "full-$t" 1 "$BIN" --n 300 --backend serial --type "$t" --output "$T/full" --output-format npy
  expect "full-$t-enospc" grep -q "No space left" "$T/err"
  expect "full-$t-still-chardev" test -c "$T/full"
  expect "full-$t-no-temp" sh -c "! ls '$T' | grep -q 'full.tmp'"
  check "stdout-$t" 0 sh -c "'$BIN' --n 30 --backend serial --type $t --output - --output-format bin > '$T/$t.bin'"
  expect "stdout-$t-size" test "$(stat -c %s "$T/$t.bin")" -eq $((30 * 30 * 8))
done

# A private /dev/null: exit 0, still a device node.
mknod "$T/null" c 1 3
check null 0 "$BIN" --n 30 --backend serial --output "$T/null" --output-format bin
expect null-still-chardev test -c "$T/null"

# A regular file that a write error stops (the file-size limit: EFBIG, its signal
# ignored): the dense matrix, streamed rows with a column selection, and the
# path matrix, each written by positioned writes: exit 1 naming the error, the
# old file untouched, no temporary left.
fsize() {  # fsize NAME FILE ARGS...: ocl_sp under a 64 KiB file-size limit
  local name=$1 file=$2
  shift 2
  printf 'old\n' >"$file"
  check "$name" 1 bash -c "trap '' XFSZ; ulimit -f 64; exec \"\$0\" \"\$@\"" "$BIN" "$@"
  expect "$name-efbig" grep -q "^error: .*File too large" "$T/err"
  expect "$name-old-kept" test "$(cat "$file")" = old
  expect "$name-no-temp" sh -c "! ls '$T' | grep -q '\.tmp\.'"
}
fsize fsize-dense "$T/big.bin" --n 400 --backend serial --output "$T/big.bin"
fsize fsize-rows "$T/rows.npy" --algo sssp --generator grid --n 2500 --backend serial \
  --sources 0-2000 --targets 3-2400 --output "$T/rows.npy"
fsize fsize-paths "$T/via.bin" --n 400 --backend serial --paths-output "$T/via.bin" --output "$T/d.bin"
# Below the limit the same runs write the bytes a stream gets (positioned
# writes at the right offsets: header, then every batch in order).
for f in bin npy; do
  check "pos-$f" 0 "$BIN" --algo sssp --generator grid --n 900 --backend serial \
    --sources 5-700 --targets 0-899 --output "$T/pos.$f"
  check "pos-$f-stream" 0 sh -c "'$BIN' --algo sssp --generator grid --n 900 --backend serial \
    --sources 5-700 --targets 0-899 --output - --output-format $f > '$T/pos-stream.$f'"
  expect "pos-$f-same" cmp -s "$T/pos.$f" "$T/pos-stream.$f"
done

# Mapped writes (blocks reserved with fallocate, filled through mappings on
# several threads) with pieces of 5000 bytes, which straddle pages: the bytes of
# the positioned writes for the dense matrix (bin, npy), a selection of rows and
# the path matrix; past the file-size limit the same error and nothing left.
for f in bin npy; do
  check "mapped-$f-ref" 0 "$BIN" --n 300 --backend serial --output "$T/m-ref.$f"
  check "mapped-$f" 0 env OCL_SP_MAPPED_WRITE_BYTES=5000 "$BIN" --n 300 --backend serial --output "$T/m.$f"
  expect "mapped-$f-same" cmp -s "$T/m.$f" "$T/m-ref.$f"
done
M=(--algo sssp --generator grid --n 900 --backend serial --sources 5-700 --targets 0-899)
check mapped-rows 0 env OCL_SP_MAPPED_WRITE_BYTES=5000 "$BIN" "${M[@]}" --output "$T/m-rows.npy"
expect mapped-rows-same cmp -s "$T/m-rows.npy" "$T/pos.npy"
check mapped-paths 0 env OCL_SP_MAPPED_WRITE_BYTES=5000 "$BIN" --n 400 --backend serial \
  --paths-output "$T/m-via.bin" --output "$T/m-d.bin"
check mapped-paths-ref 0 "$BIN" --n 400 --backend serial --paths-output "$T/via-ref.bin" --output "$T/d-ref.bin"
expect mapped-paths-same cmp -s "$T/m-via.bin" "$T/via-ref.bin"
OCL_SP_MAPPED_WRITE_BYTES=5000 fsize fsize-mapped "$T/big.bin" --n 400 --backend serial --output "$T/big.bin"

# A FIFO: the reader gets the bytes, the FIFO stays a FIFO.
mkfifo "$T/fifo"
cat "$T/fifo" >"$T/fifo.got" &
reader=$!
check fifo 0 timeout 60 "$BIN" --n 30 --backend serial --output "$T/fifo" --output-format bin
wait "$reader"
expect fifo-still-fifo test -p "$T/fifo"
expect fifo-content cmp -s "$T/fifo.got" "$T/ref.bin"

# Standard output: '-' and /dev/stdout carry the matrix and no report (report on stderr).
check stdout-dash 0 sh -c "'$BIN' --n 30 --backend serial --output - --output-format bin > '$T/dash.bin'"
expect stdout-dash-content cmp -s "$T/dash.bin" "$T/ref.bin"
expect stdout-dash-report-on-stderr grep -q "T_k" "$T/err"
check stdout-dev 0 sh -c "'$BIN' --n 30 --backend serial --output /dev/stdout --output-format bin > '$T/devout.bin'"
expect stdout-dev-content cmp -s "$T/devout.bin" "$T/ref.bin"
expect dev-stdout-still-symlink test -L /dev/stdout
check stdout-csv 0 sh -c "'$BIN' --n 30 --backend serial --output - --output-format csv | wc -l > '$T/lines'"
expect stdout-csv-lines test "$(cat "$T/lines")" -eq 30
# A reader that goes away: EPIPE is an error, not a silent success or a crash.
check stdout-epipe 0 sh -c "'$BIN' --n 1500 --backend openmp --output - --output-format csv 2>'$T/epipe.err' | head -c 10 >/dev/null; echo \$? >/dev/null"
expect stdout-epipe-msg grep -q "^error: .*Broken pipe" "$T/epipe.err"

# A symlink: the target is replaced, the link stays a link.
echo old >"$T/target.bin"
ln -s target.bin "$T/link.bin"
check symlink 0 "$BIN" --n 30 --backend serial --output "$T/link.bin"
expect symlink-stays test -L "$T/link.bin"
expect symlink-target-written cmp -s "$T/target.bin" "$T/ref.bin"
# A dangling symlink names the file to create.
ln -s created.bin "$T/dangling.bin"
check dangling 0 "$BIN" --n 30 --backend serial --output "$T/dangling.bin"
expect dangling-stays test -L "$T/dangling.bin"
expect dangling-created cmp -s "$T/created.bin" "$T/ref.bin"
# Permissions of a replaced file are kept.
cp "$T/ref.bin" "$T/mode.bin"; chmod 640 "$T/mode.bin"
check mode 0 "$BIN" --n 31 --backend serial --output "$T/mode.bin"
expect mode-kept test "$(stat -c %a "$T/mode.bin")" = 640

# Output = input: refused (exit 2) before any work, the graph untouched; also
# through a hard link and a symlink, and for --paths-output.
printf '0 1 5\n1 2 7\n' >"$T/g.edges"
"$BIN" --input "$T/g.edges" --backend serial --output "$T/g.bin" >/dev/null  # any bin file
"$PY" -c "
import struct; open('$T/graph.bin','wb').write(struct.pack('<5i',3,1,0,1,4))"
cp "$T/graph.bin" "$T/graph.orig"
check same-as-input 2 "$BIN" --input "$T/graph.bin" --backend serial --output "$T/graph.bin"
expect same-as-input-msg grep -q "is the input file" "$T/err"
expect same-as-input-kept cmp -s "$T/graph.bin" "$T/graph.orig"
ln "$T/graph.bin" "$T/hard.bin"
check same-hardlink 2 "$BIN" --input "$T/graph.bin" --backend serial --output "$T/hard.bin"
ln -s graph.bin "$T/soft.bin"
check same-symlink 2 "$BIN" --input "$T/soft.bin" --backend serial --output "$T/graph.bin"
check same-paths-output 2 "$BIN" --input "$T/graph.bin" --backend serial --paths-output "$T/soft.bin"
expect same-kept-all cmp -s "$T/graph.bin" "$T/graph.orig"
check paths-eq-output 2 "$BIN" --n 10 --backend serial --output "$T/p.bin" --paths-output "$T/./p.bin"
check paths-eq-output-link 2 "$BIN" --n 10 --backend serial --output "$T/target.bin" --paths-output "$T/link.bin"
check out-is-folder 2 "$BIN" --n 10 --backend serial --output "$T" --output-format bin
expect out-is-folder-msg err_starts

# A negative cycle leaves an older output untouched and no temporary behind.
cp "$T/ref.bin" "$T/keep.bin"
printf '0 1 1\n1 0 -2\n' >"$T/negcyc.edges"
check neg-cycle-keeps 3 "$BIN" --input "$T/negcyc.edges" --backend serial --output "$T/keep.bin"
expect neg-cycle-old-file cmp -s "$T/keep.bin" "$T/ref.bin"
expect neg-cycle-no-temp sh -c "! ls '$T' | grep -q 'keep.bin.tmp'"

finish_tests
