#!/usr/bin/env python3
"""Set whole games measured on the emulator beside the estimate of the same games.

`sargon history games --estimate-levels` has the port play the games the emulator would
play (same openings, seed, book byte and move cap), so a game measured at a level with
`--levels` and the estimate of that level's game of the same number are the same moves.
For every such pair this prints the game's mean time per move measured and estimated, and
the range of the single moves' ratio (book moves left out: they are not estimated).

Usage: scripts/estimate_vs_games.py GAMES.jsonl ESTIMATES.jsonl
"""
import json
import sys


def load(path):
    return {(g["level"], g["game"]): g for g in map(json.loads, open(path))}


measured, estimated = load(sys.argv[1]), load(sys.argv[2])
print("| level | game | moves | measured mean per move | estimated mean per move "
      "| estimate / measured | single moves (least to greatest) |")
print("|---:|---:|---:|---:|---:|---:|---:|")
for key in sorted(measured.keys() & estimated.keys()):
    m, e = measured[key], estimated[key]
    ucis = [x["uci"] for x in m["moves"]]
    if ucis != [x["uci"] for x in e["moves"]]:
        sys.exit(f"level {key[0]} game {key[1]}: the two files hold different games")
    mean = lambda g: sum(x["trs80_seconds"] for x in g["moves"]) / len(g["moves"])
    ratios = sorted(y["trs80_seconds"] / x["trs80_seconds"]
                    for x, y in zip(m["moves"], e["moves"]) if not x["book"])
    print(f"| {key[0]} | {key[1]} | {len(ucis)} | {mean(m) / 60:.2f} min | {mean(e) / 60:.2f} min "
          f"| {mean(e) / mean(m):.4f} | {ratios[0]:.3f} to {ratios[-1]:.3f} |")
