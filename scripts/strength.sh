#!/usr/bin/env bash
# Sargon's strength per depth (issue 14 part 3, docs/strength.md).
#
# Plays, round after round, one opening pair (two games, colours swapped) per match:
#   * Sargon (port, book on) at each depth of $SF_DEPTHS against Stockfish with
#     UCI_LimitStrength=true and UCI_Elo at its minimum ($SF_ELO);
#   * Sargon at depth k against depth k+1 for each k of $CHAIN_DEPTHS, to chain the depths
#     that score too little against Stockfish's weakest setting. Both sides of these are
#     deterministic, so each opening and colour gives one game only (a repeat is counted
#     once by `sargon history strength`): they use the 60 openings of
#     $CHAIN_OPENINGS, 120 different games, where Stockfish's matches use 12.
# Every game is appended to records/strength/<match>.pgn as it ends, and each call of
# `sargon play --resume` goes on after the games already there: stop this script at any
# time and run it again to continue. The table comes from the PGN files:
#   sargon history strength records/strength/*-vs-*.pgn
#
# Environment: SARGON (the binary, default target/release/sargon), STOCKFISH (default
# /usr/games/stockfish), SF_ELO (default 1350, Stockfish 15.1's minimum), SF_MOVETIME (ms,
# default 200), TARGET (games per match, default 200; a chain match stops at 120, two per
# opening, as more would only repeat games), SF_DEPTHS (default "1 2 3 4 5 6"),
# CHAIN_DEPTHS (default "1 2 3 4 5"; set either to "" for none), MAX_MOVES (moves per side
# before a draw is adjudicated, default 150). Run it niced: nice -n 19 scripts/strength.sh
set -euo pipefail

cd "$(dirname "$0")/.."
SARGON=${SARGON:-target/release/sargon}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
SF_ELO=${SF_ELO:-1350}
SF_MOVETIME=${SF_MOVETIME:-200}
TARGET=${TARGET:-200}
SF_DEPTHS=${SF_DEPTHS-"1 2 3 4 5 6"}
CHAIN_DEPTHS=${CHAIN_DEPTHS-"1 2 3 4 5"}
MAX_MOVES=${MAX_MOVES:-150}
CHAIN_TARGET=$((TARGET < 120 ? TARGET : 120))
DIR=records/strength
OPENINGS=$DIR/openings.pgn
CHAIN_OPENINGS=$DIR/openings-60.pgn

[ -x "$SARGON" ] || { echo "no $SARGON: build it with cargo build --release" >&2; exit 1; }
[ -x "$STOCKFISH" ] || { echo "no $STOCKFISH (apt-get install stockfish)" >&2; exit 1; }

games_in() {
    if [ -f "$1" ]; then grep -c '^\[Result ' "$1" || true; else echo 0; fi
}

# One more opening pair of a match, if it has fewer than TARGET (its second argument) games.
more() {
    local pgn=$1 target=$2 openings=$3
    shift 3
    local have
    have=$(games_in "$pgn")
    [ "$have" -lt "$target" ] || return 1
    "$SARGON" play --openings "$openings" --games $((have + 2)) --resume --pgn "$pgn" \
        --max-moves "$MAX_MOVES" --event "Sargon strength (issue 14)" --site "sargon history strength" "$@"
}

while :; do
    played=0
    for d in $SF_DEPTHS; do
        more "$DIR/sargon-d$d-vs-stockfish-elo$SF_ELO.pgn" "$TARGET" "$OPENINGS" --depth "$d" \
            --opponent "$STOCKFISH" --opponent-movetime "$SF_MOVETIME" \
            --opponent-option UCI_LimitStrength=true --opponent-option "UCI_Elo=$SF_ELO" &&
            played=1
    done
    for k in $CHAIN_DEPTHS; do
        more "$DIR/sargon-d$k-vs-sargon-d$((k + 1)).pgn" "$CHAIN_TARGET" "$CHAIN_OPENINGS" \
            --depth "$k" \
            --opponent "sargon:depth=$((k + 1))" && played=1
    done
    [ "$played" = 1 ] || break
done
echo "every match has its games: $TARGET against Stockfish, $CHAIN_TARGET in the chain"
