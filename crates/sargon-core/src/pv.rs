//! The principal variation, recovered from the "best so far" nodes.
//!
//! Sargon only chooses a move; it never records a line. But every time a node becomes the
//! best so far among its siblings the trace has a `best` event, and the principal
//! variation can be read off that list backwards ("A Window into Sargon"): scanning from the
//! last event to the first, take the first node of ply 1 met, then the first node of ply 2
//! met after it, and so on. A later `best` at ply N overrides everything recorded below an
//! earlier ply-N node, which is exactly why the backward scan finds the surviving line.
//!
//! # Example: the backward scan
//!
//! ```
//! use sargon_core::pv::principal_variation;
//! use sargon_core::{Event, SMove, Score};
//!
//! // Sargon's squares (21 is a1); e2e4 is 35-55, d2d4 34-54, e7e5 85-65.
//! let (e4, d4, e5) = (SMove::plain(35, 55), SMove::plain(34, 54), SMove::plain(85, 65));
//! let best = |path: Vec<SMove>| Event::Best { path, score: Score(0x80) };
//! // d4 was best first, then e4 with its reply e5 replaced it.
//! let events = [best(vec![d4]), best(vec![e4, e5]), best(vec![e4])];
//! assert_eq!(principal_variation(events.iter()), [e4, e5]);
//! ```

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move, Position};

use crate::engine::SearchOutcome;
use crate::trace::Event;
use crate::vocab::SMove;

/// The principal variation from a trace's `best` events (other events are ignored).
///
/// ```
/// use sargon_core::pv::principal_variation;
/// use sargon_core::{Event, SMove, Score};
///
/// let (e4, e5, d4) = (SMove::plain(35, 55), SMove::plain(85, 65), SMove::plain(34, 54));
/// let best = |path: Vec<SMove>| Event::Best { path, score: Score(0x80) };
/// assert_eq!(principal_variation([best(vec![e4, e5]), best(vec![e4])].iter()), [e4, e5]);
/// // A later ply-1 node without its reply replaces the line.
/// assert_eq!(principal_variation([best(vec![e4, e5]), best(vec![e4]), best(vec![d4])].iter()), [d4]);
/// ```
pub fn principal_variation<'a>(events: impl DoubleEndedIterator<Item = &'a Event>) -> Vec<SMove> {
    let mut pv: Vec<SMove> = Vec::new();
    for e in events.rev() {
        if let Event::Best { path, .. } = e {
            // The node must continue the line found so far (it always does, by the argument
            // above; the check keeps a corrupt trace from producing a nonsense line).
            if path.len() == pv.len() + 1 && path.starts_with(&pv) {
                pv = path.clone();
            }
        }
    }
    pv
}

/// [`principal_variation`] read forwards, one event at a time, for a trace too long to keep
/// (the tree of a deep search): the same line in memory of the search's depth.
///
/// For each ply it keeps the line of the latest `best` node of that ply: the node's path,
/// extended by the line of the latest `best` one ply deeper when that line continues it
/// (the node's own best reply, found just before the node was backed up). The line of the
/// latest ply-1 `best` is the principal variation, as the backward scan finds it.
#[derive(Clone, Debug, Default)]
pub struct PvTracker {
    /// `lines[k]`: the line of the latest `best` at ply k (index 0 unused).
    lines: Vec<Vec<SMove>>,
}

impl PvTracker {
    /// A tracker that has seen no event yet.
    ///
    /// ```
    /// use sargon_core::pv::PvTracker;
    /// assert!(PvTracker::new().line().is_empty());
    /// ```
    pub fn new() -> PvTracker {
        PvTracker::default()
    }

    /// Take one event of the trace (all but `best` are ignored).
    ///
    /// ```
    /// use sargon_core::pv::{principal_variation, PvTracker};
    /// use sargon_core::{Event, SMove, Score};
    ///
    /// let (e4, e5, d4) = (SMove::plain(35, 55), SMove::plain(85, 65), SMove::plain(34, 54));
    /// let best = |path: Vec<SMove>| Event::Best { path, score: Score(0x80) };
    /// let events = [best(vec![d4]), best(vec![e4, e5]), best(vec![e4])];
    /// let mut tracker = PvTracker::new();
    /// for e in &events {
    ///     tracker.add(e);
    /// }
    /// assert_eq!(tracker.line(), [e4, e5]);
    /// assert_eq!(tracker.line(), principal_variation(events.iter()));
    /// ```
    pub fn add(&mut self, event: &Event) {
        let Event::Best { path, .. } = event else {
            return;
        };
        let ply = path.len();
        if ply == 0 {
            return;
        }
        if self.lines.len() <= ply + 1 {
            self.lines.resize(ply + 2, Vec::new());
        }
        let below = &self.lines[ply + 1];
        self.lines[ply] = if below.len() > ply && below.starts_with(path) {
            below.clone()
        } else {
            path.clone()
        };
    }

    /// The principal variation of the events so far.
    ///
    /// ```
    /// use sargon_core::pv::PvTracker;
    /// use sargon_core::{Event, SMove, Score};
    ///
    /// let mut tracker = PvTracker::new();
    /// tracker.add(&Event::Best { path: vec![SMove::plain(35, 55)], score: Score(0x80) });
    /// assert_eq!(tracker.line(), [SMove::plain(35, 55)]);
    /// ```
    pub fn line(&self) -> &[SMove] {
        self.lines.get(1).map_or(&[], |l| l.as_slice())
    }
}

/// A principal variation in every form the tools print.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PvLine {
    /// Sargon's moves, as its trace names them.
    pub sargon: Vec<SMove>,
    /// The chess moves, up to the first of Sargon's moves that is not legal (which would
    /// mean the trace and the position disagree).
    pub moves: Vec<Move>,
    /// SAN (with + or #) of `moves`.
    pub san: Vec<String>,
    /// UCI of every one of Sargon's moves.
    pub uci: Vec<String>,
}

impl PvLine {
    /// Sargon's moves `sargon`, played from `pos`.
    pub(crate) fn new(pos: &Chess, sargon: Vec<SMove>) -> PvLine {
        let uci = sargon.iter().map(|m| m.uci()).collect();
        let (mut moves, mut san) = (Vec::new(), Vec::new());
        let mut p = pos.clone();
        for m in &sargon {
            let Some(mv) = m.to_chess(&p) else {
                break;
            };
            san.push(SanPlus::from_move(p.clone(), mv).to_string());
            p.play_unchecked(mv);
            moves.push(mv);
        }
        PvLine {
            sargon,
            moves,
            san,
            uci,
        }
    }
}

/// The principal variation of a search of `pos` from its outcome and its events: the
/// move alone when it came from the book (there was no search), else the line the `best`
/// events give ([`principal_variation`]).
pub(crate) fn line(pos: &Chess, outcome: &SearchOutcome, events: &[Event]) -> PvLine {
    let sargon = if outcome.from_book {
        outcome.best.into_iter().collect()
    } else {
        principal_variation(events.iter())
    };
    PvLine::new(pos, sargon)
}

/// SAN (with + or #) of one of Sargon's moves in `pos`, if it is legal there.
///
/// ```
/// use sargon_core::{pv, SMove};
/// let start = shakmaty::Chess::default();
/// assert_eq!(pv::san(&start, &SMove::plain(22, 43)).as_deref(), Some("Nc3")); // b1-c3
/// assert_eq!(pv::san(&start, &SMove::plain(22, 42)), None);
/// ```
pub fn san(pos: &Chess, m: &SMove) -> Option<String> {
    let mv = m.to_chess(pos)?;
    Some(SanPlus::from_move(pos.clone(), mv).to_string())
}

/// SAN with move numbers, as in "1.Qg8+ Nxg8 2.Nf7#" (Black to move starts "1...").
///
/// ```
/// let start = shakmaty::Chess::default();
/// let line = ["e4", "e5", "Nf3"].map(String::from);
/// assert_eq!(sargon_core::pv::numbered_line(&start, &line), "1.e4 e5 2.Nf3");
/// ```
pub fn numbered_line(pos: &Chess, san: &[String]) -> String {
    let mut out = String::new();
    let mut number = pos.fullmoves().get();
    let mut white = pos.turn() == shakmaty::Color::White;
    for (i, s) in san.iter().enumerate() {
        if !out.is_empty() {
            out.push(' ');
        }
        if white {
            out.push_str(&format!("{number}."));
        } else if i == 0 {
            out.push_str(&format!("{number}..."));
        }
        out.push_str(s);
        if !white {
            number += 1;
        }
        white = !white;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::Score;

    fn best(path: &[(u8, u8)]) -> Event {
        let path = path.iter().map(|&(f, t)| SMove::plain(f, t)).collect();
        Event::Best {
            path,
            score: Score(0x80),
        }
    }

    /// The document's three examples, with A=(31,41) B=(32,42), G/H at ply 2, A/B at ply 3.
    #[test]
    fn backward_scan_follows_the_document() {
        let (a, b, g, h) = ((31, 41), (32, 42), (87, 77), (88, 78));
        // Minimum asterisks: PV = A, AG, AGA.
        let events = [
            best(&[a, g, a]),
            best(&[a, g]),
            best(&[a, h, a]),
            best(&[a]),
            best(&[b, g, a]),
            best(&[b, g]),
            best(&[b, h, a]),
        ];
        let pv = principal_variation(events.iter());
        assert_eq!(
            pv.iter().map(|m| (m.from.0, m.to.0)).collect::<Vec<_>>(),
            vec![a, g, a]
        );
        assert_eq!(tracked(&events), pv, "forwards as backwards");
        // The B branch wins: PV = B, BG, BGB.
        let events = [
            best(&[a, g, a]),
            best(&[a, g]),
            best(&[a, h, a]),
            best(&[a, h, b]),
            best(&[a, h]),
            best(&[a]),
            best(&[b, g, a]),
            best(&[b, g, b]),
            best(&[b, g]),
            best(&[b, h, a]),
            best(&[b, h, b]),
            best(&[b]),
        ];
        let pv = principal_variation(events.iter());
        assert_eq!(
            pv.iter().map(|m| (m.from.0, m.to.0)).collect::<Vec<_>>(),
            vec![b, g, b]
        );
        assert_eq!(tracked(&events), pv, "forwards as backwards");
    }

    fn tracked(events: &[Event]) -> Vec<SMove> {
        let mut t = PvTracker::new();
        for e in events {
            t.add(e);
        }
        t.line().to_vec()
    }

    fn outcome(best: Option<SMove>, from_book: bool) -> SearchOutcome {
        SearchOutcome {
            best,
            root_score: Score(0x80),
            from_book,
            stats: Default::default(),
        }
    }

    #[test]
    fn the_line_in_every_notation() {
        let pos = Chess::default();
        // e2e4 e7e5 g1f3, then a move that is not legal there (the pawn on e4 cannot go
        // back): the chess forms stop before it, the UCI keeps Sargon's whole line.
        let Event::Best { path, .. } = best(&[(35, 55), (85, 65), (27, 46), (55, 35)]) else {
            unreachable!()
        };
        let pv = PvLine::new(&pos, path);
        assert_eq!(pv.uci, ["e2e4", "e7e5", "g1f3", "e4e2"]);
        assert_eq!(pv.san, ["e4", "e5", "Nf3"]);
        assert_eq!(pv.moves.len(), 3);
        assert_eq!(pv.sargon.len(), 4);
    }

    #[test]
    fn a_book_move_is_the_whole_line() {
        let pos = Chess::default();
        let e4 = SMove::plain(35, 55);
        // The book plays without searching: whatever the events, the line is its move.
        let events = [best(&[(34, 54)]), best(&[(34, 54), (84, 64)])];
        let book = line(&pos, &outcome(Some(e4), true), &events);
        assert_eq!(book.uci, ["e2e4"]);
        assert_eq!(book.san, ["e4"]);
        let searched = line(&pos, &outcome(Some(e4), false), &events[..1]);
        assert_eq!(searched.san, ["d4"]);
        assert_eq!(line(&pos, &outcome(None, false), &[]), PvLine::default());
    }

    #[test]
    fn numbering() {
        let pos = Chess::default();
        let line = numbered_line(&pos, &["e4".into(), "e5".into(), "Nf3".into()]);
        assert_eq!(line, "1.e4 e5 2.Nf3");
    }
}
