#!/usr/bin/env python3
"""Check a PGN that `sargon annotate` wrote against the games it annotated, with python-chess.

Usage: python3 tests/pychess/check_annotated.py ORIGINAL.pgn ANNOTATED.pgn

For every game: the same tags and main line as the original, an Annotator tag, the summary
as the game's first comment, a comment from Sargon on every move ("Sargon agrees: ..." or
"Sargon prefers X: ..."), and where Sargon prefers another move, a legal variation that
starts with that move. Prints "annotations check" at the end.
"""

import re
import sys

import chess.pgn


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def games(path):
    out = []
    with open(path) as f:
        while True:
            g = chess.pgn.read_game(f)
            if g is None:
                return out
            out.append(g)


def main():
    originals, annotated = games(sys.argv[1]), games(sys.argv[2])
    check(len(originals) == len(annotated), "%d games in, %d out" % (len(originals), len(annotated)))
    for n, (o, a) in enumerate(zip(originals, annotated), 1):
        check(not a.errors, "game %d: errors %s" % (n, a.errors))
        for k, v in o.headers.items():
            check(a.headers.get(k) == v, "game %d: tag %s" % (n, k))
        check(a.headers.get("Annotator", "").startswith("Sargon 1978"), "game %d: Annotator" % n)
        check("the move played was Sargon's choice in" in " ".join(a.comment.split()), "game %d: summary %r" % (n, a.comment))
        moves_o = [m.uci() for m in o.mainline_moves()]
        moves_a = [m.uci() for m in a.mainline_moves()]
        check(moves_o == moves_a, "game %d: main line changed" % n)
        agreed = 0
        for node in a.mainline():
            c = " ".join(node.comment.split())
            m = re.search(r"Sargon (agrees|prefers (\S+)): (#-?\d+|[+-]\d+\.\d\d)/\d+", c)
            check(m, "game %d, move %s: comment %r" % (n, node.san(), c))
            if m.group(1) == "agrees":
                agreed += 1
                check(len(node.parent.variations) == 1, "game %d: a variation where Sargon agrees" % n)
            else:
                alternatives = node.parent.variations[1:]
                check(len(alternatives) == 1, "game %d, move %s: the variation" % (n, node.san()))
                var = alternatives[0]
                check(var.san() == m.group(2), "game %d: variation starts %s, comment says %s" % (n, var.san(), m.group(2)))
                check(var.move != node.move, "game %d: the variation is the move played" % n)
                # Every move of the variation is legal (python-chess would have recorded errors).
                b = var.parent.board()
                for v in [var] + list(var.mainline()):
                    check(v.move in b.legal_moves, "game %d: variation move legal" % n)
                    b.push(v.move)
        plies = len(moves_a)
        check(("in %d of %d moves" % (agreed, plies)) in a.comment.replace("\n", " "),
              "game %d: summary says %r, counted %d of %d" % (n, a.comment, agreed, plies))
        print("game %d: %d plies, Sargon agreed with %d" % (n, plies, agreed))
    print("annotations check")


if __name__ == "__main__":
    main()
