//! Elo per Sargon depth from the matches of a strength study (issue 14, `sargon history
//! strength`, `scripts/strength.sh`).
//!
//! The matches are of two kinds:
//!
//! * **anchored**: Sargon at depth `d` against an engine whose name carries `UCI_Elo=N`
//!   (Stockfish with `UCI_LimitStrength`): depth `d` is then rated `N + diff`, the interval
//!   the match's ([`sargon_tools::elo`]);
//! * **chain links**: Sargon at depth `k` against depth `k+1`, giving `Elo(k) - Elo(k+1)`.
//!
//! Each depth can thus have a *direct* rating (its anchored matches) and a *chained* one
//! (the rating of depth `k+1` plus the link's difference). The chain runs downwards, from
//! the deepest depth: that is how the issue frames it (the strong depths are anchored,
//! the weak ones below the anchor's floor are reached through the depths above), and it
//! uses each match once, so the two ratings of a depth rest on different games and can be
//! combined as independent estimates:
//!
//! * chaining adds the link's difference to the rating above and combines the interval
//!   half-widths in quadrature, the lower and the upper side separately (`sqrt(a² + b²)`):
//!   an approximation, since the Elo intervals are not symmetric nor exactly normal;
//! * every rating also carries a standard error: a match's by the delta method
//!   ([`Tally::elo_std_error`]), which stays finite where the interval mapped through the
//!   Elo curve is open on one side (a 5/1/0 score, say); chaining adds them in quadrature;
//! * combining weighs the direct and the chained rating by inverse variance (`1/σ²`); the
//!   combined interval is `±1.96 σ` about the weighted mean, `σ = 1/sqrt(Σ 1/σᵢ²)`: a normal
//!   approximation, symmetric and finite, which with a handful of games per match is only
//!   indicative. A standard error of 0 (every game of a match drawn, say) reflects a tiny
//!   sample, not a certainty, so it is not weighed: the other rating is kept, and when
//!   neither can be weighed, the direct one (one match from the anchor, rather than
//!   several links).
//!
//! A match scored 0% or 100% has no finite Elo difference: it only says that one side is
//! stronger ([`Rating::Above`], [`Rating::Below`]); such bounds are chained as bounds and
//! never turned into numbers.
//!
//! **Repeated games count once.** Two deterministic players (Sargon against Sargon) from
//! the same opening with the same colours play the same game again, move for move: a file
//! of 110 games from 12 openings holds only 24 different games, and counting the repeats
//! would narrow the intervals as if they were new evidence. [`distinct_games`] keeps the
//! first of each; a match against an engine that varies its play (Stockfish at a limited
//! strength) loses nothing.

use std::collections::HashSet;
use std::fmt::{self, Write as _};

use shakmaty::uci::UciMove;
use shakmaty::CastlingMode;

use crate::studies::svg;
use sargon_tools::elo::{Tally, Z_95};
use sargon_tools::pgn::PgnGame;

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

/// An Elo rating with its 95% interval, or only a bound when a match was won or lost
/// entirely.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum Rating {
    /// A rating with its interval; a bound is infinite (`null` in JSON) when the games
    /// leave that side open.
    Value {
        /// The rating.
        elo: f64,
        /// The interval's lower end.
        low: f64,
        /// The interval's upper end.
        high: f64,
        /// Its standard error, for weighing (module documentation).
        sigma: f64,
    },
    /// Stronger than `bound`: all games won against a player rated `bound`.
    Above {
        /// The bound.
        bound: f64,
    },
    /// Weaker than `bound`: all games lost.
    Below {
        /// The bound.
        bound: f64,
    },
}

impl Rating {
    /// The rating of a player whose results against one rated `anchor` are `tally`;
    /// `None` before any game.
    pub(crate) fn against(anchor: f64, tally: &Tally) -> Option<Rating> {
        let e = tally.elo()?;
        Some(if e.diff == f64::INFINITY {
            Rating::Above { bound: anchor }
        } else if e.diff == f64::NEG_INFINITY {
            Rating::Below { bound: anchor }
        } else {
            Rating::Value {
                elo: anchor + e.diff,
                low: anchor + e.low,
                high: anchor + e.high,
                sigma: tally.elo_std_error().unwrap_or(0.0),
            }
        })
    }

    /// The rating of the weaker-numbered side of a link: this rating (of depth `k+1`)
    /// plus the difference `link` (depth `k`'s results against `k+1`). Half-widths add in
    /// quadrature; bounds stay bounds; `None` when nothing follows (a bound above and a
    /// 0% link, say).
    pub(crate) fn chained(&self, link: &Tally) -> Option<Rating> {
        let e = link.elo()?;
        let won_all = e.diff == f64::INFINITY;
        let lost_all = e.diff == f64::NEG_INFINITY;
        match *self {
            Rating::Value {
                elo,
                low,
                high,
                sigma,
            } => Some(if won_all {
                Rating::Above { bound: elo }
            } else if lost_all {
                Rating::Below { bound: elo }
            } else {
                let quad = |a: f64, b: f64| (a * a + b * b).sqrt();
                let centre = elo + e.diff;
                Rating::Value {
                    elo: centre,
                    low: centre - quad(elo - low, e.diff - e.low),
                    high: centre + quad(high - elo, e.high - e.diff),
                    sigma: quad(sigma, link.elo_std_error().unwrap_or(0.0)),
                }
            }),
            Rating::Above { bound } if !lost_all => Some(Rating::Above {
                bound: if won_all { bound } else { bound + e.diff },
            }),
            Rating::Below { bound } if !won_all => Some(Rating::Below {
                bound: if lost_all { bound } else { bound + e.diff },
            }),
            _ => None,
        }
    }

    /// The standard error inverse-variance weighting uses: `None` for a bound or a
    /// standard error of 0 (module documentation).
    fn weighable_sigma(&self) -> Option<f64> {
        match *self {
            Rating::Value { sigma, .. } => (sigma.is_finite() && sigma > 0.0).then_some(sigma),
            _ => None,
        }
    }

    /// The rating's central value, for plots: the rating, or its bound.
    pub(crate) fn centre(&self) -> f64 {
        match *self {
            Rating::Value { elo, .. } => elo,
            Rating::Above { bound } | Rating::Below { bound } => bound,
        }
    }
}

/// "1541 (1311 to +inf)", "> 1350", "< 1350".
impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let end = |x: f64| {
            if x.is_infinite() {
                if x > 0.0 { "+inf" } else { "-inf" }.to_string()
            } else {
                format!("{x:.0}")
            }
        };
        match *self {
            Rating::Value { elo, low, high, .. } => {
                write!(f, "{elo:.0} ({} to {})", end(low), end(high))
            }
            Rating::Above { bound } => write!(f, "> {bound:.0}"),
            Rating::Below { bound } => write!(f, "< {bound:.0}"),
        }
    }
}

/// How a depth's combined rating came about.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Combination {
    /// Only a direct rating.
    Direct,
    /// Only a chained one.
    Chained,
    /// Both, weighted by inverse variance.
    Weighted,
    /// Both, but only the direct one could be weighed or neither: the direct one kept.
    DirectKept,
    /// Both, but only the chained one could be weighed.
    ChainedKept,
    /// Both bounds, the tighter one kept.
    TighterBound,
}

impl Combination {
    /// A few words for the table.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Combination::Direct => "direct only",
            Combination::Chained => "chained only",
            Combination::Weighted => "inverse-variance weighted",
            Combination::DirectKept => "direct (chained cannot be weighed)",
            Combination::ChainedKept => "chained (direct cannot be weighed)",
            Combination::TighterBound => "the tighter bound",
        }
    }
}

/// Combine a depth's direct and chained ratings (module documentation).
pub(crate) fn combine(
    direct: Option<Rating>,
    chained: Option<Rating>,
) -> Option<(Rating, Combination)> {
    match (direct, chained) {
        (None, None) => None,
        (Some(d), None) => Some((d, Combination::Direct)),
        (None, Some(c)) => Some((c, Combination::Chained)),
        (Some(d), Some(c)) => Some(match (d, c) {
            (Rating::Above { bound: a }, Rating::Above { bound: b }) => {
                (Rating::Above { bound: a.max(b) }, Combination::TighterBound)
            }
            (Rating::Below { bound: a }, Rating::Below { bound: b }) => {
                (Rating::Below { bound: a.min(b) }, Combination::TighterBound)
            }
            _ => match (d.weighable_sigma(), c.weighable_sigma()) {
                (Some(sd), Some(sc)) => {
                    let (wd, wc) = (1.0 / (sd * sd), 1.0 / (sc * sc));
                    let elo = (wd * d.centre() + wc * c.centre()) / (wd + wc);
                    let sigma = 1.0 / (wd + wc).sqrt();
                    (
                        Rating::Value {
                            elo,
                            low: elo - Z_95 * sigma,
                            high: elo + Z_95 * sigma,
                            sigma,
                        },
                        Combination::Weighted,
                    )
                }
                (None, Some(_)) => (c, Combination::ChainedKept),
                (None, None)
                    if !matches!(d, Rating::Value { .. }) && matches!(c, Rating::Value { .. }) =>
                {
                    (c, Combination::ChainedKept)
                }
                _ => (d, Combination::DirectKept),
            },
        }),
    }
}

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
        if let Some(above) = out.get(i + 1).and_then(|r| r.combined) {
            if let Some((_, link)) = links.iter().find(|(k, _)| *k == (depth, depth + 1)) {
                out[i].chained = above.chained(link);
            }
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

/// The combined ratings per depth as an SVG plot: a point per depth with its 95% interval
/// as an error bar (an arrow where it is unbounded, a bare arrow for a bound), the direct
/// and chained ratings as small markers beside it, and each anchor as a horizontal line
/// labelled with `anchor_engine` (the rated opponent, "Stockfish 15.1" say).
pub(crate) fn svg_plot(depths: &[DepthRating], subtitle: &str, anchor_engine: &str) -> String {
    const W: f64 = 760.0;
    const H: f64 = 560.0;
    let (left, right, top, bottom) = (80.0, 30.0, 70.0, 122.0);
    let (pw, ph) = (W - left - right, H - top - bottom);
    let max_depth = depths.iter().map(|d| d.depth).max().unwrap_or(6).max(1);
    // The y range: every finite value shown, rounded out to 100s, at least 400 wide.
    let mut values: Vec<f64> = Vec::new();
    for d in depths {
        for r in [d.direct, d.chained, d.combined].into_iter().flatten() {
            values.push(r.centre());
            if let Rating::Value { low, high, .. } = r {
                values.extend([low, high].into_iter().filter(|x| x.is_finite()));
            }
        }
        values.extend(&d.anchors);
    }
    let (mut lo, mut hi) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    if !lo.is_finite() {
        (lo, hi) = (1000.0, 1600.0);
    }
    lo = (lo / 100.0).floor() * 100.0 - 100.0;
    hi = (hi / 100.0).ceil() * 100.0 + 100.0;
    if hi - lo < 400.0 {
        hi = lo + 400.0;
    }
    let x = |depth: f64| left + (depth - 0.5) / f64::from(max_depth) * pw;
    let y = |elo: f64| top + ph - (elo.clamp(lo, hi) - lo) / (hi - lo) * ph;
    let mut s = svg::open(W, H);
    svg::title(
        &mut s,
        W,
        "Sargon (1978): Elo by search depth, with 95% intervals",
        subtitle,
    );
    // Grid.
    let step = if hi - lo > 1200.0 { 200.0 } else { 100.0 };
    let mut v = lo;
    while v <= hi + 1e-9 {
        let yy = y(v);
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{v:.0}</text>"##,
            left + pw,
            left - 8.0,
            yy + 4.5
        );
        v += step;
    }
    let _ = writeln!(
        s,
        r##"<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#333"/>"##
    );
    for depth in 1..=max_depth {
        let xx = x(f64::from(depth));
        let _ = writeln!(
            s,
            r##"<text x="{xx:.1}" y="{:.1}" text-anchor="middle">{depth}</text>"##,
            top + ph + 20.0
        );
    }
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="14">Sargon's search depth (plies)</text>"##,
        left + pw / 2.0,
        top + ph + 42.0
    );
    let _ = writeln!(
        s,
        r##"<text transform="translate(22,{:.1}) rotate(-90)" text-anchor="middle" font-size="14">Elo (the anchor's scale)</text>"##,
        top + ph / 2.0
    );
    // Anchors.
    let red = "#c0392b";
    let mut anchors: Vec<f64> = depths.iter().flat_map(|d| d.anchors.clone()).collect();
    anchors.sort_by(f64::total_cmp);
    anchors.dedup();
    for a in &anchors {
        let yy = y(*a);
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="{red}" stroke-width="2" stroke-dasharray="7,5"/><text x="{:.1}" y="{:.1}" fill="{red}" text-anchor="end">anchor: {}, UCI_Elo={a:.0}</text>"##,
            left + pw,
            left + pw - 6.0,
            yy - 6.0,
            svg::escape(anchor_engine),
        );
    }
    // The ratings: direct and chained small, left and right; combined large, centred.
    let series = [
        (-14.0, 3.5, 1.2, "#7f8c8d", 0usize),
        (14.0, 3.5, 1.2, "#e67e22", 1),
        (0.0, 6.0, 2.5, "#1f5fa8", 2),
    ];
    for d in depths {
        for &(dx, radius, width, colour, which) in &series {
            let r = match which {
                0 => d.direct,
                1 => d.chained,
                _ => d.combined,
            };
            let Some(r) = r else { continue };
            let xx = x(f64::from(d.depth)) + dx;
            draw_rating(&mut s, &r, xx, radius, width, colour, &y, (top, top + ph));
        }
    }
    // Legend, under the plot (the data can reach every corner of it).
    let rows = [
        (
            "#1f5fa8",
            6.0,
            "combined (bar: 95% interval, arrow: open end or bound)",
        ),
        ("#7f8c8d", 3.5, "direct: against the anchor"),
        ("#e67e22", 3.5, "chained: depth + 1 and their match"),
    ];
    let legend_top = top + ph + 66.0;
    for (i, (colour, radius, label)) in rows.iter().enumerate() {
        let (lx, ly) = if i == 0 {
            (left + 10.0, legend_top)
        } else {
            (left + 10.0 + 330.0 * (i - 1) as f64, legend_top + 22.0)
        };
        let _ = writeln!(
            s,
            r##"<circle cx="{lx:.1}" cy="{ly:.1}" r="{radius}" fill="{colour}"/><text x="{:.1}" y="{:.1}">{label}</text>"##,
            lx + 14.0,
            ly + 4.5
        );
    }
    let (lx, ly) = (left + 430.0, legend_top);
    let _ = writeln!(
        s,
        r##"<line x1="{lx:.1}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="{red}" stroke-width="2" stroke-dasharray="7,5"/><text x="{:.1}" y="{:.1}">an anchor's level</text>"##,
        lx + 24.0,
        lx + 32.0,
        ly + 4.5
    );
    s.push_str("</svg>\n");
    s
}

/// One rating: a dot with its error bar, arrows for open ends; a bound is an arrow from it.
#[allow(clippy::too_many_arguments)]
fn draw_rating(
    s: &mut String,
    r: &Rating,
    xx: f64,
    radius: f64,
    width: f64,
    colour: &str,
    y: &dyn Fn(f64) -> f64,
    (plot_top, plot_bottom): (f64, f64),
) {
    let arrow = |s: &mut String, from: f64, up: bool| {
        let end = if up {
            plot_top + 4.0
        } else {
            plot_bottom - 4.0
        };
        let tip = if up { 7.0 } else { -7.0 };
        let _ = writeln!(
            s,
            r##"<line x1="{xx:.1}" y1="{from:.1}" x2="{xx:.1}" y2="{end:.1}" stroke="{colour}" stroke-width="{width}" stroke-opacity="0.6"/><polyline points="{:.1},{:.1} {xx:.1},{end:.1} {:.1},{:.1}" fill="none" stroke="{colour}" stroke-width="{width}" stroke-opacity="0.6"/>"##,
            xx - 5.0,
            end + tip,
            xx + 5.0,
            end + tip
        );
    };
    match *r {
        Rating::Value { elo, low, high, .. } => {
            let (y1, y2) = (y(low), y(high));
            let _ = writeln!(
                s,
                r##"<line x1="{xx:.1}" y1="{y1:.1}" x2="{xx:.1}" y2="{y2:.1}" stroke="{colour}" stroke-width="{width}" stroke-opacity="0.6"/>"##
            );
            for (end, open, up) in [
                (y1, low.is_infinite(), false),
                (y2, high.is_infinite(), true),
            ] {
                if open {
                    arrow(s, end, up);
                } else {
                    let _ = writeln!(
                        s,
                        r##"<line x1="{:.1}" y1="{end:.1}" x2="{:.1}" y2="{end:.1}" stroke="{colour}" stroke-width="{width}" stroke-opacity="0.6"/>"##,
                        xx - 5.0,
                        xx + 5.0
                    );
                }
            }
            let _ = writeln!(
                s,
                r##"<circle cx="{xx:.1}" cy="{:.1}" r="{radius}" fill="{colour}"/>"##,
                y(elo)
            );
        }
        Rating::Above { bound } => arrow(s, y(bound), true),
        Rating::Below { bound } => arrow(s, y(bound), false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    fn value(r: Option<Rating>) -> (f64, f64, f64) {
        match r {
            Some(Rating::Value { elo, low, high, .. }) => (elo, low, high),
            other => panic!("not a value: {other:?}"),
        }
    }

    #[test]
    fn repeated_games_count_once() {
        let text = |white: &str, moves: &str, result: &str| {
            format!(
                "[White \"{white}\"]\n[Black \"B\"]\n[Result \"{result}\"]\n\n{moves} {result}\n\n"
            )
        };
        let file = [
            text("A", "1. e4 e5", "1/2-1/2"),
            text("A", "1. e4 e5", "1/2-1/2"), // a repeat
            text("A", "1. e4 e6", "1/2-1/2"), // other moves
            text("A", "1. e4 e5", "1-0"),     // other result
            text("C", "1. e4 e5", "1/2-1/2"), // other players
            text("A", "1. e4 e5", "1/2-1/2"), // a repeat again
        ]
        .concat();
        let games = sargon_tools::pgn::read_games(&file).unwrap();
        let (kept, repeats) = distinct_games(&games);
        assert_eq!((kept.len(), repeats), (4, 2));
        assert_eq!(kept[2].moves.len(), 2);
        assert_eq!(kept[2].result, "1-0");
    }

    #[test]
    fn names() {
        assert_eq!(sargon_depth("Sargon 1978 (port, depth 3)"), Some(3));
        assert_eq!(
            sargon_depth("Sargon 1978 (port, depth 12, no book)"),
            Some(12)
        );
        assert_eq!(
            sargon_depth("Sargon 1978 (emulator, depth 2) [ROM x NOT VERIFIED]"),
            Some(2)
        );
        assert_eq!(sargon_depth("Stockfish 15.1 (depth 3)"), None);
        assert_eq!(sargon_depth("Sargon 1978 (port)"), None);
        assert_eq!(
            uci_elo_in("Stockfish 15.1 (movetime 200 ms, UCI_Elo=1350)"),
            Some(1350.0)
        );
        assert_eq!(uci_elo_in("Stockfish"), None);
    }

    #[test]
    fn anchored_and_bounds() {
        // 3/1/0 = 87.5%: -400 log10(1/0.875 - 1) = +338.04.
        let (elo, low, high) = value(Rating::against(1350.0, &tally(3, 1, 0)));
        assert!((elo - 1688.04).abs() < 0.01, "{elo}");
        assert!(low < elo && high.is_infinite());
        assert_eq!(
            Rating::against(1350.0, &tally(4, 0, 0)),
            Some(Rating::Above { bound: 1350.0 })
        );
        assert_eq!(
            Rating::against(1350.0, &tally(0, 0, 2))
                .unwrap()
                .to_string(),
            "< 1350"
        );
        assert_eq!(Rating::against(1350.0, &tally(0, 0, 0)), None);
    }

    fn rating(elo: f64, low: f64, high: f64, sigma: f64) -> Rating {
        Rating::Value {
            elo,
            low,
            high,
            sigma,
        }
    }

    #[test]
    fn chaining_adds_in_quadrature() {
        // The link 10/0/10 is +0 with half-widths h = elo_of_score(0.5 + 1.96 * 0.5 /
        // sqrt(20)) = 163.3 (checked in elo.rs) and a standard error of 77.69; above it,
        // 1500 -300/+400, σ 150.
        let above = rating(1500.0, 1200.0, 1900.0, 150.0);
        let h = tally(10, 0, 10).elo().unwrap().high;
        let Some(Rating::Value {
            elo,
            low,
            high,
            sigma,
        }) = above.chained(&tally(10, 0, 10))
        else {
            panic!("a value chains to a value")
        };
        assert!((elo - 1500.0).abs() < 1e-9);
        assert!((1500.0 - low - (300f64.powi(2) + h * h).sqrt()).abs() < 1e-9);
        assert!((high - 1500.0 - (400f64.powi(2) + h * h).sqrt()).abs() < 1e-9);
        // By hand: sqrt(300² + 163.3²) = 341.6, sqrt(150² + 77.69²) = 168.9.
        assert!((1500.0 - low - 341.6).abs() < 0.2, "{low}");
        assert!((sigma - 168.9).abs() < 0.1, "{sigma}");
        // A 75% link: k is 190.85 above k+1.
        let (elo, ..) = value(above.chained(&tally(3, 0, 1)));
        assert!((elo - 1690.85).abs() < 0.01);
        // Whole-match links and bounds.
        assert_eq!(
            above.chained(&tally(2, 0, 0)),
            Some(Rating::Above { bound: 1500.0 })
        );
        let bound = Rating::Above { bound: 1400.0 };
        assert_eq!(
            bound.chained(&tally(1, 0, 3)).unwrap().to_string(),
            "> 1209"
        );
        assert_eq!(bound.chained(&tally(0, 0, 3)), None);
    }

    #[test]
    fn combining_by_inverse_variance() {
        // σ 100 and 200: weights 4:1, so (4 * 1400 + 1900) / 5 = 1500; σ = 1/sqrt(1/100² +
        // 1/200²) = 89.44, half-width 1.96 * 89.44 = 175.3. The inputs' own intervals do
        // not enter (one is open above here).
        let a = rating(1400.0, 1204.0, 1596.0, 100.0);
        let b = rating(1900.0, 1508.0, f64::INFINITY, 200.0);
        let (r, how) = combine(Some(a), Some(b)).unwrap();
        assert_eq!(how, Combination::Weighted);
        let (elo, low, high) = value(Some(r));
        assert!((elo - 1500.0).abs() < 1e-6, "{elo}");
        assert!((high - elo - 175.3).abs() < 0.1, "{high}");
        assert!((elo - low - 175.3).abs() < 0.1);
        // A standard error of 0 is not weighed; a bound neither.
        let flat = rating(1600.0, 1600.0, 1600.0, 0.0);
        assert_eq!(
            combine(Some(flat), Some(b)),
            Some((b, Combination::ChainedKept))
        );
        assert_eq!(
            combine(Some(a), Some(flat)),
            Some((a, Combination::DirectKept))
        );
        assert_eq!(
            combine(Some(flat), Some(flat)),
            Some((flat, Combination::DirectKept))
        );
        let above = Rating::Above { bound: 1350.0 };
        assert_eq!(
            combine(Some(above), Some(a)),
            Some((a, Combination::ChainedKept))
        );
        assert_eq!(combine(None, Some(a)), Some((a, Combination::Chained)));
        assert_eq!(
            combine(Some(above), Some(Rating::Above { bound: 1420.0 })),
            Some((Rating::Above { bound: 1420.0 }, Combination::TighterBound))
        );
    }

    #[test]
    fn depths_from_matches() {
        let sargon = |d: u8| format!("Sargon 1978 (port, depth {d})");
        let sf = "Stockfish 15.1 (movetime 200 ms, UCI_LimitStrength=true, UCI_Elo=1350)";
        let m = |p: String, o: String, t: Tally| Match {
            repeats: 0,
            player: p,
            opponent: o,
            tally: t,
        };
        let matches = vec![
            // Depth 3 scored 75% against the anchor: 1540.85.
            m(sargon(3), sf.to_string(), tally(3, 0, 1)),
            // Depth 2 against 3, written from 3's side: 3 won 3 of 4, so 2 is 190.85 below.
            m(sargon(3), sargon(2), tally(3, 0, 1)),
            // Depth 1 lost every game to depth 2.
            m(sargon(1), sargon(2), tally(0, 0, 5)),
            // Not part of the study.
            m("Someone".into(), sf.to_string(), tally(1, 0, 0)),
        ];
        let d = rate_depths(&matches, 3);
        assert_eq!(d.len(), 3);
        let (elo3, ..) = value(d[2].combined);
        assert!((elo3 - 1540.85).abs() < 0.01);
        assert_eq!(d[2].how, Some(Combination::Direct));
        assert_eq!(d[2].anchors, vec![1350.0]);
        let (elo2, ..) = value(d[1].chained);
        assert!((elo2 - 1350.0).abs() < 0.01, "{elo2}");
        assert_eq!(d[1].how, Some(Combination::Chained));
        assert_eq!(d[0].combined, Some(Rating::Below { bound: elo2 }));
        let table = render_depth_table(&d);
        assert!(
            table.contains("| 1 | - | < 1350 | < 1350 | chained only |"),
            "{table}"
        );
        let plot = svg_plot(&d, "test", "Stockfish 15.1");
        assert!(plot.starts_with("<svg") && plot.ends_with("</svg>\n"));
        assert!(
            plot.contains(">anchor: Stockfish 15.1, UCI_Elo=1350<"),
            "{plot}"
        );
        assert_eq!(
            plot.matches("<text").count(),
            plot.matches("</text>").count()
        );
        // Depth 3 has a dot for its direct and its combined rating, depth 2 for its
        // chained and combined ones; depth 1 only arrows (a bound).
        assert_eq!(
            plot.matches("<circle").count(),
            4 + 3,
            "4 ratings and 3 legend dots"
        );
    }
}
