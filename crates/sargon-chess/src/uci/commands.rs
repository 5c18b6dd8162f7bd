//! Parsing the arguments of the GUI's commands: `go` limits and `position`.

use std::time::Duration;

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Position};

use sargon_core::input::echo;
use sargon_core::position;

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
    /// `searchmoves`: only these root moves are searched (empty: all).
    pub searchmoves: Vec<UciMove>,
}

/// The words `go` understands: a value is never taken from among them, so that
/// `go depth infinite` reports a missing depth and still searches infinitely.
const GO_KEYWORDS: [&str; 13] = [
    "depth",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "ponderhit",
];

/// Why the value after a `go` keyword was not taken.
fn bad_value(key: &str, value: Option<&str>, wanted: &str) -> String {
    match value {
        Some(v) => format!("go {key} `{}`: not {wanted}; ignored", echo(v)),
        None => format!("go {key}: no value given (expected {wanted}); ignored"),
    }
}

/// At most this many explanations for one `go`: a line of 400,000 bad words gets a few
/// lines back, not 400,000.
const MAX_GO_PROBLEMS: usize = 10;

/// The explanations with each repeated one said once (with how many times it came), and
/// at most [`MAX_GO_PROBLEMS`] of them, the rest counted in a last line.
fn one_line_per_cause(problems: Vec<String>) -> Vec<String> {
    let mut counted: Vec<(String, usize)> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for p in problems {
        match index.get(&p) {
            Some(&k) => counted[k].1 += 1,
            None => {
                index.insert(p.clone(), counted.len());
                counted.push((p, 1));
            }
        }
    }
    let more = counted.len().saturating_sub(MAX_GO_PROBLEMS);
    let mut out: Vec<String> = counted
        .into_iter()
        .take(MAX_GO_PROBLEMS)
        .map(|(p, n)| if n > 1 { format!("{p} ({n} times)") } else { p })
        .collect();
    if more > 0 {
        out.push(format!("go: {more} more problems not listed; ignored"));
    }
    out
}

impl GoParams {
    /// Parse the words after `go`; what is not understood is returned as explanations,
    /// one per word, and only the valid limits are kept.
    pub(crate) fn parse(words: &[&str]) -> (GoParams, Vec<String>) {
        let mut go = GoParams::default();
        let mut problems = Vec::new();
        let mut i = 0;
        // The value after the keyword at `i` (not another keyword), consumed.
        let take = |i: &mut usize| -> Option<&str> {
            let v = words
                .get(*i + 1)
                .copied()
                .filter(|v| !GO_KEYWORDS.contains(v))?;
            *i += 1;
            Some(v)
        };
        let ms = Duration::from_millis;
        while i < words.len() {
            let key = words[i];
            match key {
                "depth" => {
                    let v = take(&mut i);
                    match v.and_then(|v| v.parse::<u8>().ok()).filter(|&d| d >= 1) {
                        Some(d) => go.depth = Some(d),
                        None => problems.push(bad_value(
                            key,
                            v,
                            "a whole number of plies from 1 to 255",
                        )),
                    }
                }
                "movetime" | "winc" | "binc" | "nodes" => {
                    let v = take(&mut i);
                    match v.and_then(|v| v.parse::<u64>().ok()) {
                        Some(n) => match key {
                            "movetime" => go.movetime = Some(ms(n)),
                            "winc" => go.winc = Some(ms(n)),
                            "binc" => go.binc = Some(ms(n)),
                            _ => go.nodes = Some(n),
                        },
                        None => problems.push(bad_value(
                            key,
                            v,
                            &format!("a whole number from 0 to {}", u64::MAX),
                        )),
                    }
                }
                "wtime" | "btime" => {
                    // A flagged GUI clock may go negative: that is "no time left", 0.
                    let v = take(&mut i);
                    match v.and_then(|v| v.parse::<i64>().ok()) {
                        Some(n) => {
                            let t = Some(ms(n.max(0) as u64));
                            if key == "wtime" {
                                go.wtime = t
                            } else {
                                go.btime = t
                            }
                        }
                        None => problems.push(bad_value(
                            key,
                            v,
                            &format!(
                                "a whole number of milliseconds up to {} (below 0: no time left)",
                                i64::MAX
                            ),
                        )),
                    }
                }
                "movestogo" | "mate" => {
                    let v = take(&mut i);
                    match v.and_then(|v| v.parse::<u32>().ok()).filter(|&n| n >= 1) {
                        Some(n) if key == "mate" => go.mate = Some(n),
                        Some(n) => go.movestogo = Some(n),
                        None => problems.push(bad_value(
                            key,
                            v,
                            &format!("a whole number from 1 to {}", u32::MAX),
                        )),
                    }
                }
                "infinite" => go.infinite = true,
                "ponder" => go.ponder = true,
                "searchmoves" => {
                    while let Some(v) = take(&mut i) {
                        match v.parse::<UciMove>() {
                            Ok(m) => go.searchmoves.push(m),
                            Err(_) => problems.push(format!(
                                "go searchmoves `{}`: not a move in UCI notation; ignored",
                                echo(v)
                            )),
                        }
                    }
                }
                other => problems.push(format!("go: `{}` is not a go limit; ignored", echo(other))),
            }
            i += 1;
        }
        (go, one_line_per_cause(problems))
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
        // Each malformed value is named, and only the valid limits apply.
        let (go, problems) = GoParams::parse(&["movetime", "abc", "depth", "-1", "nodes", "500"]);
        assert_eq!(go.movetime, None);
        assert_eq!(go.depth, None);
        assert_eq!(go.nodes, Some(500));
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].contains("movetime `abc`"), "{problems:?}");
        assert!(problems[1].contains("depth `-1`"), "{problems:?}");
        // A missing value does not swallow the next keyword.
        let many: Vec<&str> = std::iter::repeat_n("depth", 400_000).collect();
        let (_, problems) = GoParams::parse(&many);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].ends_with("(400000 times)"), "{problems:?}");
        let words: Vec<String> = (0..50).map(|k| format!("bad{k}")).collect();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let (_, problems) = GoParams::parse(&words);
        assert_eq!(problems.len(), MAX_GO_PROBLEMS + 1, "{problems:?}");
        assert!(
            problems[MAX_GO_PROBLEMS].contains("40 more problems"),
            "{problems:?}"
        );
        let (go, problems) = GoParams::parse(&["depth", "infinite"]);
        assert!(go.infinite && go.depth.is_none());
        assert!(problems[0].contains("no value"), "{problems:?}");
        let (go, problems) = GoParams::parse(&["searchmoves", "e2e4", "d2d4", "zz", "depth", "2"]);
        assert_eq!(go.searchmoves.len(), 2);
        assert_eq!(go.depth, Some(2));
        assert_eq!(problems.len(), 1, "{problems:?}");
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
