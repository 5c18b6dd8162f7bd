#!/usr/bin/env python3
"""python-chess drives `sargon uci`: the UCI conventions (OwnBook, MultiPV, searchmoves,
UCI_AnalyseMode, ponder) and the hardening (refused positions, an engine that cannot start,
malformed go words, the end of the input).

Usage: check_uci_conventions.py <sargon binary> <engine: port|emulator> <empty dir>

The empty directory stands for a ROM store with no ROM in it. Run by tests/it/uci_python.rs;
prints one "ok: ..." line per check and "all UCI convention checks passed" at the end.
"""

import os
import subprocess
import sys
import time

import chess
import chess.engine

MIDDLEGAME = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"


def check(cond, what):
    if not cond:
        raise AssertionError(what)
    print("ok:", what)


def cp(info):
    return info["score"].relative.score(mate_score=100000)


def conventions(binary, kind):
    engine = chess.engine.SimpleEngine.popen_uci([binary, "uci", "--engine", kind], timeout=60)
    try:
        options = set(engine.options)
        check({"OwnBook", "MultiPV", "UCI_AnalyseMode", "Ponder"} <= options,
              "options: %s" % sorted(options))
        board = chess.Board(MIDDLEGAME)

        # MultiPV 3: three lines, three different first moves, scores not increasing.
        infos = engine.analyse(board, chess.engine.Limit(depth=2), multipv=3)
        check(len(infos) == 3, "MultiPV 3: %d lines" % len(infos))
        firsts = [i["pv"][0] for i in infos]
        check(len(set(firsts)) == 3, "MultiPV 3: first moves %s" % [m.uci() for m in firsts])
        scores = [cp(i) for i in infos]
        check(scores == sorted(scores, reverse=True), "MultiPV 3: scores %s" % scores)
        for i in infos:
            b = board.copy()
            for m in i["pv"]:
                check(m in b.legal_moves, "MultiPV pv move %s legal" % m.uci())
                b.push(m)

        # searchmoves: the move is among those given.
        given = [chess.Move.from_uci(m) for m in ("a2a3", "h2h4", "e1g1")]
        result = engine.play(board, chess.engine.Limit(depth=2), root_moves=given)
        check(result.move in given, "searchmoves: bestmove %s" % result.move)
        info = engine.analyse(board, chess.engine.Limit(depth=2), root_moves=given)
        check(info["pv"][0] in given, "searchmoves: analysis pv starts %s" % info["pv"][0])

        # UCI_AnalyseMode (python-chess sets it for analyse): a PV at the initial position.
        info = engine.analyse(chess.Board(), chess.engine.Limit(depth=2))
        check(info.get("depth") == 2 and len(info.get("pv", [])) >= 1 and "score" in info,
              "analyse the initial position: depth %s pv %s" % (info.get("depth"), info.get("pv")))

        # OwnBook true: the book move, announced at depth 0 with its PV.
        engine.configure({"OwnBook": True})
        result = engine.play(chess.Board(), chess.engine.Limit(depth=2), info=chess.engine.INFO_ALL)
        check(result.info.get("depth") == 0 and result.info.get("pv") == [result.move],
              "OwnBook true: book move %s announced %s" % (result.move, result.info))
        # OwnBook false: a searched move.
        engine.configure({"OwnBook": False})
        result = engine.play(chess.Board(), chess.engine.Limit(depth=2), info=chess.engine.INFO_ALL)
        check(result.move in chess.Board().legal_moves and result.info.get("depth") == 2
              and "score" in result.info,
              "OwnBook false: searched move %s (%s)" % (result.move, result.info.get("depth")))

        # Pondering: python-chess sends go ponder after each move, then ponderhit or stop.
        board = chess.Board(MIDDLEGAME)
        for ply in range(3):
            result = engine.play(board, chess.engine.Limit(depth=2), ponder=True)
            check(result.move in board.legal_moves, "ponder ply %d: %s legal" % (ply + 1, result.move))
            board.push(result.move)
            if result.ponder is not None and result.ponder in board.legal_moves:
                board.push(result.ponder)  # the move pondered on: a ponderhit next
            else:
                board.push(next(iter(board.legal_moves)))
    finally:
        engine.quit()


class Raw:
    """`sargon uci` spoken to line by line, for what python-chess never sends."""

    def __init__(self, args, env=None):
        self.p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, env=env)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix, timeout=30):
        """The lines up to and including the first that starts with `prefix`."""
        lines = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.p.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines
        raise AssertionError("no %r in %s" % (prefix, lines))

    def close(self):
        self.p.stdin.close()
        t0 = time.monotonic()
        self.p.wait(timeout=5)
        return time.monotonic() - t0


def hardening(binary, kind, empty):
    raw = Raw([binary, "uci", "--engine", kind])
    raw.send("uci")
    raw.until("uciok")
    # An illegal move in the list, then an invalid FEN: bestmove 0000 with the reason.
    for bad in ("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c9",
                "position fen 8/8/8/8 w - - 0 1"):
        raw.send(bad)
        for _ in range(2):
            raw.send("go depth 2")
            lines = raw.until("bestmove")
            check(lines[-1] == "bestmove 0000"
                  and any(l.startswith("info string go: no valid position") for l in lines),
                  "%s: %s" % (bad[:40], lines[-1]))
    raw.send("position fen " + MIDDLEGAME)
    raw.send("go depth 1")
    lines = raw.until("bestmove")
    check(lines[-1] != "bestmove 0000", "a valid position plays again: %s" % lines[-1])
    # Malformed go words are named; the valid limits apply.
    raw.send("go movetime abc depth 1")
    lines = raw.until("bestmove")
    check(any("go movetime `abc`" in l for l in lines) and lines[-1] != "bestmove 0000",
          "go movetime abc: %s" % lines)
    # Echoed input is cut.
    raw.send("x" * 3000)
    raw.send("isready")
    lines = raw.until("readyok")
    check(all(len(l) < 400 for l in lines), "a 3000-character line echoed in %d" % max(map(len, lines)))
    # The end of the input stops a long search at once.
    raw.send("go depth 100")
    time.sleep(0.3)
    took = raw.close()
    check(took < 1.5, "input closed during go depth 100: exit in %.2f s" % took)

    # The emulator with an empty ROM store: refused before uciok on the command line...
    env = dict(os.environ, SARGON_ROMS=empty)
    try:
        chess.engine.SimpleEngine.popen_uci([binary, "uci", "--engine", "emulator"], env=env,
                                            timeout=10)
        check(False, "sargon uci --engine emulator without a ROM")
    except chess.engine.EngineTerminatedError:
        check(True, "sargon uci --engine emulator without a ROM exits before uciok")
    # ...and as an option: bestmove 0000 until a working engine is chosen.
    engine = chess.engine.SimpleEngine.popen_uci([binary, "uci"], env=env, timeout=30)
    try:
        engine.configure({"Engine": "emulator"})
        board = chess.Board(MIDDLEGAME)
        result = engine.play(board, chess.engine.Limit(depth=1))
        # python-chess reads `bestmove 0000` as the null move (or None).
        check(not result.move, "Engine emulator without a ROM: no move (%s)" % result.move)
        engine.configure({"Engine": "port"})
        result = engine.play(board, chess.engine.Limit(depth=1))
        check(result.move in board.legal_moves, "Engine port again: %s" % result.move)
    finally:
        engine.quit()


def main():
    binary, kind, empty = sys.argv[1:4]
    conventions(binary, kind)
    hardening(binary, kind, empty)
    print("all UCI convention checks passed")


if __name__ == "__main__":
    main()
