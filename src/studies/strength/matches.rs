//! The matches of a strength study: who played (a Sargon depth, an anchor's Elo), and repeated games counted once.

use std::collections::HashSet;

use shakmaty::uci::UciMove;
use shakmaty::CastlingMode;

use sargon_chess::elo::Tally;
use sargon_chess::pgn::PgnGame;

/// The depth of a Sargon player from the name `sargon play` gives it, as "Sargon 1978
/// (port, depth 3)", possibly followed by ", no book" or " [ROM x NOT VERIFIED]".
pub(crate) fn sargon_depth(name: &str) -> Option<u8> {
    if !name.starts_with("Sargon") {
        return None;
    }
    let rest = &name[name.find("depth ")? + "depth ".len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// The `UCI_Elo=N` in a player's name (as `sargon play` names a UCI engine).
pub(crate) fn uci_elo_in(name: &str) -> Option<f64> {
    let rest = &name[name.find("UCI_Elo=")? + "UCI_Elo=".len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// One match: the first player's results against the second.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Match {
    /// The player under test (the first game's White in a `sargon play` file).
    pub player: String,
    /// Its opponent.
    pub opponent: String,
    /// The player's results, each different game counted once ([`distinct_games`]).
    pub tally: Tally,
    /// Games left out as move-for-move repeats of an earlier game of the match.
    pub repeats: u32,
}

/// The games that are not a repeat of an earlier one (same players and colours, same start,
/// same moves, same result), in file order, and how many were repeats.
pub(crate) fn distinct_games(games: &[PgnGame]) -> (Vec<&PgnGame>, u32) {
    let mut seen = HashSet::new();
    let mut repeats = 0;
    let mut kept = Vec::new();
    for g in games {
        let moves: Vec<String> = g
            .moves
            .iter()
            .map(|m| UciMove::from_move(*m, CastlingMode::Standard).to_string())
            .collect();
        let key = (
            g.tag("White").map(str::to_string),
            g.tag("Black").map(str::to_string),
            g.tag("FEN").map(str::to_string),
            moves,
            g.result.clone(),
        );
        if seen.insert(key) {
            kept.push(g);
        } else {
            repeats += 1;
        }
    }
    (kept, repeats)
}
