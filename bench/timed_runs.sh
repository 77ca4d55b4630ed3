#!/usr/bin/env bash
# Timed ocl_sp runs from a list, one labelled run a line: the driver behind the
# records whose "driver" is bench/timed_runs.sh (stats, sparse, cold-start and
# out-of-core runs). Usage, from the repository root on the device machine:
#   bench/timed_runs.sh OCL_SP OUT RUNS     (RUNS: a file, or - for stdin)
#   python3 bench/replay.py RECORDS.jsonl RUN | bench/timed_runs.sh OCL_SP OUT -
# A line of RUNS is LABEL<TAB>ENV<TAB>ARGS[<TAB>BIN] (ENV: VAR=VALUE words or -,
# ARGS: the ocl_sp arguments, BIN: another binary beside OCL_SP, e.g. a baseline
# build ocl_sp_main; a record's "flags" holds these lines):
#   -             a warm-up: run, output discarded;
#   !             ARGS is a shell command run as it is (inputs such as source lists);
#   ptxas:KERNEL  registers of KERNEL in every program of the cache (ptxas -v on
#                 the cached PTX; NVIDIA with the CUDA toolkit);
#   LABEL cold:X  a first run with empty caches (a fresh OCL_SP_CACHE_DIR, the
#                 driver's JIT cache off), its report appended to OUT/cold.jsonl;
#   LABEL other   OUT/LABEL.json (the --json report; --json is added where the
#                 arguments lack it) and OUT/LABEL.time (wall seconds, peak KB
#                 of /usr/bin/time, stderr), one summary line on stdout with the
#                 md5 of the --stats / --output file when there is one.
# Runs share one program cache (OCL_SP_CACHE_DIR, default a fresh folder) unless
# a line's ENV sets its own. Lines starting with # are skipped.
set -u
B=$1 OUT=$2 RUNS=$3
mkdir -p "$OUT"
export OCL_SP_CACHE_DIR=${OCL_SP_CACHE_DIR:-$(mktemp -d)}
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
"$B" --version | head -2
summary() {  # LABEL: one line from OUT/LABEL.json
  python3 - "$OUT/$1.json" "$1" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except Exception as e:  # a failed run leaves no report
    print("[%s] no report (%s)" % (sys.argv[2], e)); sys.exit(0)
keys = ("solve", "total", "wall", "t_k", "t_h")
out = " ".join("%s %.3f" % (k, r[k]) for k in keys if isinstance(r.get(k), (int, float)))
ks = {k: round(v, 3) for k, v in (r.get("kernel_seconds") or {}).items()}
print("[%s] %s %s %s" % (sys.argv[2], out, ks, r.get("placement", "")))
PY
}
target_of() {  # ARGS...: the file after --stats or --output, if any
  local prev=""
  for a in "$@"; do
    case $prev in --stats|--output) echo "$a"; return;; esac
    prev=$a
  done
}
ptxas_regs() {  # KERNEL: ptxas -v of KERNEL for every cached program holding it
  local p f
  p=$(command -v ptxas || ls /usr/local/cuda*/bin/ptxas 2>/dev/null | head -1)
  [ -n "$p" ] || { echo "ptxas: not found"; return; }
  for f in "$OCL_SP_CACHE_DIR"/*; do
    grep -q "$1" "$f" 2>/dev/null || continue
    python3 - "$f" >"$OUT/k.ptx" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
i = b.find(b'//\n// Generated'); i = i if i >= 0 else b.find(b'.version')
sys.stdout.write(b[i:b.rfind(b'}') + 1].decode('latin1') + "\n")
PY
    echo "== $f: $(grep -m3 'reqntid\|maxntid' "$OUT/k.ptx" | tr '\n' ' ')"
    "$p" -v --gpu-name sm_90 "$OUT/k.ptx" -o /dev/null 2>&1 | grep -A4 "entry function '.*$1" | grep -E "entry|Used"
  done
}
grep -v '^#' "$RUNS" | while IFS=$'\t' read -r label envs args bin; do
  [ -n "$label" ] || continue
  [ "$envs" = "-" ] && envs=""
  case $label in
    "!") bash -c "$args"; continue ;;
    ptxas:*) ptxas_regs "${label#ptxas:}"; continue ;;
  esac
  exe=$B
  [ -n "$bin" ] && exe=$(dirname "$B")/$bin
  # shellcheck disable=SC2086
  set -- $args
  case $label in
    -)
      env $envs "$exe" "$@" >/dev/null 2>&1 ;;
    cold:*)
      c=$(mktemp -d)
      env $envs CUDA_CACHE_DISABLE=1 OCL_SP_CACHE_DIR="$c" "$exe" "$@" --json --quiet >"$OUT/j" 2>"$OUT/e"
      echo "{\"variant\":\"${label#cold:}\",\"env\":\"$envs\",\"report\":$(cat "$OUT/j")}" >>"$OUT/cold.jsonl"
      python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print('[%s] t_program %.3f t_context %.3f t_k %.5f %s' % (sys.argv[2], r['t_program'], r['t_context'], r['t_k'], r['program_cache']))" "$OUT/j" "$label"
      rm -rf "$c" ;;
    *)
      json=--json
      for a in "$@"; do [ "$a" = --json ] && json=""; done
      /usr/bin/time -f "%e s wall, %M KB peak" env $envs "$exe" "$@" $json --quiet >"$OUT/$label.json" 2>"$OUT/$label.time"
      t=$(target_of "$@")
      echo "$(summary "$label") | $(tail -1 "$OUT/$label.time")${t:+ | md5 $(md5sum "$t" 2>/dev/null | cut -c1-12)}" ;;
  esac
done
