#!/usr/bin/env bash
# `--algo auto` against the faster of fw and sssp, whole solves as the report
# gives them (`--json` "solve"): for each case, fw, sssp and auto solved in turn
# (fw, sssp, auto; RUNS rounds, auto in the first AUTO_RUNS of them), each a
# fresh process on one device. Every report goes to OUT/runs.jsonl with its case
# and command; OUT/summary.csv holds a line per case: n, m, the medians, what
# auto chose and its estimates, auto's median and the chosen algorithm's median
# over the faster one's.
#
#   bash bench/auto_choice.sh OCL_SP OUT [CASES]
#
# CASES: a file of lines "label<TAB>runs<TAB>ocl_sp arguments", # comments,
# ROADS standing for the unpacked road graphs' folder (default: the
# built-in list below: the random / grid / geometric generators near where fw
# and sssp cross at n = 2 000 - 30 000, and the road graphs of bench/data/roads,
# unpacked to $TMPDIR). BUDGET (seconds, default 600): cases not started by then
# are left out (said in the log). DEV (default nvidia), COMMIT and LABEL are
# recorded with each line. A warm-up solve of each kernel family first (the
# program cache), not recorded.
set -uo pipefail
B=$1 O=$2 CASES=${3:-}
HERE=$(cd "$(dirname "$0")" && pwd)
DEV=${DEV:-nvidia} BUDGET=${BUDGET:-600} AUTO_RUNS=${AUTO_RUNS:-2}
mkdir -p "$O"
export OCL_SP_CACHE_DIR=${OCL_SP_CACHE_DIR:-$(mktemp -d)}
TMP=$(mktemp -d)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null; nproc; } > "$O/device.txt"
for f in "$HERE"/data/roads/*.gr.gz; do gunzip -c "$f" > "$TMP/$(basename "$f" .gz)"; done
if [ -z "$CASES" ]; then
  CASES=$TMP/cases.txt
  R=$TMP
  # label, runs, arguments. The random family's --degree is the out-degree.
  cat > "$CASES" <<EOF
oldenburg	3	--input $R/oldenburg.gr
road_grid_45	3	--input $R/road_grid_45.gr
road_grid_84	3	--input $R/road_grid_84.gr
road_grid_100	3	--input $R/road_grid_100.gr
san_joaquin	3	--input $R/san_joaquin.gr
grid_45	3	--generator grid --n 2025
grid_70	3	--generator grid --n 4900
grid_100	3	--generator grid --n 10000
geometric_2000_d6	3	--generator geometric --degree 6 --n 2000
geometric_5000_d6	3	--generator geometric --degree 6 --n 5000
geometric_10000_d6	3	--generator geometric --degree 6 --n 10000
geometric_5000_d20	3	--generator geometric --degree 20 --n 5000
random_2000_d16	3	--generator random --degree 16 --n 2000
random_2000_d64	3	--generator random --degree 64 --n 2000
random_5000_d16	3	--generator random --degree 16 --n 5000
random_5000_d48	3	--generator random --degree 48 --n 5000
random_10000_d12	3	--generator random --degree 12 --n 10000
random_10000_d24	3	--generator random --degree 24 --n 10000
random_10000_d48	3	--generator random --degree 48 --n 10000
random_10000_d96	3	--generator random --degree 96 --n 10000
random_30000_d32	2	--generator random --degree 32 --n 30000
random_30000_d96	2	--generator random --degree 96 --n 30000
EOF
fi
# A given case file: comments (#) dropped, ROADS the folder of the road graphs.
if [ "$CASES" != "$TMP/cases.txt" ]; then
  grep -v '^#' "$CASES" | sed "s|ROADS|$TMP|g" > "$TMP/given.txt"
  CASES=$TMP/given.txt
fi
START=$(date +%s)
# solve LABEL RUN ALGO ARGS...: one process, its report appended to runs.jsonl.
solve() {
  local label=$1 run=$2 algo=$3
  shift 3
  local t0=$(date +%s%N)
  out=$(timeout 120 "$B" --device "$DEV" "$@" --algo "$algo" --json 2>"$TMP/err.txt")
  local rc=$?
  local wall=$(( ($(date +%s%N) - t0) / 1000000 ))
  { echo "== $label $algo run $run rc $rc: $*"; cat "$TMP/err.txt"; } >> "$O/stderr.log"
  printf '{"driver": "bench/auto_choice.sh", "binary": "%s", "commit": "%s", "case": "%s", "algo": "%s", "run": %d, "command": "ocl_sp --device %s %s --algo %s --json", "rc": %d, "process_ms": %d, "report": %s}\n' \
    "${LABEL:-$B}" "${COMMIT:-}" "$label" "$algo" "$run" "$DEV" "$*" "$algo" "$rc" "$wall" "${out:-null}" >> "$O/runs.jsonl"
}
# Warm-up: fw, sssp a source a group and in lanes (the program cache).
solve warmup 0 fw --generator random --degree 8 --n 2000 > /dev/null
solve warmup 0 sssp --generator random --degree 16 --n 2000 > /dev/null
solve warmup 0 sssp --generator grid --n 2025 > /dev/null
while IFS=$'\t' read -r label runs args; do
  [ -z "$label" ] && continue
  if (( $(date +%s) - START > BUDGET )); then
    echo "$label: left out (past BUDGET=$BUDGET s)" | tee -a "$O/stderr.log"
    continue
  fi
  for ((r = 1; r <= runs; r++)); do
    # shellcheck disable=SC2086
    solve "$label" "$r" fw $args
    # shellcheck disable=SC2086
    solve "$label" "$r" sssp $args
    # shellcheck disable=SC2086
    ((r <= AUTO_RUNS)) && solve "$label" "$r" auto $args
  done
  echo "$label done at $(( $(date +%s) - START )) s"
done < "$CASES"
python3 "$HERE/auto_choice_summary.py" "$O/runs.jsonl" > "$O/summary.csv"
cat "$O/summary.csv"
rm -rf "$TMP"
