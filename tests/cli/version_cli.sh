#!/usr/bin/env bash
# ocl_sp --version (version, git revision, build type, OpenCL target, features)
# and the report's T_o split into the driver's context and the program build
#, text and JSON; a solve builds only its own kernel family's program.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_python json

check "--version exits 0" 0 "$BIN" --version
expect "--version: first line 'ocl_sp X.Y.Z'" grep -Eqx 'ocl_sp [0-9]+\.[0-9]+\.[0-9]+' <(head -1 "$T/out")
expect "--version: revision" grep -Eq '^revision: ([0-9a-f]{7,}|unknown)' "$T/out"
expect "--version: build type" grep -Eq '^build type: [A-Za-z]*$' "$T/out"
expect "--version: OpenCL target" grep -qx 'OpenCL target: 1.2 (CL_TARGET_OPENCL_VERSION=120)' "$T/out"
expect "--version: features" grep -Eqx 'features: openmp=[0-9]+ mpi=(yes|no) python=(yes|no)' "$T/out"

check "solve on PoCL" 0 "$BIN" --device pocl --n 200
expect "T_o names context and programs (cache miss)" \
  grep -Eq '^  T_o .*\(set-up: context [0-9.]+ .?s, programs [0-9.]+ .?s, program cache miss\)' "$T/out"
programs() { find "$T/cache" -name '*.oclbin' | wc -l; }
expect "fw built one program (its family only)" test "$(programs)" = 1
check "squaring on PoCL" 0 "$BIN" --device pocl --n 100 --algo squaring
expect "squaring added one program" test "$(programs)" = 2
check "solve on PoCL, JSON" 0 "$BIN" --device pocl --n 200 --json
expect "JSON: t_context > 0, t_program > 0, t_o covers both, cache hit" "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["t_context"] > 0 and d["t_program"] > 0, d
assert d["t_o"] >= d["t_context"] + d["t_program"], d
assert d["program_cache"] == "hit", d
' "$T/out"
check "solve on OpenMP, JSON" 0 "$BIN" --backend openmp --n 50 --json
expect "JSON: no context on CPU backends" "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["t_context"] == 0 and d["t_program"] == 0, d
' "$T/out"
finish_tests
