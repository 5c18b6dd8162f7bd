#!/usr/bin/env python3
"""The original's speed on its two Z80 cores, side by side (docs/emulator.md).

    scripts/core_speed.py SARGON_BINARY EPD_FILE [N [DEPTH]]

Runs `sargon analyze FEN --engine emulator --core CORE --depth DEPTH --format json` on each
of the first N positions of EPD_FILE (default 50, depth 3), on iz80 and on z80emu one after
the other for each position (so that a change in the machine's load falls on both alike),
checks that both cores chose the same move with the same score, instruction and T-state
counts, and prints each core's instructions, search time (the search alone, as `analyze`
measures it: not the process's start) and instructions per second, and their ratio.
Needs an imported ROM. Nothing is written.
"""

import json
import subprocess
import sys

CORES = ["iz80", "z80emu"]


def analyse(sargon, fen, depth, core):
    out = subprocess.run(
        [sargon, "analyze", fen, "--engine", "emulator", "--core", core,
         "--depth", str(depth), "--format", "json"],
        check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(out)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sargon, epd = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    depth = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    fens = []
    with open(epd) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                # An EPD line's four fields; analyze reads them (with a note on stderr).
                fens.append(" ".join(line.split()[:4]))
    fens = fens[:n]
    total = {c: {"instructions": 0, "ms": 0.0} for c in CORES}
    for i, fen in enumerate(fens):
        results = {c: analyse(sargon, fen, depth, c) for c in CORES}
        a, b = (results[c] for c in CORES)
        same = ["best_uci", "sargon_score", "z80_instructions", "t_states", "pv_uci"]
        for key in same:
            if a[key] != b[key]:
                sys.exit(f"position {i} ({fen}): {key} differs: {a[key]} / {b[key]}")
        for c in CORES:
            total[c]["instructions"] += results[c]["z80_instructions"]
            total[c]["ms"] += results[c]["wall_ms"]
    print(f"{len(fens)} positions of {epd}, depth {depth}: the same moves, scores, "
          "instruction and T-state counts on both cores")
    rate = {}
    for c in CORES:
        t = total[c]
        rate[c] = t["instructions"] / (t["ms"] / 1000.0)
        print(f"{c:>7}: {t['instructions']:,} instructions in {t['ms'] / 1000.0:.2f} s, "
              f"{rate[c] / 1e6:.1f} M instructions/s")
    print(f"z80emu / iz80: {rate['z80emu'] / rate['iz80']:.2f}")


if __name__ == "__main__":
    main()
