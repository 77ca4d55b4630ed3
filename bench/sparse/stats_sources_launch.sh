#!/usr/bin/env bash
# `--stats FILE --sources 0-999` of the 2^24-vertex geometric graph (int64, a
# source a group): this build ($H/ocl_sp) against the base build ($H/ocl_sp.base)
# in one call, interleaved (new first), each run a fresh process after a warm-up
# of both programs (2^21, --type int64: the same kernels' build, one run each,
# kept as a data point); a run starts only where its expected wall (NEW_S,
# BASE_S) ends before LIMIT_S. T_k / solve / per-kernel seconds and the launches from
# --json, the wall and peak RSS from /usr/bin/time -v, md5 of every stats file.
# Everything under $R (log.txt, runs.jsonl, *.err, md5.txt).
# VARIANTS (below): this build's tunables at 2^24 instead of the pairs.
# Usage (device tool): bash carry-NAME/stats_sources_launch.sh
set -uo pipefail
H=${H:-$(cd "$(dirname "$0")" && pwd)}
R=${R:-$OUT/launch}
PAIRS=${PAIRS:-3}
LIMIT_S=${LIMIT_S:-200}
NEW_S=${NEW_S:-35}
BASE_S=${BASE_S:-45}
COMMIT=${COMMIT:-$(cat "$H/COMMIT" 2>/dev/null || echo unknown)}
BASE_COMMIT=${BASE_COMMIT:-$(cat "$H/COMMIT.base" 2>/dev/null || echo unknown)}
mkdir -p "$R"
export LD_LIBRARY_PATH=$H${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
START=$(date +%s)
elapsed() { echo $(( $(date +%s) - START )); }
log() { echo "$@" | tee -a "$R/log.txt"; }
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$R/log.txt"

# one BINARY LABEL COMMIT ARGS...: a run, a line in log.txt and runs.jsonl.
one() {
  local bin=$1 l=$2 c=$3; shift 3
  OCL_SP_PROFILE=1 /usr/bin/time -v timeout 100 "$bin" "$@" --device "${DEVICE:-nvidia}" --stats /tmp/launch_stats.csv --json \
    > "$R/$l.json" 2> "$R/$l.err"
  local md5; md5=$(md5sum < /tmp/launch_stats.csv | cut -c1-32)
  echo "$l $md5" >> "$R/md5.txt"
  python3 - "$l" "$R" "$c" "$md5" "$@" <<'PY'
import json, re, sys
l, r, c, md5 = sys.argv[1:5]
d = json.load(open('%s/%s.json' % (r, l)))
err = open('%s/%s.err' % (r, l)).read()
wall = re.search(r'Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)', err)
wall_s = (int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60 + float(wall.group(3))) if wall else None
rss = re.search(r'Maximum resident set size \(kbytes\): (\d+)', err)
ks = d.get('kernel_seconds', {})
line = '%-16s t_k %.3f solve %.3f wall %s launches %s %s md5 %s' % (
    l, d['t_k'], d['solve'], wall_s, d.get('kernel_launches'), {k: round(v, 3) for k, v in ks.items()}, md5[:12])
print(line, flush=True)
open(r + '/log.txt', 'a').write(line + '\n')
open(r + '/runs.jsonl', 'a').write(json.dumps({
    'label': l, 'command': 'ocl_sp ' + ' '.join(sys.argv[5:]) + ' --device nvidia --stats FILE --json',
    'commit': c, 'driver': 'bench/sparse/stats_sources_launch.sh', 't_k': d['t_k'], 'solve': d['solve'],
    'wall': wall_s, 'peak_rss_kb': int(rss.group(1)) if rss else None, 'kernel_launches': d.get('kernel_launches'),
    'kernel_seconds': ks, 'placement': d.get('placement'), 'type': d.get('type'), 'device': d.get('device'),
    'driver_version': d.get('driver'), 'stats_md5': md5}) + '\n')
PY
}

G21=${G21:-"--generator geometric --n 2097152 --type int64 --sources 0-999"}
G24=${G24:-"--generator geometric --n 16777216 --sources 0-999"}
# VARIANTS="LABEL=PARAM[,PARAM] ...": instead of the pairs, this build once a
# variant (--param PARAM each) after its warm-up, e.g. "delta200=DELTA=200 vw16=VW=16".
if [ -n "${VARIANTS:-}" ]; then
  one "$H/ocl_sp" warm21-new "$COMMIT" $G21
  for v in $VARIANTS; do
    [ $(( $(elapsed) + NEW_S )) -lt "$LIMIT_S" ] || break
    label=${v%%=*}; params=()
    IFS=, read -ra ps <<< "${v#*=}"
    for p in "${ps[@]}"; do [ -n "$p" ] && params+=(--param "$p"); done
    one "$H/ocl_sp" "geo24-$label" "$COMMIT" $G24 "${params[@]}"
  done
  log "done at $(elapsed) s"
  exit 0
fi
one "$H/ocl_sp" warm21-new "$COMMIT" $G21
one "$H/ocl_sp.base" warm21-base "$BASE_COMMIT" $G21
log "warm-ups done at $(elapsed) s"
for i in $(seq "$PAIRS"); do
  [ $(( $(elapsed) + NEW_S )) -lt "$LIMIT_S" ] || break
  one "$H/ocl_sp" "geo24-new-$i" "$COMMIT" $G24
  [ $(( $(elapsed) + BASE_S )) -lt "$LIMIT_S" ] || break
  one "$H/ocl_sp.base" "geo24-base-$i" "$BASE_COMMIT" $G24
done
log "done at $(elapsed) s"
