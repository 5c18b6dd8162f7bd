//! The trace: one typed event stream, the common language of both engines.
//!
//! A [`Recorder`] is an ordinary hook ([`crate::hooks::Hook`]): it reads the views
//! the hook points give ([`HookEvent`]) and turns them into [`Event`]s, so the emulator
//! and the port produce their traces with the same code, and two traces are equal exactly
//! when the searches made the same decisions in the same order. The formats (one event per
//! line as text, or JSON Lines) are specified in `docs/trace-format.md`.
//!
//! # Example: read a search's trace
//!
//! ```
//! use sargon_core::{parse_position, record, setup, Book, Detail, Event, SearchOptions};
//!
//! let pos = parse_position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 30")?;
//! let run = record::search(
//!     &mut sargon_port::Port::new(),
//!     &setup(&pos, Book::Off)?,
//!     &SearchOptions::depth(2),
//!     Detail::Full,
//!     &mut [],
//! )?;
//! // Every node created, every score, every decision; the result closes the trace.
//! let evals = run.events.iter().filter(|e| matches!(e, Event::Eval { .. })).count();
//! assert!(evals > 0);
//! assert!(matches!(run.events.last(), Some(Event::Result { .. })));
//! // One line each, as `sargon trace` prints them (docs/trace-format.md).
//! let first = run.events[0].to_string();
//! assert!(!first.is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use crate::hooks::{Hook, HookEvent, HookMask, HookPoint};
use crate::vocab::{SMove, Score};

/// Moves from the root to a node, in Sargon's move-list terms.
pub type Path = Vec<SMove>;

/// One thing the search did. Scores are Sargon's bytes (see [`Score`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A move entered the move list of ply `path.len()`: a node of the tree was created.
    Created {
        /// The moves from the root to the new node.
        path: Path,
    },
    /// POINTS scored the node at `path` (the root when `path` is empty). `ply` is NPLY,
    /// which equals the path's length except for the root evaluation.
    Eval {
        /// NPLY at the evaluation.
        ply: u8,
        /// The moves from the root to the node.
        path: Path,
        /// The score POINTS gave.
        score: Score,
    },
    /// FM37: the node's score against the score two plies above; `cutoff` when it is not
    /// greater (Sargon then abandons the rest of the ply: an alpha-beta cutoff).
    AlphaBeta {
        /// The moves from the root to the node.
        path: Path,
        /// The node's score.
        score: Score,
        /// The score two plies above.
        two_above: Score,
        /// Whether the rest of the ply is cut off.
        cutoff: bool,
    },
    /// The negated score against the best one ply above; `accepted` when it is greater.
    BestTest {
        /// The moves from the root to the node.
        path: Path,
        /// The node's score, negated.
        negated: Score,
        /// The best score one ply above.
        one_above: Score,
        /// Whether the node became the best so far.
        accepted: bool,
    },
    /// The node became the best so far at its ply; `score` was stored one ply above.
    Best {
        /// The moves from the root to the node.
        path: Path,
        /// The score stored one ply above.
        score: Score,
    },
    /// ASCEND: the search goes up from ply `ply`.
    Ascend {
        /// NPLY before going up.
        ply: u8,
    },
    /// The search's result: the chosen move (BESTM) and SCORE+1. Not a hook's: it is made
    /// from the search's outcome and closes every trace that `tools::record` takes.
    Result {
        /// The chosen move (none when there is no legal move).
        best: Option<SMove>,
        /// SCORE+1, the root score.
        score: Score,
    },
}

/// The kinds of event, for counts and digests.
#[cfg(feature = "digest")]
pub(crate) const KINDS: [&str; 7] = [
    "created",
    "eval",
    "alpha_beta",
    "best_test",
    "best",
    "ascend",
    "result",
];

impl Event {
    /// The event's kind, as written first on its text line.
    ///
    /// ```
    /// use sargon_core::{Event, SMove, Score};
    /// let e = Event::Result { best: Some(SMove::plain(35, 55)), score: Score(0) };
    /// assert_eq!(e.kind(), "result");
    /// assert_eq!(e.to_string(), "result e2e4 : 00");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Created { .. } => "created",
            Event::Eval { .. } => "eval",
            Event::AlphaBeta { .. } => "alpha_beta",
            Event::BestTest { .. } => "best_test",
            Event::Best { .. } => "best",
            Event::Ascend { .. } => "ascend",
            Event::Result { .. } => "result",
        }
    }

    /// The node the event concerns, if any.
    ///
    /// ```
    /// use sargon_core::{Event, SMove};
    /// let e4 = SMove::plain(35, 55);
    /// assert_eq!(Event::Created { path: vec![e4] }.path(), Some(&vec![e4]));
    /// assert_eq!(Event::Ascend { ply: 2 }.path(), None);
    /// ```
    pub fn path(&self) -> Option<&Path> {
        match self {
            Event::Created { path }
            | Event::Eval { path, .. }
            | Event::AlphaBeta { path, .. }
            | Event::BestTest { path, .. }
            | Event::Best { path, .. } => Some(path),
            Event::Ascend { .. } | Event::Result { .. } => None,
        }
    }

    /// The event as one JSON object (a line of the JSON Lines form).
    ///
    /// ```
    /// use sargon_core::{Event, SMove};
    /// let json = Event::Created { path: vec![SMove::plain(35, 55)] }.to_json();
    /// assert_eq!(json, serde_json::json!({"event": "created", "ply": 1, "path": ["e2e4"]}));
    /// ```
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        let p = |path: &Path| path.iter().map(|m| m.uci()).collect::<Vec<_>>();
        match self {
            Event::Created { path } => {
                json!({"event": "created", "ply": path.len(), "path": p(path)})
            }
            Event::Eval { ply, path, score } => {
                json!({"event": "eval", "ply": ply, "path": p(path), "score": score.0, "pawns": score.pawns()})
            }
            Event::AlphaBeta {
                path,
                score,
                two_above,
                cutoff,
            } => json!({
                "event": "alpha_beta", "ply": path.len(), "path": p(path), "score": score.0,
                "two_above": two_above.0, "cutoff": cutoff
            }),
            Event::BestTest {
                path,
                negated,
                one_above,
                accepted,
            } => json!({
                "event": "best_test", "ply": path.len(), "path": p(path), "negated": negated.0,
                "one_above": one_above.0, "accepted": accepted
            }),
            Event::Best { path, score } => {
                json!({"event": "best", "ply": path.len(), "path": p(path), "score": score.0})
            }
            Event::Ascend { ply } => json!({"event": "ascend", "ply": ply}),
            Event::Result { best, score } => json!({
                "event": "result", "best": best.map(|m| m.uci()), "score": score.0,
                "pawns_for_mover": score.negated().pawns()
            }),
        }
    }
}

impl Event {
    /// The event for people to read (the text of `sargon diff` and `diff report`): the
    /// text line's words, with every score byte written as the original's listing writes
    /// it, `0x78`, and a score's value in pawns beside it (for the side that just moved;
    /// for the result, for the side to move). The trace's own forms are unchanged: the
    /// text line (`: 78`) and JSON (decimal numbers), which programs read.
    ///
    /// ```
    /// use sargon_core::{Event, SMove, Score};
    /// let e4 = vec![SMove::plain(35, 55)];
    /// let eval = Event::Eval { ply: 1, path: e4.clone(), score: Score(0x78) };
    /// assert_eq!(eval.readable(), "eval 1 e2e4 : 0x78 (+1.000 pawns)");
    /// let ab = Event::AlphaBeta { path: e4, score: Score(0x70), two_above: Score(0x78), cutoff: true };
    /// assert_eq!(ab.readable(), "alpha_beta 1 e2e4 : 0x70 <= 0x78 cutoff");
    /// ```
    pub fn readable(&self) -> String {
        let moves = |path: &Path| -> String { path.iter().map(|m| format!(" {m}")).collect() };
        let pawns = |s: Score| format!("0x{:02x} ({:+.3} pawns)", s.0, s.pawns());
        match self {
            Event::Created { .. } | Event::Ascend { .. } => self.to_string(),
            Event::Eval { ply, path, score } => {
                format!("eval {ply}{} : {}", moves(path), pawns(*score))
            }
            Event::AlphaBeta {
                path,
                score,
                two_above,
                cutoff,
            } => {
                let (op, verdict) = if *cutoff {
                    ("<=", "cutoff")
                } else {
                    (">", "pass")
                };
                format!(
                    "alpha_beta {}{} : 0x{:02x} {op} 0x{:02x} {verdict}",
                    path.len(),
                    moves(path),
                    score.0,
                    two_above.0
                )
            }
            Event::BestTest {
                path,
                negated,
                one_above,
                accepted,
            } => {
                let (op, verdict) = if *accepted {
                    (">", "new_best")
                } else {
                    ("<=", "discard")
                };
                format!(
                    "best_test {}{} : 0x{:02x} {op} 0x{:02x} {verdict}",
                    path.len(),
                    moves(path),
                    negated.0,
                    one_above.0
                )
            }
            Event::Best { path, score } => {
                format!("best {}{} : {}", path.len(), moves(path), pawns(*score))
            }
            Event::Result { best, score } => format!(
                "result {} : 0x{:02x} ({:+.3} pawns for the side to move)",
                best.map_or("none".to_string(), |m| m.to_string()),
                score.0,
                score.negated().pawns()
            ),
        }
    }
}

fn write_path(f: &mut fmt::Formatter<'_>, path: &Path) -> fmt::Result {
    for m in path {
        write!(f, " {m}")?;
    }
    Ok(())
}

/// The stable text form: one line per event (without the newline).
impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Created { path } => {
                write!(f, "created {}", path.len())?;
                write_path(f, path)
            }
            Event::Eval { ply, path, score } => {
                write!(f, "eval {ply}")?;
                write_path(f, path)?;
                write!(f, " : {:02x}", score.0)
            }
            Event::AlphaBeta {
                path,
                score,
                two_above,
                cutoff,
            } => {
                write!(f, "alpha_beta {}", path.len())?;
                write_path(f, path)?;
                let (op, verdict) = if *cutoff {
                    ("<=", "cutoff")
                } else {
                    (">", "pass")
                };
                write!(f, " : {:02x} {op} {:02x} {verdict}", score.0, two_above.0)
            }
            Event::BestTest {
                path,
                negated,
                one_above,
                accepted,
            } => {
                write!(f, "best_test {}", path.len())?;
                write_path(f, path)?;
                let (op, verdict) = if *accepted {
                    (">", "new_best")
                } else {
                    ("<=", "discard")
                };
                write!(f, " : {:02x} {op} {:02x} {verdict}", negated.0, one_above.0)
            }
            Event::Best { path, score } => {
                write!(f, "best {}", path.len())?;
                write_path(f, path)?;
                write!(f, " : {:02x}", score.0)
            }
            Event::Ascend { ply } => write!(f, "ascend {ply}"),
            Event::Result { best, score } => match best {
                Some(m) => write!(f, "result {m} : {:02x}", score.0),
                None => write!(f, "result none : {:02x}", score.0),
            },
        }
    }
}

/// Which events a [`Recorder`] keeps.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Detail {
    /// Every event.
    Full,
    /// Only `best` events: all the PV extraction needs, at a fraction of the cost.
    BestOnly,
}

/// A hook that turns what the engine does into [`Event`]s, handed to a sink as they occur.
pub struct Recorder<'s> {
    detail: Detail,
    sink: Box<dyn FnMut(Event) + 's>,
}

impl<'s> Recorder<'s> {
    /// A recorder passing events at `detail` to `sink`.
    ///
    /// ```
    /// use sargon_core::{setup, Book, Detail, Engine, Event, Hooks, Recorder, SearchOptions};
    ///
    /// let mut best_events = 0;
    /// let mut recorder = Recorder::new(Detail::BestOnly, |e| {
    ///     assert!(matches!(e, Event::Best { .. }));
    ///     best_events += 1;
    /// });
    /// let mut hooks = Hooks::new();
    /// hooks.add(&mut recorder);
    /// let start = setup(&shakmaty::Chess::default(), Book::Off)?;
    /// sargon_port::Port::new().search(&start, &SearchOptions::depth(2), &mut hooks)?;
    /// drop(hooks);
    /// drop(recorder);
    /// assert!(best_events > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(detail: Detail, sink: impl FnMut(Event) + 's) -> Self {
        Recorder {
            detail,
            sink: Box::new(sink),
        }
    }

    /// A recorder that appends to a vector.
    ///
    /// ```
    /// use sargon_core::{setup, Book, Detail, Engine, Event, Hooks, Recorder, SearchOptions};
    ///
    /// let mut events = Vec::new();
    /// let mut recorder = Recorder::into_vec(Detail::Full, &mut events);
    /// let mut hooks = Hooks::new();
    /// hooks.add(&mut recorder);
    /// let start = setup(&shakmaty::Chess::default(), Book::Off)?;
    /// sargon_port::Port::new().search(&start, &SearchOptions::depth(1), &mut hooks)?;
    /// drop(hooks);
    /// drop(recorder);
    /// // The root's 20 moves are created.
    /// let created = events.iter().filter(|e| matches!(e, Event::Created { path } if path.len() == 1));
    /// assert_eq!(created.count(), 20);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn into_vec(detail: Detail, events: &'s mut Vec<Event>) -> Self {
        Recorder::new(detail, move |e| events.push(e))
    }
}

/// The hook points where a full trace's events arise (what [`Detail::Full`] records).
pub const EVENT_POINTS: [HookPoint; 6] = [
    HookPoint::MovegenDone,
    HookPoint::PointsEnd,
    HookPoint::AlphaBeta,
    HookPoint::BestTest,
    HookPoint::BestConfirmed,
    HookPoint::Ascend,
];

impl Hook for Recorder<'_> {
    fn points(&self) -> HookMask {
        match self.detail {
            Detail::Full => HookMask::of(&EVENT_POINTS),
            Detail::BestOnly => HookMask::of(&[HookPoint::BestConfirmed]),
        }
    }

    fn at(&mut self, event: &mut HookEvent<'_>) {
        let e = match event {
            HookEvent::MovegenDone(v) => {
                // Each move of the new list is a child of the node being expanded.
                let parent = v.search().path();
                for m in v.moves() {
                    let mut path = parent.clone();
                    path.push(m);
                    (self.sink)(Event::Created { path });
                }
                return;
            }
            HookEvent::PointsEnd(v) => Event::Eval {
                ply: v.search().ply(),
                path: v.search().path(),
                score: v.score(),
            },
            HookEvent::AlphaBeta(v) => Event::AlphaBeta {
                path: v.search().path(),
                score: v.score(),
                two_above: v.two_plies_up(),
                cutoff: v.cutoff(),
            },
            HookEvent::BestTest(v) => Event::BestTest {
                path: v.search().path(),
                negated: v.negated_score(),
                one_above: v.one_ply_up(),
                accepted: v.accepted(),
            },
            HookEvent::BestConfirmed(v) => Event::Best {
                path: v.search().path(),
                score: v.score(),
            },
            HookEvent::Ascend(v) => Event::Ascend {
                ply: v.search().ply(),
            },
            HookEvent::MovegenPath(_) | HookEvent::BookRandom(_) => return,
        };
        (self.sink)(e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_form() {
        let path = vec![SMove::plain(35, 55), SMove::plain(85, 65)];
        assert_eq!(
            Event::Created { path: path.clone() }.to_string(),
            "created 2 e2e4 e7e5"
        );
        assert_eq!(
            Event::Eval {
                ply: 0,
                path: vec![],
                score: Score(0x80)
            }
            .to_string(),
            "eval 0 : 80"
        );
        let ab = Event::AlphaBeta {
            path: path.clone(),
            score: Score(0x70),
            two_above: Score(0x78),
            cutoff: true,
        };
        assert_eq!(ab.to_string(), "alpha_beta 2 e2e4 e7e5 : 70 <= 78 cutoff");
        let bt = Event::BestTest {
            path,
            negated: Score(0x90),
            one_above: Score(0),
            accepted: true,
        };
        assert_eq!(bt.to_string(), "best_test 2 e2e4 e7e5 : 90 > 00 new_best");
        assert_eq!(
            Event::Result {
                best: None,
                score: Score(0xff)
            }
            .to_string(),
            "result none : ff"
        );
    }

    #[test]
    fn json_form() {
        let e = Event::Best {
            path: vec![SMove::plain(35, 55)],
            score: Score(0x78),
        };
        assert_eq!(
            e.to_json().to_string(),
            r#"{"event":"best","path":["e2e4"],"ply":1,"score":120}"#
        );
    }
}
