#!/usr/bin/env python3
"""Check the estimate of `sargon history games --estimate-levels` on the emulator.

For a few positions of the estimated games (fixed move numbers, not chosen by cost), search
the same position at the same level on the emulator (`sargon analyze --engine emulator`) and
set its documented T-states beside the estimate recorded for that move.

Usage: scripts/estimate_check.py SARGON ESTIMATES.jsonl LEVEL MOVE_INDEX...
(MOVE_INDEX counts Sargon's moves of each game from 1.) Needs python-chess.
"""
import json
import subprocess
import sys

import chess

sargon, path, level = sys.argv[1], sys.argv[2], int(sys.argv[3])
indices = [int(i) for i in sys.argv[4:]]
print("| game | move | evaluations | estimated T-states | emulator T-states | estimate / emulator |")
print("|---:|---:|---:|---:|---:|---:|")
for line in open(path):
    game = json.loads(line)
    if game["level"] != level:
        continue
    board = chess.Board(game["start_fen"])
    for i, move in enumerate(game["moves"], start=1):
        if i in indices and not move["book"]:
            out = subprocess.run(
                [sargon, "analyze", "--engine", "emulator", "--depth", str(level),
                 "--format", "json", board.fen()],
                capture_output=True, text=True, check=True)
            a = json.loads(out.stdout)
            assert a["best_uci"] == move["uci"], (a["best_uci"], move["uci"])
            print(f"| {game['game']} | {i} | {move['evaluations']} | {move['t_states']} | "
                  f"{a['t_states']} | {move['t_states'] / a['t_states']:.3f} |", flush=True)
        board.push_uci(move["uci"])
