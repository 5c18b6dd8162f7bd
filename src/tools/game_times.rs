//! Whole games per level, timed as on a TRS-80: `sargon history games`.
//!
//! The level run ([`crate::original::history::run_levels`]) searches a dozen tactical
//! positions; the TRS-80 manual's times are averages over games, where book moves are
//! instant and many positions are quiet. So here Sargon plays whole games against itself
//! at one level, its opening book on, and every move it makes is timed by its documented
//! T-states at 1.774 MHz ([`crate::base::clock::trs80_seconds`]), book moves included, as
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

use std::fmt::Write as _;

use shakmaty::{Chess, Position};

use crate::base::clock::{duration, manual_seconds, trs80_seconds};
use crate::base::engine::{Engine, SearchError, SearchOptions};
use crate::base::hooks::Hooks;
use crate::base::position::{self, PositionError};
use crate::tools::play::game::{rules_ending, RepetitionHistory};
use crate::tools::play::Opening;

/// The built-in openings, in UCI moves from the initial position: the initial position
/// itself (the book plays both sides' first move), two first moves for White that the
/// book answers for Black, and common short lines of the main openings. (1.e4 and 1.d4
/// alone are not among them: they are the book's own first moves, so a game from them
/// would repeat a game from the initial position.)
pub const DEFAULT_OPENINGS: [&str; 12] = [
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
pub fn default_openings() -> Vec<Opening> {
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
pub fn book_byte(seed: u64, level: u8, game: usize) -> u8 {
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
pub struct TimedMove {
    /// The move in UCI notation.
    pub uci: String,
    /// It came from the opening book.
    pub book: bool,
    /// Documented T-states the move cost (search or book look-up).
    pub t_states: u64,
    /// Those T-states at 1.774 MHz.
    pub trs80_seconds: f64,
}

/// One game of Sargon against itself at one level: a JSON line of the run's file.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TimedGame {
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
    /// The emulator's wall time for the game, in seconds (the host's, not 1978's).
    pub wall_seconds: f64,
    /// The ROM's name when it did not behave as the known Sargon image (stored with
    /// `rom import --accept-different`); absent for a verified ROM.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unverified_rom: Option<String>,
}

/// Why a timed game could not be played.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    #[error("{0}")]
    /// A search failed.
    Search(#[from] SearchError),
    #[error("{0}")]
    /// A position of the game cannot be given to Sargon.
    Position(#[from] PositionError),
    #[error("Sargon gave no legal move in {0}")]
    /// Sargon's move was missing or not legal.
    NoMove(String),
    #[error("the engine counts no T-states (use the emulator)")]
    /// The engine does not count T-states.
    NoTStates,
}

/// Play game `game` (from 1) at `level` from `opening`, Sargon on both sides; `max_moves`
/// caps the moves of each side (then the game is adjudicated a draw).
pub fn play_timed_game(
    engine: &mut dyn Engine,
    level: u8,
    game: usize,
    seed: u64,
    opening: &Opening,
    max_moves: Option<u32>,
) -> Result<TimedGame, GameError> {
    let started = std::time::Instant::now();
    let book_random = book_byte(seed, level, game);
    let opts = SearchOptions {
        book_random,
        ..SearchOptions::depth(level)
    };
    let mut pos = opening.position();
    let mut history = RepetitionHistory::default();
    history.push(&pos);
    let mut moves = Vec::new();
    let (result, ending) = loop {
        if let Some((result, ending)) = rules_ending(&pos, history.repetitions()) {
            break (result.pgn().to_string(), ending.describe(result));
        }
        if max_moves.is_some_and(|cap| moves.len() >= 2 * cap as usize) {
            break (
                "1/2-1/2".to_string(),
                format!(
                    "Draw by adjudication: {} moves each",
                    max_moves.unwrap_or(0)
                ),
            );
        }
        let setup = position::setup(&pos, true)?;
        let outcome = engine.search(&setup, &opts, &mut Hooks::new())?;
        let chosen = outcome
            .best
            .and_then(|m| m.to_chess(&pos))
            .ok_or_else(|| GameError::NoMove(position::fen_of(&pos)))?;
        let t_states = outcome.stats.t_states.ok_or(GameError::NoTStates)?;
        moves.push(TimedMove {
            uci: chosen.to_uci(shakmaty::CastlingMode::Standard).to_string(),
            book: outcome.from_book,
            t_states,
            trs80_seconds: trs80_seconds(t_states),
        });
        pos.play_unchecked(chosen);
        history.push(&pos);
    };
    Ok(TimedGame {
        level,
        game,
        seed,
        book_random,
        opening: opening.name.clone().unwrap_or_default(),
        start_fen: position::fen_of(&opening.position()),
        max_moves,
        moves,
        result,
        ending,
        wall_seconds: started.elapsed().as_secs_f64(),
        unverified_rom: engine
            .rom_id()
            .filter(|r| !r.verified)
            .map(|r| r.name.clone()),
    })
}

/// The figures of one level over its games.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct GameLevelSummary {
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
}

/// One summary per level present in `games`, in level order.
pub fn summarise(games: &[TimedGame]) -> Vec<GameLevelSummary> {
    let mut levels: Vec<u8> = games.iter().map(|g| g.level).collect();
    levels.sort_unstable();
    levels.dedup();
    levels
        .into_iter()
        .map(|level| {
            let these: Vec<&TimedGame> = games.iter().filter(|g| g.level == level).collect();
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
            }
        })
        .collect()
}

/// The per-level table as Markdown-compatible text.
pub fn render_table(levels: &[GameLevelSummary]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| level | games | moves (book) | TRS-80 mean per move | median | dearest move | manual | mean / manual |"
    );
    let _ = writeln!(out, "|---:|---:|---:|---:|---:|---:|---:|---:|");
    for l in levels {
        let _ = writeln!(
            out,
            "| {} | {} | {} ({}) | {} | {} | {} | {} | {} |",
            l.level,
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
pub fn read_games(text: &str) -> Result<Vec<TimedGame>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
