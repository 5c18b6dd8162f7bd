//! Elo per Sargon depth from the matches of a strength study (issue 14, `sargon history
//! strength`, `scripts/strength.sh`).
//!
//! The matches are of two kinds:
//!
//! * **anchored**: Sargon at depth `d` against an engine whose name carries `UCI_Elo=N`
//!   (Stockfish with `UCI_LimitStrength`): depth `d` is then rated `N + diff`, the interval
//!   the match's ([`sargon_chess::elo`]);
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
//!   ([`Tally::elo_std_error`](sargon_chess::elo::Tally::elo_std_error)), which stays finite where the interval mapped through the
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

mod depths;
mod matches;
mod plot;
mod rating;
#[cfg(test)]
mod tests;

pub(crate) use depths::{rate_depths, render_depth_table, DepthRating};
pub(crate) use matches::{distinct_games, uci_elo_in, Match};
pub(crate) use plot::svg_plot;
pub(crate) use rating::Rating;
