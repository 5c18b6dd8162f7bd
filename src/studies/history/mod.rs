//! Sargon on the machines of 1978: how long its searches would have taken.
//!
//! A search's documented T-state count ([`sargon_core::engine::SearchStats::t_states`]) divided by a clock rate
//! is the time the Z80 would have spent on it: 1.774 MHz for the TRS-80 Model I that
//! Sargon was sold for, 4 MHz for a Z80A. [`run_levels`] runs Sargon's levels (look-ahead
//! = search depth) over a set of positions and sets the estimated TRS-80 time per move
//! beside the times the original TRS-80 manual gives; [`render_table`] sets it out as a
//! table and [`svg_plot`] draws it (the drawing lives in `chart.rs`, apart from the
//! measuring).
//! `docs/history.md` discusses what the comparison can and cannot say.

use std::fmt::Write as _;
use std::time::Instant;

use sargon_core::clock::{trs80_seconds, z80a_seconds};
// The manual's times and the duration format live in `sargon_core::clock`, where the
// whole-game timing of `game_times` can use them too.
pub(crate) use sargon_core::clock::{duration, manual_seconds, MANUAL_SECONDS};
use sargon_core::engine::{Engine, SearchError, SearchOptions};
use sargon_core::hooks::Hooks;
use sargon_core::position::Book;
use sargon_core::position::{self, PositionError};
use sargon_original::emu::Emulator;

mod chart;

pub(crate) use chart::{svg_plot, svg_plot_levels, PlotLevel, PlotText};

pub(crate) use sargon_core::benchmark::CLASSIC_POSITIONS as BENCHMARK_POSITIONS;

/// The built-in position set of `sargon history levels`: the benchmark's ten distinct
/// positions (in order), the initial position (searched: the book is off) and the
/// published queen-sacrifice position.
pub(crate) fn default_positions() -> Vec<&'static str> {
    let mut set: Vec<&str> = Vec::new();
    for fen in BENCHMARK_POSITIONS {
        if !set.contains(&fen) {
            set.push(fen);
        }
    }
    set.push("startpos");
    set.push("r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - 0 1");
    set
}

/// Positions from a file: one FEN (or `startpos`) per line; blank lines and lines starting
/// with `#` are skipped.
pub(crate) fn parse_positions(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// One search of the level run.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct Measurement {
    /// The level (search depth) searched.
    pub level: u8,
    /// Index in the position list (from 1).
    pub position: usize,
    /// The position's FEN.
    pub fen: String,
    /// The move chosen, in UCI notation.
    pub best_move: Option<String>,
    /// Z80 instructions run.
    pub z80_instructions: u64,
    /// Documented T-states.
    pub t_states: u64,
    /// The emulator's own count (see [`sargon_core::engine::SearchStats::iz80_t_states`]).
    pub emulator_t_states: u64,
    /// Estimated time on a TRS-80 Model I (1.774 MHz), in seconds.
    pub trs80_seconds: f64,
    /// Estimated time on a 4 MHz Z80, in seconds.
    pub z80a_seconds: f64,
    /// Time the emulator took here.
    pub wall_seconds: f64,
}

/// The figures of one level over all positions.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct LevelSummary {
    /// The level.
    pub level: u8,
    /// Positions searched.
    pub positions: usize,
    /// Mean documented T-states per move.
    pub mean_t_states: f64,
    /// Mean, least and greatest estimated TRS-80 time per move, in seconds.
    pub trs80_mean_seconds: f64,
    /// Least estimated TRS-80 time per move, in seconds.
    pub trs80_min_seconds: f64,
    /// Greatest estimated TRS-80 time per move, in seconds.
    pub trs80_max_seconds: f64,
    /// Mean estimated time per move on a 4 MHz Z80.
    pub z80a_mean_seconds: f64,
    /// The manual's average time per move at this level.
    pub manual_seconds: Option<f64>,
    /// Estimated mean / manual.
    pub ratio_to_manual: Option<f64>,
    /// Emulator wall time for the level's searches.
    pub wall_seconds: f64,
}

/// The result of [`run_levels`].
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct LevelsReport {
    /// The ROM's name.
    pub rom: String,
    /// Whether the ROM behaved as the known Sargon image (reports saved before this field
    /// existed were all made with the known image).
    #[serde(default = "known_image")]
    pub rom_verified: bool,
    /// The machine the emulator ran on (CPU model and count), for the record.
    #[serde(default)]
    pub host: String,
    /// The positions' FENs.
    pub positions: Vec<String>,
    /// One summary per level.
    pub levels: Vec<LevelSummary>,
    /// Every search.
    pub runs: Vec<Measurement>,
}

/// Why a level run failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum HistoryError {
    #[error("position {index}{}: {problem}", quoted_unless_the_problem_quotes_it(.text, .problem))]
    /// A position could not be read.
    Position {
        /// Its index (from 1).
        index: usize,
        /// Its text.
        text: String,
        /// What was wrong (said in the message, so not its `source()`: printed as a chain,
        /// the cause would come twice).
        problem: PositionError,
    },
    #[error("level {level}, position {index}: {source}")]
    /// A search failed.
    Search {
        /// The level.
        level: u8,
        /// The position's index (from 1).
        index: usize,
        /// What went wrong.
        source: SearchError,
    },
    #[error("levels run from 1 to 6 (Sargon's deepest search); {0} asked")]
    /// A level outside 1..=6 was asked.
    Level(u8),
    #[error("no positions to run")]
    /// The position list is empty.
    NoPositions,
}

/// The position's text for [`HistoryError::Position`], unless the problem quotes it (an
/// invalid FEN does): the text once.
fn quoted_unless_the_problem_quotes_it(text: &str, problem: &PositionError) -> String {
    if problem.quotes_the_input() {
        String::new()
    } else {
        format!(" `{}`", sargon_core::input::echo(text))
    }
}

/// Where a level run is, for progress reports.
#[derive(Clone, Debug)]
pub(crate) struct LevelProgress {
    /// The level being run.
    pub level: u8,
    /// The last level to run.
    pub max_level: u8,
    /// From 1.
    pub position: usize,
    /// Positions per level.
    pub positions: usize,
    /// The search just finished (`None` when it is about to start).
    pub done: Option<Measurement>,
    /// Seconds since the run started.
    pub elapsed: f64,
}

/// The set-ups of a level run's positions (FENs or `startpos`, book off); an error for the
/// first that cannot be read or set up, or for none at all. [`run_levels`] reads them so; a
/// program can call it first to refuse a bad list before it opens the emulator.
pub(crate) fn setups(positions: &[String]) -> Result<Vec<position::Setup>, HistoryError> {
    if positions.is_empty() {
        return Err(HistoryError::NoPositions);
    }
    positions
        .iter()
        .enumerate()
        .map(|(i, text)| {
            position::parse_position(text)
                .and_then(|p| position::setup(&p, Book::Off))
                .map_err(|problem| HistoryError::Position {
                    index: i + 1,
                    text: text.clone(),
                    problem,
                })
        })
        .collect()
}

/// Run levels 1..=`max_level` (search depth = level, book off) over `positions`.
pub(crate) fn run_levels(
    emu: &mut Emulator,
    positions: &[String],
    max_level: u8,
    progress: &mut dyn FnMut(&LevelProgress),
) -> Result<LevelsReport, HistoryError> {
    if !(1..=6).contains(&max_level) {
        return Err(HistoryError::Level(max_level));
    }
    let setups = setups(positions)?;
    let started = Instant::now();
    let mut runs = Vec::new();
    let mut levels = Vec::new();
    for level in 1..=max_level {
        let opts = SearchOptions::depth(level);
        let mut this_level = Vec::new();
        for (i, setup) in setups.iter().enumerate() {
            let mut report = LevelProgress {
                level,
                max_level,
                position: i + 1,
                positions: setups.len(),
                done: None,
                elapsed: started.elapsed().as_secs_f64(),
            };
            progress(&report);
            let t0 = Instant::now();
            let outcome = emu
                .search(setup, &opts, &mut Hooks::new())
                .map_err(|source| HistoryError::Search {
                    level,
                    index: i + 1,
                    source,
                })?;
            let stats = &outcome.stats;
            let counted = "the emulator counts instructions and T-states";
            let instructions = stats.z80_instructions.expect(counted);
            let t_states = stats.t_states.expect(counted);
            let emulator_t_states = stats.iz80_t_states.expect(counted);
            let m = Measurement {
                level,
                position: i + 1,
                fen: position::fen_of(&setup.position),
                // No legal move: BESTM holds the last move tried, never a choice.
                best_move: outcome
                    .best
                    .filter(|_| sargon_views::analysis::GameEnd::of(&setup.position).is_none())
                    .map(|m| m.uci()),
                z80_instructions: instructions,
                t_states,
                emulator_t_states,
                trs80_seconds: trs80_seconds(t_states),
                z80a_seconds: z80a_seconds(t_states),
                wall_seconds: t0.elapsed().as_secs_f64(),
            };
            report.done = Some(m.clone());
            report.elapsed = started.elapsed().as_secs_f64();
            progress(&report);
            this_level.push(m);
        }
        levels.push(summarise(level, &this_level));
        runs.extend(this_level);
    }
    Ok(LevelsReport {
        rom: emu.rom().meta.name.clone(),
        rom_verified: emu.rom().verified(),
        host: host_description(),
        positions: positions.to_vec(),
        levels,
        runs,
    })
}

fn known_image() -> bool {
    true
}

/// "N x CPU model" from `/proc/cpuinfo` and the available parallelism (Linux), else what
/// is known.
pub(crate) fn host_description() -> String {
    let n = std::thread::available_parallelism().map_or(1, |n| n.get());
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    format!("{n} x {model}")
}

fn summarise(level: u8, runs: &[Measurement]) -> LevelSummary {
    let n = runs.len() as f64;
    let mean_t = runs.iter().map(|m| m.t_states as f64).sum::<f64>() / n;
    let trs: Vec<f64> = runs.iter().map(|m| m.trs80_seconds).collect();
    let mean = trs.iter().sum::<f64>() / n;
    let manual = manual_seconds(level);
    LevelSummary {
        level,
        positions: runs.len(),
        mean_t_states: mean_t,
        trs80_mean_seconds: mean,
        trs80_min_seconds: trs.iter().copied().fold(f64::INFINITY, f64::min),
        trs80_max_seconds: trs.iter().copied().fold(0.0, f64::max),
        z80a_mean_seconds: runs.iter().map(|m| m.z80a_seconds).sum::<f64>() / n,
        manual_seconds: manual,
        ratio_to_manual: manual.map(|s| mean / s),
        wall_seconds: runs.iter().map(|m| m.wall_seconds).sum(),
    }
}

/// The level table as Markdown-compatible text.
pub(crate) fn render_table(r: &LevelsReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| level | positions | mean T-states | TRS-80 mean | TRS-80 min-max | 4 MHz Z80 mean | manual | estimate / manual |"
    );
    let _ = writeln!(out, "|---:|---:|---:|---:|---:|---:|---:|---:|");
    for l in &r.levels {
        let _ = writeln!(
            out,
            "| {} | {} | {:.0} | {} | {} - {} | {} | {} | {} |",
            l.level,
            l.positions,
            l.mean_t_states,
            duration(l.trs80_mean_seconds),
            duration(l.trs80_min_seconds),
            duration(l.trs80_max_seconds),
            duration(l.z80a_mean_seconds),
            l.manual_seconds.map(duration).unwrap_or_default(),
            l.ratio_to_manual
                .map(|x| format!("{x:.2}"))
                .unwrap_or_default(),
        );
    }
    out
}
