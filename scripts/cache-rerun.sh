#!/bin/bash
# What the cache of the original's traces saves on a rerun: varied-200 at depths 1-3 run
# without the cache, with an empty one (filling it), and twice with the full one, one after
# the other; wall time, and each side's CPU time from the results records.
# Usage: scripts/cache-rerun.sh [SARGON_BINARY] [SCRATCH_DIR]
set -u
S=${1:-sargon}
D=${2:-/tmp/sargon-cache-rerun}; rm -rf "$D"; mkdir -p "$D"
cd "$(dirname "$0")/.."
run() {
  local name=$1; shift
  local t0=$(date +%s.%N)
  $S diff --epd tests/positions/varied-200.epd --depths 1-3 --out $D/$name.jsonl --cache-dir $D/cache "$@" > $D/$name.out 2> $D/$name.err
  local rc=$?
  local t1=$(date +%s.%N)
  python3 - "$D/$name.jsonl" "$name" "$(echo "$t1 - $t0" | bc)" "$rc" <<'PY'
import json, sys
rs = [r for r in map(json.loads, open(sys.argv[1])) if 'plan' not in r]  # the first line is the run's plan
left = sum(r['left']['cpu_us'] or 0 for r in rs) / 1e6
right = sum(r['right']['cpu_us'] or 0 for r in rs) / 1e6
cached = sum(1 for r in rs if r['left'].get('cached'))
print(f"{sys.argv[2]:10s} exit {sys.argv[4]} searches {len(rs)} cached {cached} wall {float(sys.argv[3]):7.1f} s  left cpu {left:7.1f} s  right cpu {right:6.1f} s")
PY
  tail -1 $D/$name.out; tail -1 $D/$name.err
}
echo "machine: $(lscpu | grep 'Model name' | sed 's/ \+/ /g'), $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
run nocache --no-cache
run cold
run warm
run warm2
du -sh $D/cache; ls $D/cache | wc -l
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
