//! The ratings per depth from a study's matches ([`rate_depths`]), and their table.

use std::fmt::Write as _;

use super::matches::{sargon_depth, uci_elo_in, Match};
use super::rating::{combine, Combination, Rating};
use sargon_chess::elo::Tally;

/// One depth's ratings.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub(crate) struct DepthRating {
    /// Sargon's depth.
    pub depth: u8,
    /// From its matches against rated opponents (several combined by inverse variance).
    pub direct: Option<Rating>,
    /// The anchors of those matches (the opponents' `UCI_Elo`).
    pub anchors: Vec<f64>,
    /// From the combined rating of depth + 1 and their match.
    pub chained: Option<Rating>,
    /// The two combined.
    pub combined: Option<Rating>,
    /// How they were combined.
    pub how: Option<Combination>,
}

/// Sums the tallies of matches between the same two players, `player` seen from `key`'s
/// first side.
fn add(tallies: &mut Vec<((u8, u8), Tally)>, key: (u8, u8), t: Tally) {
    if let Some((_, sum)) = tallies.iter_mut().find(|(k, _)| *k == key) {
        sum.wins += t.wins;
        sum.draws += t.draws;
        sum.losses += t.losses;
    } else {
        tallies.push((key, t));
    }
}

/// The ratings of depths 1 to `max_depth` from `matches` (module documentation). Matches
/// that are neither anchored nor between two Sargon depths are ignored; matches between
/// the same players are pooled.
pub(crate) fn rate_depths(matches: &[Match], max_depth: u8) -> Vec<DepthRating> {
    // (depth, anchor as an integer) -> results, and (k, k+1) -> k's results.
    let mut anchored: Vec<((u8, u8), Tally)> = Vec::new();
    let mut anchor_values: Vec<(u8, f64)> = Vec::new();
    let mut links: Vec<((u8, u8), Tally)> = Vec::new();
    for m in matches {
        let (p, o) = (sargon_depth(&m.player), sargon_depth(&m.opponent));
        match (p, o) {
            (Some(a), Some(b)) if b == a + 1 => add(&mut links, (a, b), m.tally),
            (Some(a), Some(b)) if a == b + 1 => add(&mut links, (b, a), m.tally.reversed()),
            (Some(d), None) | (None, Some(d)) => {
                let (rated, tally) = if p.is_some() {
                    (&m.opponent, m.tally)
                } else {
                    (&m.player, m.tally.reversed())
                };
                if let Some(anchor) = uci_elo_in(rated) {
                    // Anchors are whole numbers in names; the index keeps them apart.
                    let index = match anchor_values
                        .iter()
                        .position(|&(dd, a)| dd == d && a == anchor)
                    {
                        Some(i) => i,
                        None => {
                            anchor_values.push((d, anchor));
                            anchor_values.len() - 1
                        }
                    };
                    add(&mut anchored, (d, index as u8), tally);
                }
            }
            _ => {}
        }
    }
    let mut out: Vec<DepthRating> = (1..=max_depth)
        .map(|depth| {
            let mut direct = None;
            let mut anchors = Vec::new();
            for ((d, index), tally) in &anchored {
                if *d != depth {
                    continue;
                }
                let anchor = anchor_values[usize::from(*index)].1;
                anchors.push(anchor);
                let r = Rating::against(anchor, tally);
                direct = match direct {
                    None => r,
                    Some(prev) => combine(Some(prev), r).map(|(c, _)| c),
                };
            }
            DepthRating {
                depth,
                direct,
                anchors,
                chained: None,
                combined: None,
                how: None,
            }
        })
        .collect();
    // Downwards from the deepest depth.
    for i in (0..out.len()).rev() {
        let depth = out[i].depth;
        if let Some(above) = out.get(i + 1).and_then(|r| r.combined)
            && let Some((_, link)) = links.iter().find(|(k, _)| *k == (depth, depth + 1))
        {
            out[i].chained = above.chained(link);
        }
        let combined = combine(out[i].direct, out[i].chained);
        out[i].combined = combined.map(|(r, _)| r);
        out[i].how = combined.map(|(_, h)| h);
    }
    out
}

/// The per-depth table as Markdown-compatible text.
pub(crate) fn render_depth_table(depths: &[DepthRating]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| depth | direct: against the anchor (95%) | chained from depth + 1 (95%) | combined (95%) | how |"
    );
    let _ = writeln!(out, "|---:|---:|---:|---:|---|");
    let show = |r: Option<Rating>| r.map_or("-".to_string(), |r| r.to_string());
    for d in depths {
        let anchors: Vec<String> = d.anchors.iter().map(|a| format!("{a:.0}")).collect();
        let direct = match d.direct {
            Some(r) => format!("{r} [anchor {}]", anchors.join(", ")),
            None => "-".to_string(),
        };
        let _ = writeln!(
            out,
            "| {} | {direct} | {} | {} | {} |",
            d.depth,
            show(d.chained),
            show(d.combined),
            d.how.map_or("", Combination::describe)
        );
    }
    out
}
