//! `CarryDepth` (issue 38): in a game at a FixedDepth, a side's next search starts from the
//! PLYMAX its last one left, two lower after it found a mate, as the original's does;
//! `ucinewgame` and `CarryDepth false` start afresh.

use std::time::Duration;

use sargon_chess::uci::Uci;

use super::real::{real_engine, real_session};
use super::stand_in::Sink;

/// White mates in three at depth 5 (1.Kg6), not at depth 4.
const MATE_IN_THREE: &str = "7k/8/8/5K2/8/8/8/6R1 w - - 0 40";

/// `go` after `moves` from [`MATE_IN_THREE`]: the session's lines, and its move.
fn go(uci: &mut Uci<Sink>, out: &Sink, moves: &[String]) -> (String, String) {
    out.clear();
    let mut position = format!("position fen {MATE_IN_THREE}");
    if !moves.is_empty() {
        position += &format!(" moves {}", moves.join(" "));
    }
    uci.handle_line(&position);
    uci.handle_line("go");
    out.wait_for("bestmove", Duration::from_secs(300));
    uci.wait();
    let text = out.text();
    let best = text
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_default()
        .to_string();
    (text, best)
}

/// The depths of the `info depth` lines.
fn depths(text: &str) -> Vec<u8> {
    text.lines()
        .filter_map(|l| l.strip_prefix("info depth "))
        .filter_map(|rest| rest.split(' ').next()?.parse().ok())
        .collect()
}

/// The game from [`MATE_IN_THREE`] at FixedDepth 5, to the mate: each of White's
/// searches' depths, and the `info string` lines.
fn white_depths(uci: &mut Uci<Sink>, out: &Sink) -> (Vec<Vec<u8>>, Vec<String>) {
    let mut moves = Vec::new();
    let (mut white, mut notes) = (Vec::new(), Vec::new());
    for ply in 0..5 {
        let (text, best) = go(uci, out, &moves);
        assert!(!best.is_empty() && best != "0000", "{text}");
        if ply % 2 == 0 {
            white.push(depths(&text));
        }
        notes.extend(
            text.lines()
                .filter(|l| l.contains("carried"))
                .map(str::to_string),
        );
        moves.push(best);
    }
    (white, notes)
}

#[test]
fn a_game_carries_the_depth_after_a_mate_is_found() {
    let Some(kind) = real_engine("a_game_carries_the_depth_after_a_mate_is_found") else {
        return;
    };
    let (mut uci, out) = real_session(kind);
    uci.handle_line("uci");
    assert!(
        out.text()
            .contains("option name CarryDepth type check default true"),
        "{}",
        out.text()
    );
    uci.handle_line("setoption name FixedDepth value 5");
    uci.handle_line("ucinewgame");
    // Depth 1 first, as every FixedDepth search; then 5; then 3 after the mate was found at
    // 5, and 1 after it was found again at 3.
    let (white, notes) = white_depths(&mut uci, &out);
    assert_eq!(white, [vec![1, 5], vec![1, 3], vec![1]], "{notes:?}");
    assert_eq!(
        notes,
        [
            "info string depth 3 carried from the last search, which found a mate (the \
             original's PLYMAX; setoption name CarryDepth value false for FixedDepth 5)",
            "info string depth 1 carried from the last search, which found a mate (the \
             original's PLYMAX; setoption name CarryDepth value false for FixedDepth 5)",
        ]
    );
    // A new game starts again from FixedDepth; without CarryDepth every search is at it.
    uci.handle_line("ucinewgame");
    assert_eq!(
        white_depths(&mut uci, &out).0[0..2],
        [vec![1, 5], vec![1, 3]]
    );
    uci.handle_line("setoption name CarryDepth value false");
    let (white, notes) = white_depths(&mut uci, &out);
    assert_eq!(white, [vec![1, 5], vec![1, 5], vec![1, 5]]);
    assert!(notes.is_empty(), "{notes:?}");
}

/// Black's first legal reply (UCI) after `white` from [`MATE_IN_THREE`].
fn a_reply(white: &str) -> String {
    use shakmaty::{uci::UciMove, Position};
    let mut pos = sargon_core::parse_position(MATE_IN_THREE).unwrap();
    let m = UciMove::from_ascii(white.as_bytes())
        .unwrap()
        .to_move(&pos)
        .unwrap();
    pos.play_unchecked(m);
    let reply = pos.legal_moves()[0];
    reply.to_uci(shakmaty::CastlingMode::Standard).to_string()
}

/// A side's search in a game continues its memory, which holds the move the engine chose:
/// when the GUI played another, the kept board is not the position's, and the side's game
/// begins anew (said on an `info string`), with a searched move all the same.
#[test]
fn a_move_other_than_the_engine_s_starts_the_side_s_game_anew() {
    let Some(kind) = real_engine("a_move_other_than_the_engine_s_starts_the_side_s_game_anew")
    else {
        return;
    };
    let (mut uci, out) = real_session(kind);
    uci.handle_line("setoption name FixedDepth value 2");
    uci.handle_line("ucinewgame");
    let (text, best) = go(&mut uci, &out, &[]);
    assert!(!best.is_empty() && best != "0000", "{text}");
    // White played another king move than the engine's, then Black replied.
    let other = ["f5e6", "f5e5", "f5f4"]
        .into_iter()
        .find(|m| *m != best)
        .unwrap();
    let reply = a_reply(other);
    let (text, best) = go(&mut uci, &out, &[other.to_string(), reply.clone()]);
    assert!(!best.is_empty() && best != "0000", "{text}");
    assert!(
        text.contains(&format!(
            "info string after the reply {reply}, the board in the kept memory is not the position's"
        )) && text.contains("a new game's memory for this side"),
        "{text}"
    );
    // The engine's own move, then a reply: the game continues with no such line.
    let (_, first) = go(&mut uci, &out, &[]);
    let reply = a_reply(&first);
    let (text, _) = go(&mut uci, &out, &[first, reply]);
    assert!(!text.contains("kept memory"), "{text}");
}
