#!/usr/bin/env bash
# End-to-end tests of the solve command and `devices`: exit codes, error
# messages, --json, output files (bin/npy/csv), atomic output, PoCL device runs.
# Usage: solve_cli.sh /path/to/ocl_sp
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_python numpy

check version 0 "$BIN" --version && expect version-text grep -q "ocl_sp" "$T/out"
check help 0 "$BIN" --help && expect help-mentions-n grep -q -- "--input" "$T/out"
check bad-flag 2 "$BIN" --frobnicate && expect bad-flag-msg err_starts
check no-graph 2 "$BIN" --backend serial && expect no-graph-msg err_starts
check both-sources 2 "$BIN" --n 5 --input x.bin --backend serial
# An error message is one write of its whole line (stderr on a packet socket: each
# write() one packet), so a launcher that forwards output as it reads it (mpirun)
# never splits it with a line of its own.
expect error-one-write "$PY" -c "
import socket, subprocess, sys
for args in (['--backend', 'serial'], ['--frobnicate'], ['--n', '5', '--algo', 'dijkstra', '--backend', 'serial']):
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    p = subprocess.Popen(['$BIN'] + args, stdout=subprocess.DEVNULL, stderr=b)
    b.close()
    first = a.recv(65536).decode()
    assert p.wait() == 2, args
    assert first.startswith('error: ') and first.endswith('\\n') and len(first) > 12, (args, first)
"
check bad-algo 2 "$BIN" --n 5 --algo dijkstra --backend serial && expect bad-algo-msg err_starts
check bad-n 2 "$BIN" --n 0 --backend serial
check bad-weights 2 "$BIN" --n 5 --weights 9:1 --backend serial
check int32-range 2 "$BIN" --n 2000 --weights 1:1000000 --backend serial --type int32
expect int32-range-msg grep -q -- "--type int64" "$T/err"
check missing-file 2 "$BIN" --input "$T/nope.gr" --backend serial && expect missing-file-msg err_starts
check bad-out-ext 2 "$BIN" --n 5 --backend serial --output "$T/x.weird"
check out-missing-dir 2 "$BIN" --n 5 --backend serial --output "$T/no/such/dir/d.bin"

# JSON report parses and carries the contract's fields.
check json 0 "$BIN" --n 50 --backend serial --json
expect json-parses "$PY" -c "
import json,sys; r=json.load(open('$T/out'))
assert r['n']==50 and r['algorithm']=='fw' and r['backend']=='serial', r
for k in ('t_o','t_h','t_k','total','relaxations_per_s','device','type','params'): assert k in r, k"

# Output files: bin size, npy loads with the right dtype/shape, csv == bin.
check out-bin 0 "$BIN" --n 40 --backend openmp --output "$T/d.bin"
expect out-bin-size test "$(stat -c %s "$T/d.bin")" -eq $((40 * 40 * 4))
check out-npy 0 "$BIN" --n 40 --backend serial --output "$T/d.npy"
check out-csv 0 "$BIN" --n 40 --backend serial --output "$T/d.csv"
expect npy-loads "$PY" -c "
import numpy as np
a=np.load('$T/d.npy'); b=np.fromfile('$T/d.bin',dtype='<i4').reshape(40,40)
c=np.loadtxt('$T/d.csv',delimiter=',',dtype=np.int64)
assert a.dtype==np.int32 and a.shape==(40,40) and (a==b).all() and (c==a).all()
assert (np.diag(a)==0).all()"
expect npy-magic "$PY" -c "
h=open('$T/d.npy','rb').read(128); assert h[:8]==b'\x93NUMPY\x01\x00', h[:10]
hl=int.from_bytes(h[8:10],'little'); assert (10+hl)%64==0"
check out-float 0 "$BIN" --n 40 --backend serial --type float32 --output "$T/f.npy"
expect float-npy "$PY" -c "
import numpy as np; a=np.load('$T/f.npy'); assert a.dtype==np.float32 and a.shape==(40,40)"

# The paper's 5-vertex example with negative edges (edges text, 0-based).
cat >"$T/paper.txt" <<'G'
# CLRS 25.1 / the OCL_SP paper's equation (1)
0 1 3
0 2 8
0 4 -4
1 3 1
1 4 7
2 1 4
3 0 2
3 2 -5
4 3 6
G
check paper 0 "$BIN" --input "$T/paper.txt" --backend serial --output "$T/paper.csv"
expect paper-distances diff <(tr -d '\r' <"$T/paper.csv") <(printf '0,1,-3,2,-4\n3,0,-4,1,-1\n7,4,0,5,3\n2,-1,-5,0,-2\n8,5,1,6,0\n')

# Negative cycle: exit 3, a vertex named, no file written, older file untouched.
printf '0 1 1\n1 2 -3\n2 0 1\n' >"$T/negcyc.txt"
echo "old" >"$T/keep.bin"
check negcycle 3 "$BIN" --input "$T/negcyc.txt" --backend serial --output "$T/keep.bin"
expect negcycle-msg grep -q "negative cycle" "$T/err"
expect negcycle-untouched test "$(cat "$T/keep.bin")" = old
check negcycle-new 3 "$BIN" --input "$T/negcyc.txt" --backend openmp --output "$T/new.bin"
expect negcycle-nofile test ! -e "$T/new.bin"
expect no-temp-left test -z "$(ls "$T" | grep '\.tmp\.' || true)"

# Malformed input: exit 2 with file and line.
printf '0 1 5\n1 x 2\n' >"$T/bad.txt"
check malformed 2 "$BIN" --input "$T/bad.txt" --backend serial
expect malformed-line grep -q "bad.txt.*line 2\|line 2.*bad.txt" "$T/err"

# OpenCL on PoCL: every algorithm verified, the env var, absent device, bad tunable.
check devices 0 "$BIN" devices && expect devices-lists-pocl grep -qi "portable computing language\|pocl" "$T/out"
for algo in fw squaring fw-naive; do
  check "pocl-$algo" 0 "$BIN" --device pocl --n 65 --negative --algo "$algo" --verify --json
  expect "pocl-$algo-verified" "$PY" -c "
import json; r=json.load(open('$T/out')); assert r['verify']=='ok' and r['backend']=='opencl', r"
done
check pocl-float 0 "$BIN" --device cpu --n 33 --type float32 --algo squaring --verify
OCL_SP_DEVICE=pocl check env-device 0 "$BIN" --n 17 --json
expect env-device-used "$PY" -c "
import json; r=json.load(open('$T/out')); assert r['backend']=='opencl', r"
check absent-device 1 "$BIN" --device nosuchdevice --n 10
expect absent-device-lists grep -qi "pocl\|portable" "$T/err"
check bad-wg 2 "$BIN" --device pocl --n 10 --algo squaring --wg 5

# The fast exit after a solve (util/fast_exit.hpp) loses nothing: same output file
# and a complete report through a pipe as with every destructor run.
for clean in 0 1; do
  OCL_SP_CLEAN_EXIT=$clean check "exit-clean$clean" 0 "$BIN" --device pocl --n 70 --output "$T/x$clean.npy"
  cp "$T/out" "$T/report$clean"
done
expect exit-same-output cmp -s "$T/x0.npy" "$T/x1.npy"
expect exit-same-report-lines test "$(grep -c . "$T/report0")" = "$(grep -c . "$T/report1")"
"$BIN" --device pocl --n 70 --json | cat > "$T/piped.json"
expect exit-piped-json "$PY" -c "
import json; r=json.load(open('$T/piped.json')); assert r['n']==70 and r['command']=='solve', r"

finish_tests
