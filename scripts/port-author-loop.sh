#!/bin/bash
# A port author's loop (issue 35): a first run of `sargon diff` against a port with a fault
# (our own port behind exec:, its third event dropped in every position with black to
# move), the fault "fixed", and the rerun. With the cache of the original's traces, the
# rerun runs no search of the original, the diverging ones included: only the port runs.
# Prints wall time and each side's CPU time (from the results records) for each run.
# Usage: scripts/port-author-loop.sh [SARGON_BINARY] [EPD] [DEPTHS] [SCRATCH_DIR]
set -u
S=$(realpath "${1:-target/debug/sargon}")
EPD=${2:-tests/positions/varied-200.epd}
DEPTHS=${3:-1-3}
D=${4:-/tmp/sargon-port-author-loop}; rm -rf "$D"; mkdir -p "$D"
cd "$(dirname "$0")/.."
port="'$S' trace \"\$SARGON_FEN\" --depth \"\$SARGON_DEPTH\" --format jsonl \$([ \"\$SARGON_BOOK\" = 0 ] && echo --no-book)"
broken="exec:case \"\$SARGON_FEN\" in *' b '*) $port | sed 3d;; *) $port;; esac"
fixed="exec:$port"
run() {
  local name=$1; shift
  local t0=$(date +%s.%N)
  "$S" diff --epd "$EPD" --depths "$DEPTHS" --keep-going --out $D/$name.jsonl --cache-dir $D/cache "$@" > $D/$name.out 2> $D/$name.err
  local rc=$?
  local t1=$(date +%s.%N)
  python3 - "$D/$name.jsonl" "$name" "$(echo "$t1 - $t0" | bc)" "$rc" <<'PY'
import json, sys
rs = [r for r in map(json.loads, open(sys.argv[1])) if 'plan' not in r]  # the first line is the run's plan
left = sum(r['left']['cpu_us'] or 0 for r in rs) / 1e6
right = sum(r['right']['cpu_us'] or 0 for r in rs) / 1e6
cached = sum(1 for r in rs if r['left'].get('cached'))
div = sum(1 for r in rs if r['verdict'] == 'diverge')
events = sum(r['events'] for r in rs)
print(f"{sys.argv[2]:8s} exit {sys.argv[4]} searches {len(rs)} diverging {div} original read from cache {cached} "
      f"events {events} wall {float(sys.argv[3]):7.1f} s  left cpu {left:7.1f} s  right cpu {right:6.1f} s")
PY
  tail -1 $D/$name.err
}
echo "machine: $(lscpu | grep 'Model name' | sed 's/ \+/ /g'), $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "input: $EPD at depths $DEPTHS; sargon: $S"
run first --right "$broken"
run rerun --right "$fixed"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
