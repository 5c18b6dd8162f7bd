//! The strength difference a match result stands for: wins, draws and losses to an Elo
//! difference with a 95% interval.
//!
//! `sargon play` prints it under its score table, and a strength study (issue 14) puts many
//! matches side by side, so the formula lives here, in one place, with its assumptions:
//!
//! * the expected score of a player `d` Elo points stronger is `1 / (1 + 10^(-d/400))`
//!   (the logistic curve of the Elo system), so a score fraction `s` stands for
//!   `d = -400 log10(1/s - 1)`;
//! * the games are independent; the standard error of the mean score per game is
//!   `sqrt(var / N)` with `var` the variance of the N game results (1, ½, 0) about `s`;
//! * the interval is taken on the score, `s ± 1.96 · stderr` (clamped to 0..1), and mapped to
//!   Elo through the same curve, so it is not symmetric about the estimate.
//!
//! A score of 0% or 100% has no finite Elo difference: the bounds are then infinite. With
//! few games the interval is wide, and with identical results (all draws, say) it has no
//! width at all: the variance of the sample is zero, which says more about the sample's
//! size than about the players.

use std::fmt;

/// The normal distribution's two-sided 95% quantile.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Game results from one player's side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw ½.
    pub(crate) fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The score as a fraction of the games (0 to 1), `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / f64::from(n))
    }

    /// The same games from the other player's side.
    pub fn reversed(&self) -> Tally {
        Tally {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// The Elo difference these results stand for (see the module documentation).
    pub fn elo(&self) -> Option<EloEstimate> {
        let s = self.score()?;
        let n = f64::from(self.games());
        let var = (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n;
        let margin = Z_95 * (var / n).sqrt();
        Some(EloEstimate {
            diff: elo_of_score(s),
            low: elo_of_score((s - margin).max(0.0)),
            high: elo_of_score((s + margin).min(1.0)),
            games: self.games(),
        })
    }
}

impl Tally {
    /// The standard error of the Elo difference by the delta method: the standard error of
    /// the mean score (as in [`Tally::elo`]) times the slope of the Elo curve at the score,
    /// `400 / (ln 10 · s (1 - s))`. Unlike the interval mapped through the curve it stays
    /// finite near 0% and 100%, so it can weigh estimates against each other (a normal
    /// approximation, rough with few games). `None` at 0% or 100% or before any game; 0
    /// when every game had the same result.
    pub fn elo_std_error(&self) -> Option<f64> {
        let s = self.score()?;
        if s <= 0.0 || s >= 1.0 {
            return None;
        }
        let n = f64::from(self.games());
        let var = (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n;
        Some((var / n).sqrt() * 400.0 / (std::f64::consts::LN_10 * s * (1.0 - s)))
    }
}

/// The Elo difference for a score fraction `s`: `-400 log10(1/s - 1)`; infinite at 0 and 1.
pub(crate) fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score of a player `diff` Elo points stronger than the other (the inverse
/// of [`elo_of_score`], which the tests check).
#[cfg(test)]
pub(crate) fn expected_score(diff: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-diff / 400.0))
}

/// An Elo difference with its 95% interval (bounds may be infinite).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EloEstimate {
    /// The Elo difference the score implies.
    pub diff: f64,
    /// The lower end of its 95% interval (may be minus infinity).
    pub low: f64,
    /// The upper end of its 95% interval (may be infinity).
    pub high: f64,
    /// The number of games it rests on.
    pub games: u32,
}

fn signed(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // -400 log10(1) is -0: shown as +0.
        format!("{:+.0}", x + 0.0)
    }
}

/// Fewer games than this, and the normal approximation behind the interval says nothing
/// worth printing (two draws would give "+0 to +0").
pub(crate) const MIN_GAMES_FOR_INTERVAL: u32 = 10;

impl EloEstimate {
    /// Is the interval worth stating: enough games, and results that vary (with every game
    /// alike the estimated spread is 0 and the interval a point, however few the games)?
    pub(crate) fn has_interval(&self) -> bool {
        self.games >= MIN_GAMES_FOR_INTERVAL && self.low < self.high
    }
}

/// "+35 (95%: -12 to +84)", or "+0 (too few games for a 95% interval: 2)".
impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.has_interval() {
            return write!(
                f,
                "{} (too few games for a 95% interval: {})",
                signed(self.diff),
                self.games
            );
        }
        write!(
            f,
            "{} (95%: {} to {})",
            signed(self.diff),
            signed(self.low),
            signed(self.high)
        )
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

    #[test]
    fn even_score_is_zero() {
        let e = tally(10, 0, 10).elo().unwrap();
        assert!(e.diff.abs() < 1e-9);
        // s = 0.5, var = 0.25, stderr = 0.5/sqrt(20) = 0.1118; 0.5 + 1.96*0.1118 = 0.7191
        assert!((e.high - elo_of_score(0.5 + Z_95 * 0.5 / 20f64.sqrt())).abs() < 1e-9);
        assert!((e.high - 163.3).abs() < 0.5, "{e}");
        assert!((e.low + e.high).abs() < 1e-9, "symmetric at 50%");
    }

    #[test]
    fn known_values() {
        // 75% is the classic +191 Elo.
        assert!((elo_of_score(0.75) - 190.85).abs() < 0.01);
        assert!((expected_score(elo_of_score(0.64)) - 0.64).abs() < 1e-12);
        let e = tally(6, 4, 2).elo().unwrap();
        assert!((e.diff - elo_of_score(8.0 / 12.0)).abs() < 1e-9);
        assert!(e.low < e.diff && e.diff < e.high);
        assert_eq!(e.games, 12);
    }

    #[test]
    fn extremes_and_nothing() {
        assert_eq!(tally(0, 0, 0).elo(), None);
        let e = tally(3, 0, 0).elo().unwrap();
        assert_eq!(e.diff, f64::INFINITY);
        assert_eq!(e.to_string(), "+inf (too few games for a 95% interval: 3)");
        let e = tally(0, 2, 0).elo().unwrap();
        assert_eq!(e.to_string(), "+0 (too few games for a 95% interval: 2)");
        // Enough games, but all alike: still no interval.
        let e = tally(0, 12, 0).elo().unwrap();
        assert_eq!(e.to_string(), "+0 (too few games for a 95% interval: 12)");
        let e = tally(6, 4, 2).elo().unwrap();
        assert!(e.to_string().contains("(95%: "), "{e}");
        let e = tally(1, 1, 0).elo().unwrap();
        assert!(e.high.is_infinite() && e.low.is_finite(), "{e}");
        assert_eq!(tally(5, 1, 2).reversed(), tally(2, 1, 5));
    }

    #[test]
    fn standard_error_by_the_delta_method() {
        // 10/0/10: stderr of the score 0.5/sqrt(20) = 0.11180, slope 400/(ln 10 * 0.25)
        // = 694.88: 77.69.
        assert!((tally(10, 0, 10).elo_std_error().unwrap() - 77.69).abs() < 0.01);
        // 1/0/5: s = 1/6, var = (25/36 + 5/36)/6 = 0.13889, stderr 0.15215, slope
        // 400/(ln 10 * 5/36) = 1250.8: 190.30.
        assert!((tally(1, 0, 5).elo_std_error().unwrap() - 190.30).abs() < 0.01);
        assert_eq!(tally(0, 3, 0).elo_std_error(), Some(0.0));
        assert_eq!(tally(2, 0, 0).elo_std_error(), None);
        assert_eq!(tally(0, 0, 0).elo_std_error(), None);
    }
}
