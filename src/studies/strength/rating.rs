//! A rating ([`Rating`]): anchored, chained through a link, and a direct and a chained one combined.

use std::fmt;

use sargon_chess::elo::{Tally, Z_95};

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
