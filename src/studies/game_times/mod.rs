//! Whole games per level, timed as on a TRS-80: `sargon history games`.
//!
//! The level run ([`crate::studies::history::run_levels`]) searches a dozen tactical
//! positions; the TRS-80 manual's times are averages over games, where book moves are
//! instant and many positions are quiet. So here Sargon plays whole games against itself
//! at one level, its opening book on, and every move it makes is timed by its documented
//! T-states at 1.774 MHz ([`sargon_core::clock::trs80_seconds`]), book moves included, as
//! a stopwatch beside the machine would have timed them.
//!
//! Sargon at a fixed level is deterministic, so variety comes from the openings (a few
//! plies played before Sargon takes over) and from the book's one random choice: the
//! original reads the Z80's refresh register (`LD A,R`) there, which the engines replace by
//! [`SearchOptions::book_random`]; here that byte comes from the seed, the level and the
//! game's number, so a run is reproducible.
//!
//! Each game is one JSON line ([`TimedGame`]); a run appends lines as games end and can be
//! resumed from its file.
//!
//! Levels 5 and 6 take too long on the emulator for whole games (tens of minutes of CPU
//! per move on a shared machine), so they can be *estimated* (issue 14): the port plays
//! the same games (same openings, seed, book; it chooses the same moves as the original)
//! and counts what each search does, and each move's T-states are estimated from those
//! counts times a cost measured on the emulator at the highest level it played
//! ([`Calibration`]). A game so timed carries its [`TimeEstimate`], and every table and
//! plot of it says "estimate".
//!
//! The unit counted is the **evaluation** (a call of POINTS, the `points.end` hook), not
//! the node created: Sargon's evaluation looks at the attacks on the whole board and
//! dominates its time, so the T-states per evaluation stay nearly the same from depth to
//! depth (about 618 000 to 639 000 in two middlegame positions at depths 1 to 4), while the
//! T-states per node created swing by a factor of four (presumably because many created
//! nodes are cut off before they are evaluated, a share that depends on the depth); see
//! docs/history.md and, for where the time goes, docs/how-sargon-works.md. Both counts
//! are recorded with
//! every move; the T-states per evaluation of every measured level are reported beside the
//! estimate, since how they move from level to level is the extrapolation's uncertainty.

mod game;
mod run;

use std::fmt::Write as _;

use shakmaty::{Chess, Position};

use sargon_chess::play::Opening;
use sargon_core::clock::{duration, manual_seconds};
use sargon_core::engine::{Engine, SearchError, SearchOptions};
use sargon_core::game::DepthRule;
use sargon_core::hooks::{Hook, HookEvent, HookMask, HookPoint, Hooks};
use sargon_core::position::Book;
use sargon_core::position::{self, PositionError};

pub(crate) use game::{play_game, replay_counts};
pub(crate) use run::{
    calibrate_from, check_settings, svg_plot, CalibrationError, GamesPlan, Played,
};

/// The built-in openings, in UCI moves from the initial position: the initial position
/// itself (the book plays both sides' first move), two first moves for White that the
/// book answers for Black, and common short lines of the main openings. (1.e4 and 1.d4
/// alone are not among them: they are the book's own first moves, so a game from them
/// would repeat a game from the initial position.)
pub(crate) const DEFAULT_OPENINGS: [&str; 12] = [
    "",
    "c2c4",
    "g1f3",
    "e2e4 e7e5 g1f3 g8f6",
    "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4",
    "e2e4 c7c5 g1f3 d7d6",
    "e2e4 e7e6 d2d4 d7d5",
    "e2e4 c7c6 d2d4 d7d5",
    "e2e4 e7e5 g1f3 b8c6 f1b5",
    "d2d4 d7d5 c2c4 e7e6",
    "d2d4 g8f6 c2c4 g7g6",
    "e2e4 e7e5 g1f3 b8c6 f1c4",
];

/// [`DEFAULT_OPENINGS`] as openings.
pub(crate) fn default_openings() -> Vec<Opening> {
    DEFAULT_OPENINGS
        .iter()
        .map(|line| {
            let mut pos = Chess::default();
            let moves = line
                .split_whitespace()
                .map(|u| {
                    let m = u
                        .parse::<shakmaty::uci::UciMove>()
                        .expect("the built-in openings are in UCI notation")
                        .to_move(&pos)
                        .expect("the built-in openings are legal");
                    pos.play_unchecked(m);
                    m
                })
                .collect();
            Opening {
                start: Chess::default(),
                moves,
                name: Some(if line.is_empty() {
                    "initial position".to_string()
                } else {
                    (*line).to_string()
                }),
            }
        })
        .collect()
}

/// The book's byte for game `game` (from 1) at `level`: a SplitMix64 step of the three,
/// reduced to a byte. Bit 0 picks White's first book move (1.e4 or 1.d4).
pub(crate) fn book_byte(seed: u64, level: u8, game: usize) -> u8 {
    let mut z = seed
        .wrapping_add(u64::from(level).wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .wrapping_add((game as u64).wrapping_mul(0xbf58_476d_1ce4_e5b9));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z & 0xff) as u8
}

/// One of Sargon's moves in a timed game.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct TimedMove {
    /// The move in UCI notation.
    pub uci: String,
    /// It came from the opening book.
    pub book: bool,
    /// Documented T-states the move cost (search or book look-up).
    pub t_states: u64,
    /// Those T-states at 1.774 MHz.
    pub trs80_seconds: f64,
    /// The nodes the search created (the moves of every list it generated; 0 for a book
    /// move). Absent from the lines written before it was counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// The positions the search evaluated (calls of POINTS; 0 for a book move). Absent
    /// from the lines written before it was counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evaluations: Option<u64>,
    /// The depth (PLYMAX) the search began with: the level, or less after a mate this side
    /// found, when the game carries the depth ([`TimedGame::carried_depth`]). Absent for a
    /// book move and from the lines written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u8>,
}

/// What a search did, counted by hooks.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SearchCounts {
    /// Nodes created.
    pub nodes: u64,
    /// Positions evaluated.
    pub evaluations: u64,
}

/// How the moves of an estimated game were timed: evaluations times a cost per
/// evaluation measured on the emulator.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct TimeEstimate {
    /// The T-states per evaluation every move's evaluations were multiplied by.
    pub t_states_per_evaluation: f64,
    /// The level it was measured at, on the emulator.
    pub calibration_level: u8,
    /// The searched moves it was measured over.
    pub calibration_moves: usize,
}

/// How a game's moves are timed.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Timing {
    /// By the engine's own count of documented T-states (the emulator).
    Measured,
    /// Estimated from the engine's count of evaluations (any engine; the port is the fast
    /// one).
    Estimated(TimeEstimate),
}

/// One game of Sargon against itself at one level: a JSON line of the run's file.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct TimedGame {
    /// The level (search depth) both sides played at.
    pub level: u8,
    /// The game's number at this level, from 1.
    pub game: usize,
    /// The run's seed.
    pub seed: u64,
    /// The byte the book read ([`book_byte`]).
    pub book_random: u8,
    /// The opening: its name or moves.
    pub opening: String,
    /// The position Sargon took over in.
    pub start_fen: String,
    /// The move cap per side, if any.
    pub max_moves: Option<u32>,
    /// Sargon's moves (the opening's are not included).
    pub moves: Vec<TimedMove>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why the game ended.
    pub ending: String,
    /// The engine's wall time for the game, in seconds (the host's, not 1978's): the
    /// emulator's, or for an estimated game the port's.
    pub wall_seconds: f64,
    /// The ROM's name when it did not behave as the known Sargon image (stored with
    /// `rom import --accept-different`); absent for a verified ROM.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unverified_rom: Option<String>,
    /// Set when the moves' T-states are an estimate from counted evaluations, not measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate: Option<TimeEstimate>,
    /// Each side's depth was carried from move to move as the original does
    /// ([`DepthRule::Carried`]); absent (false) when the level's depth was set afresh for
    /// every move, as in every game recorded before issue 38.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub carried_depth: bool,
}

impl TimedGame {
    /// How the game's depths were set.
    pub(crate) fn depth_rule(&self) -> DepthRule {
        if self.carried_depth {
            DepthRule::Carried
        } else {
            DepthRule::Fresh
        }
    }
}

/// Why a timed game could not be played.
#[derive(Debug, thiserror::Error)]
pub(crate) enum GameError {
    // Transparent: "{0}" with `#[from]` made the inner error a source as well, and the
    // error line (`{:#}`) said the cause twice.
    #[error(transparent)]
    /// A search failed.
    Search(#[from] SearchError),
    #[error(transparent)]
    /// A position of the game cannot be given to Sargon.
    Position(#[from] PositionError),
    #[error("Sargon gave no legal move in {0}")]
    /// Sargon's move was missing or not legal.
    NoMove(String),
    #[error("the engine counts no T-states (use the emulator)")]
    /// The engine does not count T-states.
    NoTStates,
    #[error("replaying level {level} game {game}: move {index} was {recorded}, but the engine chose {chosen}")]
    /// A recorded game does not replay: the engine chose another move.
    Replay {
        /// The game's level.
        level: u8,
        /// The game's number.
        game: usize,
        /// The move's index among Sargon's moves, from 1.
        index: usize,
        /// The recorded move.
        recorded: String,
        /// The engine's.
        chosen: String,
    },
}

/// Counts what a search does: the nodes it creates, every move of every list it generates
/// (the `created` events of the trace), and the positions it evaluates (the `eval`
/// events), without recording the trace.
#[derive(Default)]
struct Counter(SearchCounts);

impl Hook for Counter {
    fn points(&self) -> HookMask {
        HookMask::of(&[HookPoint::MovegenDone, HookPoint::PointsEnd])
    }

    fn at(&mut self, event: &mut HookEvent<'_>) {
        match event {
            HookEvent::MovegenDone(v) => self.0.nodes += v.moves().len() as u64,
            HookEvent::PointsEnd(_) => self.0.evaluations += 1,
            _ => {}
        }
    }
}

/// Search with counting: the outcome and what the search did.
fn search_counting(
    engine: &mut dyn Engine,
    pos: &Chess,
    opts: &SearchOptions,
) -> Result<(sargon_core::engine::SearchOutcome, SearchCounts), GameError> {
    let setup = position::setup(pos, Book::Allowed)?;
    let mut counter = Counter::default();
    let outcome = {
        let mut hooks = Hooks::new();
        hooks.add(&mut counter);
        engine.search(&setup, opts, &mut hooks)?
    };
    Ok((outcome, counter.0))
}

/// The T-states `evaluations` evaluations cost at `t_states_per_evaluation`, rounded.
pub(crate) fn estimate_t_states(evaluations: u64, t_states_per_evaluation: f64) -> u64 {
    (evaluations as f64 * t_states_per_evaluation).round() as u64
}

/// The cost of an evaluation at one level, measured on the emulator: T-states over
/// evaluations, summed over the searched (not book) moves of the games whose counts are
/// known; the nodes too, for comparison.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub(crate) struct Calibration {
    /// The level.
    pub level: u8,
    /// The searched moves counted.
    pub moves: usize,
    /// Their documented T-states.
    pub t_states: u64,
    /// Their evaluations.
    pub evaluations: u64,
    /// Their nodes created.
    pub nodes: u64,
    /// The least T-states per evaluation of a single move: with the greatest, how far one
    /// move's estimate can stray from its measurement at this level.
    pub least_per_evaluation: f64,
    /// The greatest T-states per evaluation of a single move.
    pub greatest_per_evaluation: f64,
}

impl Calibration {
    /// T-states per evaluation: total over total, so that dear moves weigh as much as they
    /// cost.
    pub(crate) fn t_states_per_evaluation(&self) -> f64 {
        self.t_states as f64 / self.evaluations as f64
    }

    /// T-states per node created, the same way.
    pub(crate) fn t_states_per_node(&self) -> f64 {
        self.t_states as f64 / self.nodes as f64
    }
}

/// The calibration of `level` from the measured games of `games` (estimated games and
/// moves without counts are left out); `None` without any searched move.
pub(crate) fn calibrate(games: &[TimedGame], level: u8) -> Option<Calibration> {
    let mut c = Calibration {
        level,
        moves: 0,
        t_states: 0,
        evaluations: 0,
        nodes: 0,
        least_per_evaluation: f64::INFINITY,
        greatest_per_evaluation: 0.0,
    };
    for g in games
        .iter()
        .filter(|g| g.level == level && g.estimate.is_none())
    {
        for m in &g.moves {
            if let (false, Some(e), Some(n)) = (m.book, m.evaluations.filter(|&e| e > 0), m.nodes) {
                c.moves += 1;
                c.t_states += m.t_states;
                c.evaluations += e;
                c.nodes += n;
                let per = m.t_states as f64 / e as f64;
                c.least_per_evaluation = c.least_per_evaluation.min(per);
                c.greatest_per_evaluation = c.greatest_per_evaluation.max(per);
            }
        }
    }
    (c.evaluations > 0).then_some(c)
}

/// The figures of one level over its games.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub(crate) struct GameLevelSummary {
    /// The level.
    pub level: u8,
    /// Games played.
    pub games: usize,
    /// Sargon's moves in them (both sides).
    pub moves: usize,
    /// Of those, moves from the book.
    pub book_moves: usize,
    /// Mean estimated TRS-80 time per move, book moves included, in seconds.
    pub mean_seconds: f64,
    /// The median move's time.
    pub median_seconds: f64,
    /// The dearest move's time.
    pub max_seconds: f64,
    /// The manual's average time per move at this level.
    pub manual_seconds: Option<f64>,
    /// Mean / manual.
    pub ratio_to_manual: Option<f64>,
    /// False when any of the level's games ran on a ROM that did not behave as the known
    /// Sargon image.
    pub rom_verified: bool,
    /// The times are estimates from counted evaluations ([`TimeEstimate`]), not measured.
    pub estimated: bool,
}

/// One summary per level present in `games`, in level order; a level with both measured
/// and estimated games has a row for each (measured first), never a mixture.
pub(crate) fn summarise(games: &[TimedGame]) -> Vec<GameLevelSummary> {
    let mut levels: Vec<(u8, bool)> = games
        .iter()
        .map(|g| (g.level, g.estimate.is_some()))
        .collect();
    levels.sort_unstable();
    levels.dedup();
    levels
        .into_iter()
        .map(|(level, estimated)| {
            let these: Vec<&TimedGame> = games
                .iter()
                .filter(|g| g.level == level && g.estimate.is_some() == estimated)
                .collect();
            let mut times: Vec<f64> = these
                .iter()
                .flat_map(|g| g.moves.iter().map(|m| m.trs80_seconds))
                .collect();
            times.sort_by(f64::total_cmp);
            let n = times.len();
            let mean = if n == 0 {
                0.0
            } else {
                times.iter().sum::<f64>() / n as f64
            };
            let median = match n {
                0 => 0.0,
                _ if n % 2 == 1 => times[n / 2],
                _ => (times[n / 2 - 1] + times[n / 2]) / 2.0,
            };
            let manual = manual_seconds(level);
            GameLevelSummary {
                level,
                games: these.len(),
                moves: n,
                book_moves: these
                    .iter()
                    .map(|g| g.moves.iter().filter(|m| m.book).count())
                    .sum(),
                mean_seconds: mean,
                median_seconds: median,
                max_seconds: times.last().copied().unwrap_or(0.0),
                manual_seconds: manual,
                ratio_to_manual: manual.map(|m| mean / m),
                rom_verified: these.iter().all(|g| g.unverified_rom.is_none()),
                estimated,
            }
        })
        .collect()
}

/// The rows a plot draws: one per level, the measured one where a level has both, so that
/// the plotted line joins what was measured and an estimate fills only the levels not
/// measured (the table keeps both rows).
pub(crate) fn plotted(levels: &[GameLevelSummary]) -> Vec<&GameLevelSummary> {
    levels
        .iter()
        .filter(|l| !l.estimated || !levels.iter().any(|m| m.level == l.level && !m.estimated))
        .collect()
}

/// The per-level table as Markdown-compatible text.
pub(crate) fn render_table(levels: &[GameLevelSummary]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| level | games | moves (book) | TRS-80 mean per move | median | dearest move | manual | mean / manual |"
    );
    let _ = writeln!(out, "|---:|---:|---:|---:|---:|---:|---:|---:|");
    for l in levels {
        let _ = writeln!(
            out,
            "| {}{} | {} | {} ({}) | {} | {} | {} | {} | {} |",
            l.level,
            if l.estimated { " (estimate)" } else { "" },
            l.games,
            l.moves,
            l.book_moves,
            duration(l.mean_seconds),
            duration(l.median_seconds),
            duration(l.max_seconds),
            l.manual_seconds.map(duration).unwrap_or_default(),
            l.ratio_to_manual
                .map(|x| format!("{x:.2}"))
                .unwrap_or_default(),
        );
    }
    out
}

/// The games of a run's file, one JSON line each (blank lines skipped).
pub(crate) fn read_games(text: &str) -> Result<Vec<TimedGame>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use sargon_core::clock::trs80_seconds;

    #[test]
    fn a_failed_search_says_its_cause_once() {
        let e = GameError::from(SearchError::DepthOutOfRange {
            engine: "port".into(),
            depth: 30,
            max: 20,
        });
        let shown = format!("{:#}", anyhow::Error::from(e).context("level 1, game 1"));
        assert_eq!(shown.matches("outside").count(), 1, "{shown}");
    }

    #[test]
    fn openings_and_book_bytes() {
        let o = default_openings();
        assert_eq!(o.len(), DEFAULT_OPENINGS.len());
        assert!(o[0].moves.is_empty());
        assert_eq!(o[3].moves.len(), 4);
        // Reproducible, and both book choices occur over a few games.
        assert_eq!(book_byte(7, 3, 1), book_byte(7, 3, 1));
        let bits: Vec<u8> = (1..=16).map(|g| book_byte(7, 3, g) & 1).collect();
        assert!(bits.contains(&0) && bits.contains(&1), "{bits:?}");
        assert_ne!(book_byte(7, 3, 1), book_byte(8, 3, 1));
    }

    #[test]
    fn summary_mean_median_and_book() {
        let mv = |s: f64, book: bool| TimedMove {
            uci: "e2e4".into(),
            book,
            t_states: (s * 1.774e6) as u64,
            trs80_seconds: s,
            nodes: None,
            evaluations: None,
            depth: None,
        };
        let game = |level, moves| TimedGame {
            level,
            game: 1,
            seed: 0,
            book_random: 0,
            opening: String::new(),
            start_fen: String::new(),
            max_moves: None,
            moves,
            result: "1/2-1/2".into(),
            ending: String::new(),
            wall_seconds: 0.0,
            unverified_rom: None,
            estimate: None,
            carried_depth: false,
        };
        let mut games = vec![
            game(2, vec![mv(0.0, true), mv(4.0, false), mv(2.0, false)]),
            game(2, vec![mv(10.0, false)]),
            game(1, vec![mv(1.0, false)]),
        ];
        // One game on an unverified ROM marks its level, and only its level.
        games[1].unverified_rom = Some("mine".into());
        let s = summarise(&games);
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].level, s[0].games, s[0].moves), (1, 1, 1));
        let l2 = &s[1];
        assert_eq!((l2.games, l2.moves, l2.book_moves), (2, 4, 1));
        assert!((l2.mean_seconds - 4.0).abs() < 1e-12);
        assert!((l2.median_seconds - 3.0).abs() < 1e-12);
        assert_eq!(l2.max_seconds, 10.0);
        assert!((l2.ratio_to_manual.unwrap() - 4.0 / 60.0).abs() < 1e-12);
        assert!(s[0].rom_verified && !l2.rom_verified);
        let line = serde_json::to_string(&games[0]).unwrap();
        assert!(!line.contains("unverified_rom"), "{line}");
        assert_eq!(read_games(&format!("{line}\n\n{line}\n")).unwrap().len(), 2);
        let marked = read_games(&serde_json::to_string(&games[1]).unwrap()).unwrap();
        assert_eq!(marked[0].unverified_rom.as_deref(), Some("mine"));
        assert!(read_games("{").unwrap_err().starts_with("line 1"));
    }

    #[test]
    fn estimates_from_evaluations() {
        // 1000 evaluations at 2345.67 T-states each: 2 345 670 T-states.
        assert_eq!(estimate_t_states(1000, 2345.67), 2_345_670);
        assert_eq!(estimate_t_states(3, 0.5), 2, "rounded: 1.5 -> 2");
        let mv = |t_states: u64, book: bool, counts: Option<(u64, u64)>| TimedMove {
            uci: "e2e4".into(),
            book,
            t_states,
            trs80_seconds: trs80_seconds(t_states),
            nodes: counts.map(|c| c.0),
            evaluations: counts.map(|c| c.1),
            depth: None,
        };
        let game = |level, moves, estimate| TimedGame {
            level,
            game: 1,
            seed: 0,
            book_random: 0,
            opening: String::new(),
            start_fen: String::new(),
            max_moves: None,
            moves,
            result: "1/2-1/2".into(),
            ending: String::new(),
            wall_seconds: 0.0,
            unverified_rom: None,
            estimate,
            carried_depth: false,
        };
        let guess = TimeEstimate {
            t_states_per_evaluation: 2000.0,
            calibration_level: 3,
            calibration_moves: 2,
        };
        let games = vec![
            // Book moves, moves without counts and other levels are left out: (3 000 000 +
            // 1 000 000) / (1500 + 500) = 2000 T-states per evaluation, over 2 moves;
            // per node (3 000 000 + 1 000 000) / (4000 + 1000) = 800.
            game(
                3,
                vec![
                    mv(500, true, Some((0, 0))),
                    mv(3_000_000, false, Some((4000, 1500))),
                    mv(1_000_000, false, Some((1000, 500))),
                    mv(9_999_999, false, None),
                ],
                None,
            ),
            game(2, vec![mv(100, false, Some((1, 1)))], None),
            // Estimated games do not calibrate.
            game(3, vec![mv(7, false, Some((7, 7)))], Some(guess.clone())),
        ];
        let c = calibrate(&games, 3).unwrap();
        assert_eq!(
            (c.moves, c.t_states, c.evaluations, c.nodes),
            (2, 4_000_000, 2000, 5000)
        );
        assert_eq!(c.t_states_per_evaluation(), 2000.0);
        assert_eq!(c.t_states_per_node(), 800.0);
        assert_eq!(
            (c.least_per_evaluation, c.greatest_per_evaluation),
            (2000.0, 2000.0)
        );
        let mut other = games.clone();
        other[0].moves[2].t_states = 1_500_000; // 3000 per evaluation
        let c = calibrate(&other, 3).unwrap();
        assert_eq!(
            (c.least_per_evaluation, c.greatest_per_evaluation),
            (2000.0, 3000.0)
        );
        assert_eq!(c.t_states_per_evaluation(), 4_500_000.0 / 2000.0);
        assert_eq!(calibrate(&games, 4), None);
        // The summary keeps measured and estimated games of a level apart.
        let s = summarise(&games);
        let rows: Vec<(u8, bool, usize)> =
            s.iter().map(|l| (l.level, l.estimated, l.moves)).collect();
        assert_eq!(rows, vec![(2, false, 1), (3, false, 4), (3, true, 1)]);
        assert!(render_table(&s).contains("| 3 (estimate) | 1 | 1 (0) |"));
        // The plot takes level 3's measured row, not its estimate.
        let plot: Vec<(u8, bool)> = plotted(&s).iter().map(|l| (l.level, l.estimated)).collect();
        assert_eq!(plot, vec![(2, false), (3, false)]);
        let only_estimated: Vec<GameLevelSummary> = s
            .iter()
            .filter(|l| l.level == 2 || l.estimated)
            .cloned()
            .collect();
        let plot: Vec<(u8, bool)> = plotted(&only_estimated)
            .iter()
            .map(|l| (l.level, l.estimated))
            .collect();
        assert_eq!(plot, vec![(2, false), (3, true)]);
        // Lines written before counts and estimates were recorded still read; new ones
        // round-trip.
        let old = r#"{"level":1,"game":1,"seed":1,"book_random":0,"opening":"","start_fen":"","max_moves":null,"moves":[{"uci":"e2e4","book":true,"t_states":10,"trs80_seconds":0.1}],"result":"*","ending":"","wall_seconds":0.0}"#;
        let read = read_games(old).unwrap();
        let m = &read[0].moves[0];
        assert_eq!(
            (m.nodes, m.evaluations, &read[0].estimate),
            (None, None, &None)
        );
        let line = serde_json::to_string(&games[2]).unwrap();
        assert!(
            line.contains("\"t_states_per_evaluation\":2000.0"),
            "{line}"
        );
        assert_eq!(read_games(&line).unwrap()[0], games[2]);
    }
}
