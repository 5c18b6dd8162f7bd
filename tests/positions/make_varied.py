#!/usr/bin/env python3
"""Make varied positions for `sargon diff`: tests/positions/varied-200.epd and varied-1000.epd.

Random but reproducible games (fixed seed) from the initial position, sampled at plies
spread from the opening to the endgame, mixed with random endgame set-ups (15 %); positions
that are over (mate, stalemate) or repeated are skipped. The moves are chosen with a mild
preference for captures and checks so that tactics, promotions and castling occur.

    python3 tests/positions/make_varied.py > tests/positions/varied-200.epd
    python3 tests/positions/make_varied.py 1000 2026 --en-passant 30 \\
        --exclude tests/positions/varied-200.epd --check-with target/release/sargon \\
        > tests/positions/varied-1000.epd

COUNT (default 200) and SEED (default 1978) are the arguments; the defaults make
varied-200.epd exactly as it was first made. --en-passant N makes N of the game positions
ones where an en passant capture is possible (rare otherwise: 1 in 200); --exclude EPD
leaves out the positions of another file. With --check-with SARGON, each position is
also given to `SARGON analyze FEN --depth 1` (the port) and left out if Sargon cannot take
it (e.g. an en passant square whose double push cannot be replayed). A summary of what the
positions hold is printed on stderr.
"""
import argparse
import random
import subprocess
import sys
from collections import Counter

import chess


def pick(rng, board):
    moves = list(board.legal_moves)
    weights = []
    for m in moves:
        w = 1.0
        if board.is_capture(m):
            w += 2.0
        if board.gives_check(m):
            w += 1.0
        if m.promotion:
            w += 3.0
        if board.is_castling(m):
            w += 3.0
        weights.append(w)
    return rng.choices(moves, weights)[0]


class SargonCheck:
    """Asks the `sargon` program whether it can search a position."""

    def __init__(self, program):
        self.program = program
        self.refused = Counter()

    def accepts(self, fen):
        if self.program is None:
            return True
        run = subprocess.run(
            [self.program, "analyze", fen, "--depth", "1", "--engine", "port"],
            capture_output=True,
            text=True,
        )
        if run.returncode == 0:
            return True
        reason = (run.stderr.strip().splitlines() or ["(no message)"])[0]
        self.refused[reason.replace(fen, "FEN")] += 1
        return False


def games(rng, count, seen, check):
    """Positions from random games, sampled at plies 4 to 90."""
    out = []
    while len(out) < count:
        board = chess.Board()
        stop_at = rng.randint(4, 90)
        for _ in range(stop_at):
            if board.is_game_over():
                break
            board.push(pick(rng, board))
        if board.is_game_over() or board.is_insufficient_material():
            continue
        key = board.epd()
        if key in seen:
            continue
        seen.add(key)
        if check.accepts(board.fen()):
            out.append(board.fen())
    return out


def en_passant(rng, count, seen, check):
    """Positions right after a double pawn push that can be taken en passant (rare in the
    sampled games, and the one case where Sargon must replay a move to set a position up)."""
    out = []
    while len(out) < count:
        board = chess.Board()
        look_from = rng.randint(2, 60)
        for ply in range(120):
            if board.is_game_over():
                break
            board.push(pick(rng, board))
            if ply >= look_from and board.has_legal_en_passant():
                break
        if not board.has_legal_en_passant() or board.is_game_over():
            continue
        key = board.epd()
        if key in seen:
            continue
        seen.add(key)
        if check.accepts(board.fen()):
            out.append(board.fen())
    return out


def sparse_endgames(rng, count, seen, check):
    """Kings plus up to four random men."""
    out = []
    while len(out) < count:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 6)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for sq in squares[2:]:
            kind = rng.choice([chess.PAWN, chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN])
            if kind == chess.PAWN and chess.square_rank(sq) in (0, 7):
                continue
            board.set_piece_at(sq, chess.Piece(kind, rng.choice([chess.WHITE, chess.BLACK])))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        board.fullmove_number = rng.randint(20, 60)
        if not board.is_valid() or board.is_game_over():
            continue
        if board.epd() in seen:
            continue
        seen.add(board.epd())
        if check.accepts(board.fen()):
            out.append(board.fen())
    return out


def composition(fens, from_games):
    """What the positions hold, one line per feature, for the summary."""
    c = Counter()
    for i, fen in enumerate(fens):
        board = chess.Board(fen)
        men = len(board.piece_map())
        if men <= 12:
            c["endgame (12 men or fewer)"] += 1
        elif board.fullmove_number <= 10:
            c["opening (move 10 or earlier)"] += 1
        else:
            c["middlegame"] += 1
        c["white to move" if board.turn == chess.WHITE else "black to move"] += 1
        if board.castling_rights:
            c["castling rights"] += 1
        if board.ep_square is not None:
            c["en passant square"] += 1
        if any(
            p.piece_type == chess.PAWN and chess.square_rank(sq) == (6 if p.color == chess.WHITE else 1)
            for sq, p in board.piece_map().items()
        ):
            c["pawn one step from promotion"] += 1
        if board.is_check():
            c["side to move in check"] += 1
        if men >= 24:
            c["24 men or more"] += 1
        if i >= from_games:
            c["random endgame set-ups"] += 1
    order = [
        "opening (move 10 or earlier)", "middlegame", "endgame (12 men or fewer)",
        "random endgame set-ups", "white to move", "black to move", "castling rights",
        "en passant square", "pawn one step from promotion", "side to move in check",
        "24 men or more",
    ]
    return [f"{name}: {c[name]}" for name in order]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", nargs="?", type=int, default=200, help="positions (default 200)")
    parser.add_argument("seed", nargs="?", type=int, default=1978, help="random seed (default 1978)")
    parser.add_argument(
        "--en-passant", type=int, default=0, metavar="N",
        help="N of the positions (taken from the games' share) just after a double push that can be taken en passant",
    )
    parser.add_argument(
        "--exclude", action="append", default=[], metavar="EPD",
        help="leave out the positions of this file (to make new ones); may be repeated",
    )
    parser.add_argument("--check-with", metavar="SARGON", help="leave out what `SARGON analyze` refuses")
    args = parser.parse_args()
    if args.count < 1:
        parser.error("COUNT must be at least 1")
    rng = random.Random(args.seed)
    check = SargonCheck(args.check_with)
    seen = set()
    for path in args.exclude:
        with open(path) as f:
            seen.update(chess.Board(line.strip()).epd() for line in f if line.strip())
    # 85 % from games, 15 % sparse endgames (170 and 30 of 200).
    from_games = args.count - args.count * 3 // 20
    if not 0 <= args.en_passant <= from_games:
        parser.error(f"--en-passant must be between 0 and {from_games}")
    out = games(rng, from_games - args.en_passant, seen, check)
    out += en_passant(rng, args.en_passant, seen, check)
    out += sparse_endgames(rng, args.count - from_games, seen, check)
    for fen in out:
        print(fen)
    print(f"{len(out)} positions (seed {args.seed}):", file=sys.stderr)
    for line in composition(out, from_games):
        print(f"  {line}", file=sys.stderr)
    if args.check_with:
        refused = sum(check.refused.values())
        print(f"  left out as Sargon refused them: {refused}", file=sys.stderr)
        for reason, n in check.refused.most_common():
            print(f"    {n} x {reason}", file=sys.stderr)


if __name__ == "__main__":
    main()
