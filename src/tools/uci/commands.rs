//! Parsing the arguments of the GUI's commands: `go` limits and `position`.

use std::time::Duration;

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Position};

use crate::base::position;

/// The limits of one `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `depth`: search exactly this deep.
    pub depth: Option<u8>,
    /// `movetime`: time for this move.
    pub movetime: Option<Duration>,
    /// `wtime`: White's time left.
    pub wtime: Option<Duration>,
    /// `btime`: Black's time left.
    pub btime: Option<Duration>,
    /// `winc`: White's increment per move.
    pub winc: Option<Duration>,
    /// `binc`: Black's increment per move.
    pub binc: Option<Duration>,
    /// `movestogo`: moves to the next time control.
    pub movestogo: Option<u32>,
    /// `nodes`: positions to evaluate at most.
    pub nodes: Option<u64>,
    /// `mate`: look for a mate in this many moves.
    pub mate: Option<u32>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `ponder`: search on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
}

impl GoParams {
    /// Parse the words after `go`; what is not understood is returned as explanations.
    pub fn parse(words: &[&str]) -> (GoParams, Vec<String>) {
        let mut go = GoParams::default();
        let mut problems = Vec::new();
        let mut i = 0;
        // A number after a keyword; negative clock times (a flagged GUI clock) count as 0.
        let mut number = |i: &mut usize, key: &str| -> Option<u64> {
            let value = words.get(*i + 1);
            *i += 1;
            match value.map(|v| v.parse::<i64>()) {
                Some(Ok(n)) => Some(n.max(0) as u64),
                _ => {
                    problems.push(format!("go {key}: expected a number"));
                    None
                }
            }
        };
        let ms = Duration::from_millis;
        let mut unknown = Vec::new();
        while i < words.len() {
            match words[i] {
                "depth" => go.depth = number(&mut i, "depth").map(|n| n.min(255) as u8),
                "movetime" => go.movetime = number(&mut i, "movetime").map(ms),
                "wtime" => go.wtime = number(&mut i, "wtime").map(ms),
                "btime" => go.btime = number(&mut i, "btime").map(ms),
                "winc" => go.winc = number(&mut i, "winc").map(ms),
                "binc" => go.binc = number(&mut i, "binc").map(ms),
                "movestogo" => {
                    go.movestogo = number(&mut i, "movestogo").map(|n| n.min(1000) as u32)
                }
                "nodes" => go.nodes = number(&mut i, "nodes"),
                "mate" => go.mate = number(&mut i, "mate").map(|n| n.min(100) as u32),
                "infinite" => go.infinite = true,
                "ponder" => go.ponder = true,
                "searchmoves" => {
                    // Sargon always searches every move; skip the list.
                    while i + 1 < words.len() && words[i + 1].len() >= 4 {
                        i += 1;
                    }
                    unknown.push("searchmoves (Sargon searches all moves)".to_string());
                }
                other => unknown.push(other.to_string()),
            }
            i += 1;
        }
        if !unknown.is_empty() {
            problems.push(format!("go: ignored {}", unknown.join(", ")));
        }
        (go, problems)
    }

    /// The clock of the side to move, if the GUI gave one.
    pub(super) fn clock(&self, turn: Color) -> Option<(Duration, Duration)> {
        let (time, inc) = match turn {
            Color::White => (self.wtime, self.winc),
            Color::Black => (self.btime, self.binc),
        };
        time.map(|t| (t, inc.unwrap_or_default()))
    }
}

/// Why a `position` command was not taken as it is.
#[derive(Debug, PartialEq, Eq)]
pub enum PositionCommandError {
    /// Nothing usable: the previous position stays.
    Invalid(String),
    /// Move `index` of the list is illegal; `reached` is the position before it.
    IllegalMove {
        /// The illegal move, in UCI notation.
        uci: String,
        /// Its index in the move list (from 0).
        index: usize,
        /// The position before it.
        reached: Box<Chess>,
    },
}

/// Parse the words after `position`: `startpos` or `fen <FEN>`, then `moves ...`.
pub fn parse_position_command(args: &[&str]) -> Result<Chess, PositionCommandError> {
    let invalid = |s: String| PositionCommandError::Invalid(s);
    let moves_at = args.iter().position(|&w| w == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let mut pos = match head.split_first() {
        Some((&"startpos", [])) => Chess::default(),
        Some((&"fen", fen)) if !fen.is_empty() => {
            position::parse_position(&fen.join(" ")).map_err(|e| invalid(e.to_string()))?
        }
        _ => {
            return Err(invalid(
                "expected `position startpos [moves ...]` or `position fen <FEN> [moves ...]`"
                    .to_string(),
            ))
        }
    };
    for (index, &text) in moves.iter().enumerate() {
        let mv = text
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&pos).ok());
        match mv {
            Some(m) => pos.play_unchecked(m),
            None => {
                return Err(PositionCommandError::IllegalMove {
                    uci: text.to_string(),
                    index,
                    reached: Box::new(pos),
                })
            }
        }
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_words() {
        let (go, problems) = GoParams::parse(&[
            "wtime",
            "1000",
            "btime",
            "-5",
            "winc",
            "10",
            "movestogo",
            "3",
            "depth",
            "4",
        ]);
        assert!(problems.is_empty());
        assert_eq!(go.wtime, Some(Duration::from_millis(1000)));
        assert_eq!(go.btime, Some(Duration::ZERO));
        assert_eq!(go.winc, Some(Duration::from_millis(10)));
        assert_eq!(go.movestogo, Some(3));
        assert_eq!(go.depth, Some(4));
        let (go, problems) = GoParams::parse(&["infinite", "banana", "depth", "x"]);
        assert!(go.infinite);
        assert_eq!(problems.len(), 2, "{problems:?}");
    }

    #[test]
    fn position_commands() {
        let pos = parse_position_command(&["startpos", "moves", "e2e4", "e7e5", "g1f3"]).unwrap();
        assert_eq!(pos.fullmoves().get(), 2);
        assert_eq!(pos.turn(), Color::Black);
        let err = parse_position_command(&["startpos", "moves", "e2e4", "e2e4"]).unwrap_err();
        match err {
            PositionCommandError::IllegalMove { index, reached, .. } => {
                assert_eq!(index, 1);
                assert_eq!(reached.turn(), Color::Black);
            }
            e => panic!("{e:?}"),
        }
        let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
            .split(' ')
            .collect::<Vec<_>>();
        let mut args = vec!["fen"];
        args.extend(fen);
        args.extend(["moves", "e1g1"]);
        let pos = parse_position_command(&args).unwrap();
        assert_eq!(position::fen_of(&pos), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
        assert!(matches!(
            parse_position_command(&["fen", "nonsense"]),
            Err(PositionCommandError::Invalid(_))
        ));
        assert!(matches!(
            parse_position_command(&["sideways"]),
            Err(PositionCommandError::Invalid(_))
        ));
    }
}
