#!/bin/bash
# The referee's own speed (issue 35): events per second of reading and comparing, with the
# original's side read from the trace cache and the other side a recorded trace replayed
# by `exec:cat FILE`, so that neither producer costs anything. The first run fills the
# cache (the emulator searches once); the timed runs read it. Prints, per run, the events
# compared, the comparison's wall time from the results record, and the process's CPU.
# Usage: scripts/referee-throughput.sh [SARGON_BINARY] [FEN] [DEPTH] [SCRATCH_DIR]
set -u
S=$(realpath "${1:-target/debug/sargon}")
FEN=${2:-r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3}
DEPTH=${3:-4}
D=${4:-/tmp/sargon-referee-throughput}; mkdir -p "$D"
echo "machine: $(lscpu | grep 'Model name' | sed 's/ \+/ /g'), $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg)"
"$S" trace "$FEN" --depth "$DEPTH" --no-book --format jsonl > "$D/trace.jsonl"
echo "trace: $(wc -l < "$D/trace.jsonl") events, $(stat -c %s "$D/trace.jsonl") bytes"
"$S" diff "$FEN" -d "$DEPTH" --no-book --cache-dir "$D/cache" --right "exec:cat '$D/trace.jsonl'" > /dev/null 2>&1
for i in 1 2 3 4 5; do
  rm -f "$D/out.jsonl"
  /usr/bin/time -f "%U %S" -o "$D/time" "$S" diff "$FEN" -d "$DEPTH" --no-book --cache-dir "$D/cache" \
    --right "exec:cat '$D/trace.jsonl'" --out "$D/out.jsonl" > /dev/null 2>&1
  python3 - "$D/out.jsonl" "$D/time" <<'PY'
import json, sys
r = [r for r in map(json.loads, open(sys.argv[1])) if 'plan' not in r][0]
user, sys_ = map(float, open(sys.argv[2]).read().split()[-2:])
cpu = user + sys_
print(f"events {r['events']} cached {r['left'].get('cached', False)} wall {r['wall_us']/1e6:.3f} s "
      f"({r['events']/r['wall_us']*1e6/1e3:.0f} k events/s)  process cpu {cpu:.2f} s "
      f"({r['events']/cpu/1e3:.0f} k events/s of cpu)")
PY
done
