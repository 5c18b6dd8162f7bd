#!/usr/bin/env bash
# Sargon in a real chess GUI, end to end and unattended: XBoard drives `sargon uci` through
# the PolyGlot adapter (XBoard speaks its own protocol, PolyGlot turns it into UCI) on a
# virtual X display (Xvfb).
#
#   scripts/gui-smoke.sh SARGON_BINARY OUT_DIR [ENGINE]
#
#   1. a user's game: Sargon plays Black (XBoard's Machine Black mode, 30 seconds a side),
#      three White moves are clicked on the board with xdotool; screenshot
#      OUT_DIR/xboard-play.png
#   2. a game, Sargon against Sargon (Two Machines mode, 20 seconds a side, adjudicated as
#      a draw by XBoard after 8 moves); screenshot OUT_DIR/xboard-game.png
#   3. XBoard's analysis mode on the position XBoard saved at the end of that game, left
#      running until Sargon has reported depth 4 (3 on the emulator), then switched off
#      (Mode > Edit Game);
#      screenshot OUT_DIR/xboard-analysis.png
#
# Then the PolyGlot logs (every UCI line, both directions) are checked: `uci`/`uciok`,
# `position`, `go wtime ...`, `info depth ... pv ...` and `bestmove` lines in the games,
# `go infinite`, `info` lines, `stop` and `bestmove` in the analysis, and Sargon's clean
# exit on `quit` each time. ENGINE is `port` (default) or
# `emulator` (`sargon uci --engine emulator`, needs an imported ROM, and is slow: it plays
# the game at depth 2 or 3).
#
# Everything (ini files, logs, XBoard's debug files, the saved game and final position)
# stays in OUT_DIR/work for a look after a failure. XBoard runs with HOME=OUT_DIR/work, so
# it neither reads nor writes the user's ~/.xboardrc.
#
# Exit status: 0 passed; 1 failed (the reason on stderr); 2 usage; 77 skipped, with a line
# "skipped: ..." naming what is missing (Debian: apt-get install xvfb xboard polyglot
# imagemagick xdotool).
set -euo pipefail

readonly SKIPPED=77
# Debian installs xboard and polyglot in /usr/games, which is not on root's PATH.
export PATH="$PATH:/usr/games"

usage() {
    echo "usage: $0 SARGON_BINARY OUT_DIR [port|emulator]" >&2
    exit 2
}
fail() {
    echo "gui-smoke: FAILED: $*" >&2
    exit 1
}
say() { echo "gui-smoke: $*"; }

if [ $# -lt 2 ] || [ $# -gt 3 ]; then usage; fi
sargon=$1
out_dir=$2
engine=${3:-port}
case $engine in port | emulator) ;; *) usage ;; esac

missing=()
for tool in Xvfb:xvfb xboard:xboard polyglot:polyglot import:imagemagick xdotool:xdotool; do
    command -v "${tool%%:*}" >/dev/null 2>&1 || missing+=("${tool#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "skipped: not installed: ${missing[*]} (Debian: apt-get install xvfb xboard polyglot imagemagick xdotool)"
    exit $SKIPPED
fi

[ -x "$sargon" ] || fail "no executable Sargon binary at $sargon"
sargon=$(cd "$(dirname "$sargon")" && pwd)/$(basename "$sargon")
# PolyGlot splits its EngineCommand at spaces.
case $sargon in *[[:space:]]*) fail "the binary's path must not contain spaces: $sargon" ;; esac

# XBoard runs with its own HOME (below); Sargon must still find the user's ROM store.
export SARGON_ROMS="${SARGON_ROMS:-${XDG_DATA_HOME:-$HOME/.local/share}/sargon/roms}"

mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd)
work=$out_dir/work
rm -rf "$work"
mkdir -p "$work"

# The engine for both XBoard sessions. PolyGlot's own opening book is off: Sargon plays its own.
cat >"$work/sargon.ini" <<EOF
[PolyGlot]
EngineName = Sargon
EngineDir = $work
EngineCommand = $sargon uci --engine $engine
Log = true
LogFile = $work/polyglot.log
Book = false

[Engine]
EOF

# --- the virtual display: Xvfb picks a free display number and writes it to fd 3.
xvfb_pid=
xboard_pid=
cleanup() {
    # Only the processes started here, by pid; never fails (it runs on every exit).
    set +e
    if [ -n "$xboard_pid" ]; then
        kill "$xboard_pid" 2>/dev/null
        wait "$xboard_pid" 2>/dev/null
    fi
    if [ -n "$xvfb_pid" ]; then
        kill "$xvfb_pid" 2>/dev/null
        wait "$xvfb_pid" 2>/dev/null
    fi
}
trap cleanup EXIT

Xvfb -displayfd 3 -screen 0 1040x630x24 -nolisten tcp 3>"$work/display" >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 100); do
    [ -s "$work/display" ] && break
    kill -0 "$xvfb_pid" 2>/dev/null || fail "Xvfb did not start: $(cat "$work/xvfb.log")"
    sleep 0.1
done
[ -s "$work/display" ] || fail "Xvfb did not report its display within 10 s"
DISPLAY=":$(head -n1 "$work/display")"
export DISPLAY
say "Xvfb on display $DISPLAY"

# --- XBoard. Options common to both sessions: no settings file, no sound, no pondering
# (Sargon does not ponder), no pop-ups that wait for a click, the engine output window open.
start_xboard() { # session-name seconds xboard-options...
    local name=$1 seconds=$2
    shift 2
    HOME=$work timeout "$seconds" xboard \
        -saveSettingsOnExit false -popupExitMessage false -soundProgram "" -xponder \
        -messageSuppress "Right-clicking menu item or dialog text pops up help on it" \
        -size Medium -engineOutputUp true -engineOutputW 504 -engineOutputH 500 \
        -debug -nameOfDebugFile "$work/xboard-$name.debug" \
        "$@" >"$work/xboard-$name.out" 2>&1 &
    xboard_pid=$!
}

# XBoard's main window (its title is the game's or the position file's name).
main_window() {
    local window
    for window in $(xdotool search --onlyvisible --class xboard); do
        case $(xdotool getwindowname "$window") in
        [Ee]ngine*) ;;
        *)
            echo "$window"
            return 0
            ;;
        esac
    done
    fail "no XBoard main window on the screen"
}

# Type a key into XBoard's main window, as a user would (ctrl+e: Mode > Edit Game,
# ctrl+q: File > Quit).
press() { # key
    xdotool windowfocus --sync "$(main_window)" key "$1"
}

# Quit as a user would (File > Quit): XBoard sends `quit` to PolyGlot, and PolyGlot to
# Sargon. Killed (with PolyGlot and Sargon, by `timeout`) only if it has not gone in 10 s.
stop_xboard() {
    press ctrl+q || true
    for _ in $(seq 100); do
        kill -0 "$xboard_pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$xboard_pid" 2>/dev/null; then
        say "note: XBoard did not quit on ctrl+q; terminating it"
        kill "$xboard_pid" 2>/dev/null || true
    fi
    wait "$xboard_pid" 2>/dev/null || true
    xboard_pid=
}

# Wait until FILE has at least COUNT lines matching the extended regex PATTERN; fail
# after SECONDS or when XBoard is gone.
wait_count() { # file pattern count seconds what
    local file=$1 pattern=$2 count=$3 seconds=$4 what=$5 n
    for _ in $(seq $((seconds * 10))); do
        n=$(grep -Ec "$pattern" "$file" 2>/dev/null || true)
        [ "${n:-0}" -ge "$count" ] && return 0
        kill -0 "$xboard_pid" 2>/dev/null || fail "XBoard ended before $what (see $work)"
        sleep 0.1
    done
    fail "no $what within $seconds s (see $work)"
}
wait_for() { # file pattern seconds what
    wait_count "$1" "$2" 1 "$3" "$4"
}

# Without a window manager XBoard's window positions are not applied, and the engine
# output window opens over the board: put it beside the board.
arrange_windows() {
    local window
    window=$(xdotool search --sync --name "Engine Output" | head -n1) ||
        fail "no Engine Output window on the screen"
    xdotool windowmove --sync "$window" 530 0
}

# The whole screen, with the pointer out of the way (it raises tool tips).
screenshot() { # png
    arrange_windows
    xdotool mousemove 1039 629
    sleep 1
    import -window root "$1" || fail "screenshot $1 failed"
    say "screenshot: $1"
}

# Check a PolyGlot log for a line matching PATTERN, at least MIN times.
expect_log() { # log pattern min what
    local n
    n=$(grep -Ec "$2" "$1" || true)
    [ "$n" -ge "$3" ] || fail "$4: $n lines matching '$2' in $1, expected at least $3"
    say "ok: $4 ($n)"
}

# Click a move on the board as a user would: from-square, then to-square. With
# `-size Medium` (and no window manager) the board's squares are 65 pixels apart, a1's
# corner at (2, 557) of the screen, below the menu bar, clocks and message line.
click_move() { # e2e4
    local move=$1 square x y
    for square in "${move:0:2}" "${move:2:2}"; do
        x=$((2 + ($(printf '%d' "'${square:0:1}") - 97) * 65 + 32))
        y=$((102 + (8 - ${square:1:1}) * 65 + 32))
        xdotool mousemove "$x" "$y" click 1
        sleep 0.3
    done
}

# --- 1. a user plays White against Sargon (Mode > Machine Black), three moves clicked on
# the board: moves that are legal whatever Sargon answers.
say "play: three moves clicked against Sargon (Machine Black, 30 s a side)"
start_xboard play 100 \
    -fcp "polyglot $work/sargon.ini -lf $work/play.log" -fd "$work" \
    -mode MachineBlack -tc 0:30 -inc 0 -sgf "$work/play.pgn"
wait_for "$work/play.log" 'Engine->Adapter: uciok' 30 "uciok from Sargon"
sleep 1 # the board on the screen
arrange_windows
moves=
played=0
for move in e2e4 g1f3 b1c3; do
    click_move "$move"
    played=$((played + 1))
    moves="$moves${moves:+ }$move"
    wait_for "$work/play.log" "Adapter->Engine: position startpos moves $moves\$" 10 "the clicked move $move sent to Sargon"
    wait_count "$work/play.log" 'Engine->Adapter: bestmove' "$played" 40 "Sargon's reply to $move"
    reply=$(grep 'Engine->Adapter: bestmove' "$work/play.log" | tail -n1 | awk '{print $4}')
    say "clicked $move, Sargon answered $reply"
    moves="$moves $reply"
done
sleep 1
screenshot "$out_dir/xboard-play.png"
stop_xboard
log=$work/play.log
expect_log "$log" 'Adapter->Engine: go wtime [0-9]+ btime [0-9]+' 3 "play: go with the clock"
expect_log "$log" 'Engine->Adapter: info depth [0-9]+ score (cp|mate) -?[0-9]+ .* pv [a-h][1-8]' 2 "play: info lines with a PV"
expect_log "$log" 'Engine->Adapter: bestmove [a-h][1-8][a-h][1-8]' 3 "play: bestmove lines"
expect_log "$log" 'Child exited with status 0' 1 "play: Sargon exited cleanly"

# --- 2. a game: Sargon (white) against Sargon (black).
say "game: Sargon against Sargon, 20 s a side, adjudicated after 8 moves"
start_xboard game 150 \
    -fcp "polyglot $work/sargon.ini -lf $work/white.log" -fd "$work" \
    -scp "polyglot $work/sargon.ini -lf $work/black.log" -sd "$work" \
    -mode TwoMachines -tc 0:20 -inc 0 -adjudicateDrawMoves 8 \
    -sgf "$work/game.pgn" -spf "$work/final.fen"
wait_for "$work/game.pgn" '^\[Result ' 140 "end of the game"
sleep 1 # the last board update
screenshot "$out_dir/xboard-game.png"
stop_xboard
say "game record:"
sed -n '/^1\./,$p' "$work/game.pgn"

for side in white black; do
    log=$work/$side.log
    expect_log "$log" 'Adapter->Engine: uci$' 1 "$side: uci sent"
    expect_log "$log" 'Engine->Adapter: id name Sargon 1978' 1 "$side: Sargon named itself"
    expect_log "$log" 'Engine->Adapter: uciok$' 1 "$side: uciok"
    expect_log "$log" 'Adapter->Engine: position startpos moves' 3 "$side: positions"
    expect_log "$log" 'Adapter->Engine: go wtime [0-9]+ btime [0-9]+' 3 "$side: go with the clock"
    expect_log "$log" 'Engine->Adapter: info depth [0-9]+ score (cp|mate) -?[0-9]+ .* pv [a-h][1-8]' 3 "$side: info lines with a PV"
    expect_log "$log" 'Engine->Adapter: bestmove [a-h][1-8][a-h][1-8]' 4 "$side: bestmove lines"
    expect_log "$log" 'Adapter->Engine: quit$' 1 "$side: quit sent"
    expect_log "$log" 'Child exited with status 0' 1 "$side: Sargon exited cleanly"
done
# Normally a draw adjudicated by XBoard after 8 moves; a mate before that would do as well.
say "result: $(grep '^\[Result ' "$work/game.pgn")"
[ -s "$work/final.fen" ] || fail "XBoard saved no final position"

# --- 3. analysis of the final position.
say "analysis of the final position: $(head -n1 "$work/final.fen")"
start_xboard analysis 120 \
    -fcp "polyglot $work/sargon.ini -lf $work/analysis.log" -fd "$work" \
    -lpf "$work/final.fen" -mode Analysis
# Depth 4 takes the port a fraction of a second; the emulator is stopped at depth 3
# (seconds, or a minute on a busy machine).
analysis_depth=4
[ "$engine" = emulator ] && analysis_depth=3
wait_for "$work/analysis.log" "Engine->Adapter: info depth $analysis_depth " 100 "analysis at depth $analysis_depth"
sleep 1
screenshot "$out_dir/xboard-analysis.png"
# Leave analysis mode (Mode > Edit Game) as a user switching it off would: XBoard sends
# `exit`, PolyGlot `stop`, and Sargon answers with its move.
press ctrl+e
wait_for "$work/analysis.log" 'Engine->Adapter: bestmove' 10 "bestmove after analysis was switched off"
stop_xboard

log=$work/analysis.log
expect_log "$log" 'Engine->Adapter: uciok$' 1 "analysis: uciok"
expect_log "$log" 'Adapter->Engine: position (fen|startpos)' 1 "analysis: position sent"
expect_log "$log" 'Adapter->Engine: go infinite$' 1 "analysis: go infinite"
expect_log "$log" 'Engine->Adapter: info depth [0-9]+ score (cp|mate) -?[0-9]+ .* pv [a-h][1-8]' "$analysis_depth" "analysis: info lines with a PV"
expect_log "$log" 'Adapter->GUI: [0-9]+ [-+]?[0-9]+ [0-9]+ [0-9]+ ' "$analysis_depth" "analysis: thinking lines passed on to XBoard"
expect_log "$log" 'Adapter->Engine: stop$' 1 "analysis: stop when switched off"
expect_log "$log" 'Engine->Adapter: bestmove [a-h][1-8][a-h][1-8]' 1 "analysis: bestmove after stop"
expect_log "$log" 'Child exited with status 0' 1 "analysis: Sargon exited cleanly"
say "last analysis line: $(grep -E 'Engine->Adapter: info depth' "$log" | tail -n1 | sed 's/.*Engine->Adapter: //')"
say "passed"
