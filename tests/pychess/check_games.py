#!/usr/bin/env python3
"""Check a PGN file that `sargon play` wrote, with python-chess.

Usage: python3 tests/pychess/check_games.py FILE.pgn [--max-moves N]

Every game must read back without errors, with legal moves from its FEN (when SetUp says
so), PlyCount equal to its moves, a Termination tag, the per-move comments of the engines
("+0.35/4 0.21s", "book", ...), and a result the final position bears out:

* Termination "normal", decisive: checkmate, won by the side that gave it;
* Termination "normal", drawn: stalemate, insufficient material, a threefold repetition or
  the fifty-move rule (python-chess's claim rules);
* Termination "adjudication": a draw with N moves per side played after the opening
  (--max-moves N);
* Termination "rules infraction" / "abandoned": decisive, the game not over on the board.

Prints one JSON line per game (result, termination, plies) and "all games check" at the end.
"""

import json
import re
import sys

import chess
import chess.pgn

# An engine's comment on its move, at the start of the move's comment.
COMMENT = re.compile(r"^(book|([+-](\d+\.\d\d|M\d+)(/\d+)? )?\d+\.\d\ds)( |$)")
# How the game ended, in the last comment.
ENDING = r"(White mates|Black mates|Draw by \w|(White|Black) (played an illegal move|exited|did not answer))"


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def main():
    path = sys.argv[1]
    max_moves = None
    if "--max-moves" in sys.argv:
        max_moves = int(sys.argv[sys.argv.index("--max-moves") + 1])
    games = 0
    with open(path) as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            games += 1
            h = game.headers
            where = "game %d (%s - %s)" % (games, h.get("White"), h.get("Black"))
            check(not game.errors, "%s: errors %s" % (where, game.errors))
            for tag in ["Event", "Site", "Date", "Round", "White", "Black", "Result",
                        "PlyCount", "Termination", "TimeControl"]:
                check(tag in h, "%s: tag %s" % (where, tag))
            if "FEN" in h:
                check(h.get("SetUp") == "1", "%s: FEN without SetUp" % where)
            board = game.board()
            nodes = list(game.mainline())
            check(int(h["PlyCount"]) == len(nodes), "%s: PlyCount %s, %d moves" % (where, h["PlyCount"], len(nodes)))
            engine_plies = 0
            for i, node in enumerate(nodes):
                check(node.move in board.legal_moves, "%s: move %d legal" % (where, i + 1))
                board.push(node.move)
                comment = " ".join(node.comment.split())
                if COMMENT.match(comment):
                    engine_plies += 1
                else:
                    # A move of the opening: no comment, except the ending on the last move.
                    check(comment == "" or i == len(nodes) - 1,
                          "%s: move %d comment %r" % (where, i + 1, comment))
            last = " ".join(nodes[-1].comment.split()) if nodes else " ".join(game.comment.split())
            check(re.search(ENDING, last), "%s: the ending in words: %r" % (where, last))
            result = h["Result"]
            term = h["Termination"]
            check(result == game.headers["Result"], where)
            if term == "normal":
                if result == "1-0" or result == "0-1":
                    check(board.is_checkmate(), "%s: %s by the rules but no mate" % (where, result))
                    winner = chess.WHITE if result == "1-0" else chess.BLACK
                    check(board.turn != winner, "%s: the winner is mated" % where)
                else:
                    check(result == "1/2-1/2", "%s: result %s" % (where, result))
                    check(board.is_stalemate() or board.is_insufficient_material()
                          or board.is_repetition(3) or board.can_claim_fifty_moves(),
                          "%s: drawn by the rules, but the position is not a draw: %s" % (where, board.fen()))
            elif term == "adjudication":
                check(result == "1/2-1/2", "%s: adjudicated %s" % (where, result))
                check(board.outcome(claim_draw=True) is None, "%s: adjudicated, but over by the rules" % where)
                if max_moves is not None:
                    check(engine_plies == 2 * max_moves,
                          "%s: adjudicated after %d plies, cap %d moves" % (where, engine_plies, max_moves))
            elif term in ("rules infraction", "abandoned"):
                check(result in ("1-0", "0-1"), "%s: %s but %s" % (where, term, result))
                check(board.outcome(claim_draw=True) is None, "%s: %s, but over by the rules" % (where, term))
            else:
                raise AssertionError("%s: Termination %r" % (where, term))
            print(json.dumps({"result": result, "termination": term, "plies": len(nodes),
                              "engine_plies": engine_plies, "white": h["White"], "black": h["Black"]}))
    check(games > 0, "no games in %s" % path)
    print("all games check")


if __name__ == "__main__":
    main()
