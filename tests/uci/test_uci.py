#!/usr/bin/env python3
"""End-to-end test of `sargon uci` with a real UCI client: python-chess's engine module.

Usage: python3 tests/uci/test_uci.py <path to the sargon binary>

The engine is `port` unless SARGON_UCI_ENGINE says `emulator`. Run by tests/it/uci_python.rs.
"""

import os
import sys
import time
import logging
if os.environ.get("UCI_DEBUG"): logging.basicConfig(level=logging.DEBUG)

import chess
import chess.engine


def check(cond, what):
    if not cond:
        raise AssertionError(what)
    print("ok:", what)


def main():
    binary = sys.argv[1]
    kind = os.environ.get("SARGON_UCI_ENGINE", "port")
    engine = chess.engine.SimpleEngine.popen_uci([binary, "uci", "--engine", kind], timeout=30)
    try:
        check(engine.id.get("name", "").startswith("Sargon 1978"), "id name: %r" % engine.id.get("name"))
        check("Spracklen" in engine.id.get("author", ""), "id author")
        check({"Engine", "FixedDepth", "OwnBook"} <= set(engine.options), "options: %s" % sorted(engine.options))

        # 1. Analyse a position to depth 3.
        board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
        info = engine.analyse(board, chess.engine.Limit(depth=3))
        check(info.get("depth") == 3, "analyse depth 3: depth %r" % info.get("depth"))
        check("score" in info, "analyse: score %s" % info.get("score"))
        pv = info.get("pv", [])
        check(len(pv) >= 1, "analyse: pv %s" % " ".join(m.uci() for m in pv))
        b = board.copy()
        for m in pv:
            check(m in b.legal_moves, "pv move %s legal" % m.uci())
            b.push(m)

        # 2. A short game against itself: the book, then fixed depths, move times and a clock.
        board = chess.Board()
        limits = [
            chess.engine.Limit(depth=2),
            chess.engine.Limit(time=0.3),
            chess.engine.Limit(depth=2, time=2.0),
            chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.1, black_inc=0.1),
        ]
        engine.configure({"OwnBook": True})
        for ply in range(8):
            limit = limits[ply % len(limits)]
            t0 = time.monotonic()
            result = engine.play(board, limit)
            took = time.monotonic() - t0
            check(result.move is not None and result.move in board.legal_moves,
                  "ply %d: %s legal (%s, %.2f s)" % (ply + 1, result.move, limit, took))
            if limit.time is not None:
                check(took < limit.time + 0.5, "ply %d: within the move time" % (ply + 1))
            if limit.white_clock is not None:
                check(took < 5 * 0.75, "ply %d: within the clock" % (ply + 1))
            board.push(result.move)
        print("game:", chess.Board().variation_san(board.move_stack))

        # 3. Infinite analysis, stopped: the answer comes promptly.
        board = chess.Board("r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9")
        with engine.analysis(board) as analysis:
            deadline = time.monotonic() + 60
            for info in analysis:
                if info.get("depth", 0) >= 1 or time.monotonic() > deadline:
                    break
            time.sleep(0.3)
            t0 = time.monotonic()
            analysis.stop()
            best = analysis.wait()
            took = time.monotonic() - t0
        check(best.move is not None and best.move in board.legal_moves,
              "infinite analysis stopped: bestmove %s" % best.move)
        check(took < 1.0, "stop answered in %.3f s" % took)

        # The engine is still usable after the stop.
        result = engine.play(board, chess.engine.Limit(depth=1))
        check(result.move in board.legal_moves, "after stop: %s legal" % result.move)
    finally:
        engine.quit()
    print("all UCI checks passed")


if __name__ == "__main__":
    main()
