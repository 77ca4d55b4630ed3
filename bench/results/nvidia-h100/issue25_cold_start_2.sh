#!/usr/bin/env bash
# Issue 25, cold start, second call: the one fw kernel (ONE_FW_KERNEL) against the
# three separate kernels built one after another (= the single program before:
# first call, issue25_cold_start.txt, 3.17 against 3.13 s), interleaved, empty
# caches as in issue25_cold_start.sh; then two warm runs and two --verify checks.
set -u
source "$(dirname "$0")/issue25_cold_start_common.sh"
"$B" --version | head -2
declare -A env_of=([new]="X=1" [before]="OCL_SP_FW_SEPARATE_KERNELS=1 OCL_SP_BUILD_SERIAL=1")
for i in 1 2 3 4; do
  cold new "$i"
  [ "$i" -le 2 ] && cold before "$i"
done
for f in /tmp/cache_new/*.oclbin; do
  echo "new: $(wc -c <"$f") bytes, $(grep -ac '^\.entry\|^\.visible \.entry' "$f") .entry"
done
cu=$(mktemp -d)
for i in 1 2; do
  CUDA_CACHE_PATH="$cu" OCL_SP_CACHE_DIR=/tmp/cache_new \
    "$B" --device "${DEV:-nvidia}" --n "${N:-10000}" --json --quiet >"$O/j" 2>/dev/null
  echo "{\"variant\":\"warm_new\",\"run\":$i,\"report\":$(cat "$O/j")}" >>"$O/cold.jsonl"
done
for a in "--n 2000" "--n 1300 --negative --type float32"; do
  printf '%s: ' "$a"
  OCL_SP_CACHE_DIR=/tmp/cache_new "$B" --device "${DEV:-nvidia}" --algo fw $a --verify --quiet 2>&1 |
    grep -E "verify|error" | tr -s ' '
done
python3 - "$O/cold.jsonl" <<'PY'
import json, statistics, sys
by = {}
for l in open(sys.argv[1]):
    r = json.loads(l)
    by.setdefault(r["variant"], []).append(r["report"])
for v, rs in by.items():
    tp = [x["t_program"] for x in rs]
    print("%-9s n=%d t_program median %.3f (%s) t_context median %.3f t_k %s cache %s" % (
        v, len(rs), statistics.median(tp), " ".join("%.3f" % t for t in tp),
        statistics.median([x["t_context"] for x in rs]),
        " ".join("%.5f" % x["t_k"] for x in rs), rs[0]["program_cache"]))
PY
