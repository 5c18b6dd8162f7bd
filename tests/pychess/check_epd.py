#!/usr/bin/env python3
"""Check `sargon analyze --epd IN --format epd` output against IN, with python-chess.

Usage: python3 tests/pychess/check_epd.py IN.epd OUT.epd DEPTH

Every position of IN comes back in order, the same position (board, side, castling, en
passant, move counters), with its own operations kept (id, bm, am, c0..c9, others) and the
results added (replacing any the input had): acd = DEPTH (0 for a book move), acn > 0 nodes, acs seconds, ce centipawns
(absent for a book move), pm a legal move that starts pv, a legal line. Prints
"epd checks" at the end.
"""

import sys

import chess


RESULTS = {"acd", "acn", "acs", "ce", "pm", "pv"}


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def lines(path):
    with open(path) as f:
        return [l.strip() for l in f if l.strip() and not l.startswith("#")]


def read_input(line):
    """An input line: EPD, or (as sargon also reads) a full FEN then the operations."""
    try:
        return chess.Board.from_epd(line)
    except ValueError:
        parts = line.split(None, 6)
        board = chess.Board(" ".join(parts[:6]))
        _, ops = chess.Board.from_epd(" ".join(parts[:4]) + " " + (parts[6] if len(parts) > 6 else ""))
        return board, ops


def main():
    depth = int(sys.argv[3])
    ins, outs = lines(sys.argv[1]), lines(sys.argv[2])
    check(len(ins) == len(outs), "%d positions in, %d out" % (len(ins), len(outs)))
    for i, (a, b) in enumerate(zip(ins, outs), 1):
        board_in, ops_in = read_input(a)
        board_out, ops = chess.Board.from_epd(b)
        check(board_in.fen() == board_out.fen(), "line %d: %s became %s" % (i, board_in.fen(), board_out.fen()))
        for k, v in ops_in.items():
            if k in RESULTS:
                continue  # replaced by this analysis's
            check(ops.get(k) == v, "line %d: operation %s: %r became %r" % (i, k, v, ops.get(k)))
        book = ops["acd"] == 0
        check(ops["acd"] in (0, depth), "line %d: acd %r" % (i, ops["acd"]))
        check(isinstance(ops["acn"], int) and (book or ops["acn"] > 0), "line %d: acn %r" % (i, ops.get("acn")))
        check(isinstance(ops["acs"], int) and ops["acs"] >= 0, "line %d: acs" % i)
        check(book == ("ce" not in ops), "line %d: ce %r (book %s)" % (i, ops.get("ce"), book))
        if not book:
            check(isinstance(ops["ce"], int), "line %d: ce" % i)
        pm, pv = ops["pm"], ops["pv"]
        check(pm in board_out.legal_moves, "line %d: pm %s" % (i, pm))
        check(pv and pv[0] == pm, "line %d: pv %s starts with pm %s" % (i, pv, pm))
        b = board_out.copy()
        for m in pv:
            check(m in b.legal_moves, "line %d: pv move %s legal" % (i, m))
            b.push(m)
        print("line %d: pm %s ce %s acn %s" % (i, board_out.san(pm), ops.get("ce"), ops["acn"]))
    print("epd checks")


if __name__ == "__main__":
    main()
