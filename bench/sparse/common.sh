# The rows-in-lanes drivers' preamble (lanes_rows.sh, lanes_rows_dealt.sh), sourced:
#   source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# The binary $B = $C/ocl_sp (C: the carried folder, default carry-sparse), the
# program cache in /tmp/ocl_sp_cache, warmed for the per-source engine and
# LANES=8; one LABEL REPS OPTIONS... runs an sssp solve on the nvidia device REPS
# times and prints LABEL with its t_k, t_h, solve and wall (the --json report);
# same_grid_rows compares the 316 x 316 grid's rows per source and in lanes byte
# for byte.
set -uo pipefail
C=${C:-carry-sparse}; B=$C/ocl_sp
export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
$B --n 200 --algo sssp --device nvidia --quiet > /dev/null
$B --n 200 --algo sssp --device nvidia --param LANES=8 --quiet > /dev/null
one() {  # LABEL REPS OPTIONS...
  local l=$1 r=$2; shift 2
  for i in $(seq "$r"); do
    $B "$@" --algo sssp --device nvidia --json --quiet |
      python3 -c "import json,sys; d=json.load(sys.stdin); print(sys.argv[1], 't_k', d['t_k'], 't_h', d['t_h'], 'solve', d['solve'], 'wall', d.get('wall'))" "$l"
  done
}
same_grid_rows() {
  $B --generator grid --n 100000 --algo sssp --device nvidia --output /tmp/a.bin --quiet
  $B --generator grid --n 100000 --algo sssp --device nvidia --param LANES=8 --output /tmp/b.bin --quiet
  cmp /tmp/a.bin /tmp/b.bin && echo "grid316 rows: lanes == per-source (bytes)"
}
