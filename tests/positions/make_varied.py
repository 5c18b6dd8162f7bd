#!/usr/bin/env python3
"""Make tests/positions/varied-200.epd: 200 varied positions for `sargon diff`.

Random but reproducible games (fixed seed) from the initial position, sampled at plies
spread from the opening to the endgame, mixed with random endgame set-ups; positions
that are over (mate, stalemate) or repeated are skipped. The moves are chosen with a mild
preference for captures and checks so that tactics, promotions and castling occur.
Run: python3 tests/positions/make_varied.py > tests/positions/varied-200.epd
"""
import random

import chess

rng = random.Random(1978)


def pick(board):
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


seen = set()
out = []
while len(out) < 170:
    board = chess.Board()
    stop_at = rng.randint(4, 90)
    for _ in range(stop_at):
        if board.is_game_over():
            break
        board.push(pick(board))
    if board.is_game_over() or board.is_insufficient_material():
        continue
    key = board.epd()
    if key in seen:
        continue
    seen.add(key)
    out.append(f"{board.fen()}")

# Sparse endgames: kings plus a few random men.
while len(out) < 200:
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
    out.append(board.fen())

for i, fen in enumerate(out):
    print(fen)
