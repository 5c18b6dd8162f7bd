//! The principal variation, recovered from the "best so far" nodes.
//!
//! Sargon only chooses a move; it never records a line. But every time a node becomes the
//! best so far among its siblings the trace has a `best` event, and the principal
//! variation can be read off that list backwards ("A Window into Sargon"): scanning from the
//! last event to the first, take the first node of ply 1 met, then the first node of ply 2
//! met after it, and so on. A later `best` at ply N overrides everything recorded below an
//! earlier ply-N node, which is exactly why the backward scan finds the surviving line.

use shakmaty::{Chess, Position};

use crate::base::trace::Event;
use crate::base::vocab::SMove;

/// The principal variation from a trace's `best` events (other events are ignored).
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

/// The PV as UCI and SAN from `pos`; SAN stops at the first move that is not legal (which
/// would mean the trace and the position disagree).
pub fn pv_notation(pos: &Chess, pv: &[SMove]) -> (Vec<String>, Vec<String>) {
    let uci: Vec<String> = pv.iter().map(|m| m.uci()).collect();
    let mut san = Vec::new();
    let mut p = pos.clone();
    for m in pv {
        let Some(mv) = m.to_chess(&p) else {
            break;
        };
        san.push(shakmaty::san::SanPlus::from_move(p.clone(), mv).to_string());
        p.play_unchecked(mv);
    }
    (uci, san)
}

/// SAN with move numbers, as in "1.Qg8+ Nxg8 2.Nf7#" (Black to move starts "1...").
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
    use crate::base::vocab::{Score, Sq};

    fn best(path: &[(u8, u8)]) -> Event {
        let path = path
            .iter()
            .map(|&(f, t)| SMove {
                from: Sq(f),
                to: Sq(t),
                flags: 0,
            })
            .collect();
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
    }

    #[test]
    fn numbering() {
        let pos = Chess::default();
        let line = numbered_line(&pos, &["e4".into(), "e5".into(), "Nf3".into()]);
        assert_eq!(line, "1.e4 e5 2.Nf3");
    }
}
