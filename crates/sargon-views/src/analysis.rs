//! One analysis: a position, an engine, a depth in; the chosen move in UCI and SAN, the
//! score in centipawns and what the search cost out. Shared by `sargon analyze` and the
//! batch and UCI front ends.

use shakmaty::{Chess, Color, Position};

use sargon_core::engine::{Engine, SearchError, SearchOptions, SearchOutcome};
use sargon_core::hooks::Hook;
use sargon_core::position::{self, Setup};
use sargon_core::trace::{Detail, Event};
use sargon_core::{pv, record};

/// The result of one analysis, as `sargon analyze --format json` prints it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Analysis {
    /// The engine that searched, by its recorded name ([`Engine::id`]): `port`,
    /// `emulator`, `exec:COMMAND`, `uci:COMMAND`.
    pub engine: String,
    /// The emulator's Z80 core when it is not the default one, iz80 (`z80emu`; absent
    /// otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub core: Option<String>,
    /// Name of the ROM the emulator ran, if it did.
    pub rom: Option<String>,
    /// Whether that ROM behaved as the known Sargon when checked (`sargon rom verify`):
    /// `false` marks results of an image stored with `--accept-different`.
    pub rom_verified: Option<bool>,
    /// Where that ROM differs from the known image, in code or data no search runs or
    /// reads (allowed; absent when nowhere).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rom_allowed_differences: Vec<String>,
    /// The position's FEN.
    pub fen: String,
    /// The search depth.
    pub depth: u8,
    /// The position is a book position (MOVENO = 1): Sargon answers from its opening book.
    pub book: bool,
    /// The move chosen, in UCI notation.
    pub best_uci: Option<String>,
    /// The move chosen, in SAN.
    pub best_san: Option<String>,
    /// Score from White's point of view, in centipawns (Sargon's unit is 12.5 cp).
    pub score_cp: i32,
    /// Score for the side to move, in pawns.
    pub score_pawns: f64,
    /// The raw score byte (SCORE+1) after the search.
    pub sargon_score: u8,
    /// The search found a forced mate for the side to move.
    pub mate: bool,
    /// The move came from the opening book.
    pub from_book: bool,
    /// The position is checkmate or stalemate: there is no move to choose.
    pub no_legal_move: bool,
    /// Which of the two, when there is no legal move: `"checkmate"` or `"stalemate"`;
    /// `null` while the game goes on.
    pub result: Option<GameEnd>,
    /// Z80 instructions run (emulator only).
    pub z80_instructions: Option<u64>,
    /// The search's T-states by Zilog's documented timings (see
    /// [`sargon_core::engine::SearchStats::t_states`]).
    pub t_states: Option<u64>,
    /// The same search's T-states as the `iz80` emulator counts them, a few per cent fewer.
    pub iz80_t_states: Option<u64>,
    /// The documented T-states at the TRS-80 Model I's 1.774 MHz.
    pub trs80_seconds: Option<f64>,
    /// The documented T-states on a 4 MHz Z80 (Z80A).
    pub z80a_4mhz_seconds: Option<f64>,
    /// Wall-clock time of the search, in milliseconds.
    pub wall_ms: f64,
    /// Emulation speed in millions of Z80 instructions per second.
    pub z80_mips: Option<f64>,
    /// The principal variation, from the "best so far" nodes (see [`sargon_core::pv`]).
    pub pv_uci: Vec<String>,
    /// The principal variation in SAN.
    pub pv_san: Vec<String>,
    /// The nodes the search created (the trace's `created` events), when counted
    /// (`analyse_counting_nodes`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes_created: Option<u64>,
}

/// How a game ends when the side to move has no legal move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GameEnd {
    /// The side to move is in check: it has lost.
    Checkmate,
    /// The side to move is not in check: a draw.
    Stalemate,
}

impl GameEnd {
    /// How the game stands in `pos`: `None` while the side to move has a legal move.
    pub fn of(pos: &Chess) -> Option<GameEnd> {
        if !pos.legal_moves().is_empty() {
            None
        } else if pos.is_check() {
            Some(GameEnd::Checkmate)
        } else {
            Some(GameEnd::Stalemate)
        }
    }
}

/// Why an analysis failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AnalysisError {
    #[error(transparent)]
    /// The position could not be read.
    Position(#[from] position::PositionError),
    #[error(transparent)]
    /// The search failed.
    Search(#[from] SearchError),
    #[error(
        "Sargon chose {uci}, which is not legal in {fen}: the engine and the position disagree"
    )]
    /// The engine chose an illegal move.
    IllegalChoice {
        /// The move, in UCI notation.
        uci: String,
        /// The position's FEN.
        fen: String,
    },
}

/// Analyse `setup` with `engine`, recording the "best so far" nodes for the PV.
pub fn analyse(
    engine: &mut dyn Engine,
    setup: &Setup,
    opts: &SearchOptions,
) -> Result<(Analysis, SearchOutcome), AnalysisError> {
    analyse_with(engine, setup, opts, &mut [])
}

/// [`analyse`], with `extra` hooks running during the search (a progress ticker, say).
pub fn analyse_with(
    engine: &mut dyn Engine,
    setup: &Setup,
    opts: &SearchOptions,
    extra: &mut [&mut dyn Hook],
) -> Result<(Analysis, SearchOutcome), AnalysisError> {
    let recorded = record::search(engine, setup, opts, Detail::BestOnly, extra)?;
    analyse_recorded(&*engine, setup, opts, recorded, None)
}

/// [`analyse`], also counting the nodes the search created: the `created` events of its
/// full trace, counted as they stream by (only the "best so far" events are kept, for the
/// PV). Recording every event costs time: `sargon analyze --format epd` wants the count.
pub fn analyse_counting_nodes(
    engine: &mut dyn Engine,
    setup: &Setup,
    opts: &SearchOptions,
) -> Result<(Analysis, SearchOutcome), AnalysisError> {
    let mut created = 0u64;
    let mut events = Vec::new();
    let outcome =
        record::search_streaming(engine, setup, opts, Detail::Full, &mut [], |e| match e {
            Event::Created { .. } => created += 1,
            Event::Best { .. } | Event::Result { .. } => events.push(e),
            _ => {}
        })?;
    let recorded = record::Recorded { outcome, events };
    analyse_recorded(&*engine, setup, opts, recorded, Some(created))
}

/// The analysis of a search already recorded by `engine` (with at least its `best` events
/// and its result), for a program that keeps the whole trace for its own use (the explorer
/// of `sargon serve`).
pub fn analyse_recorded(
    engine: &dyn Engine,
    setup: &Setup,
    opts: &SearchOptions,
    recorded: record::Recorded,
    nodes_created: Option<u64>,
) -> Result<(Analysis, SearchOutcome), AnalysisError> {
    let rom = engine.rom_id().map(|r| r.name.clone());
    let rom_verified = engine.rom_id().map(|r| r.verified);
    let rom_allowed_differences = engine
        .rom_id()
        .map(|r| r.allowed_differences.clone())
        .unwrap_or_default();
    let pos = &setup.position;
    let fen = position::fen_of(pos);
    // With no legal move Sargon still names a move: the last one it tried (and found
    // illegal) ends up in BESTM. Checkmate and stalemate are reported as such instead.
    let result = GameEnd::of(pos);
    let no_legal_move = result.is_some();
    let (pv_uci, pv_san) = if no_legal_move {
        (vec![], vec![])
    } else {
        let line = recorded.pv(pos);
        (line.uci, line.san)
    };
    let outcome = recorded.outcome;
    let (best_uci, best_san) = match &outcome.best {
        Some(m) if !no_legal_move => {
            let san = pv::san(pos, m).ok_or_else(|| AnalysisError::IllegalChoice {
                uci: m.uci(),
                fen: fen.clone(),
            })?;
            (Some(m.uci()), Some(san))
        }
        _ => (None, None),
    };
    let mover = outcome.score_for_mover();
    let sign = if pos.turn() == Color::White { 1 } else { -1 };
    let stats = &outcome.stats;
    let wall_ms = stats.wall_us as f64 / 1000.0;
    let analysis = Analysis {
        engine: engine.id(),
        core: engine.core().map(str::to_string),
        rom,
        rom_verified,
        rom_allowed_differences,
        fen,
        depth: opts.depth,
        book: setup.plays_from_book(),
        best_uci,
        best_san,
        score_cp: if outcome.from_book {
            0
        } else {
            sign * mover.centipawns()
        },
        score_pawns: if outcome.from_book {
            0.0
        } else {
            mover.pawns()
        },
        sargon_score: outcome.root_score.0,
        mate: outcome.mates(),
        from_book: outcome.from_book,
        no_legal_move,
        result,
        z80_instructions: stats.z80_instructions,
        t_states: stats.t_states,
        iz80_t_states: stats.iz80_t_states,
        trs80_seconds: stats.t_states.map(sargon_core::clock::trs80_seconds),
        z80a_4mhz_seconds: stats.t_states.map(sargon_core::clock::z80a_seconds),
        wall_ms,
        z80_mips: stats
            .z80_instructions
            .filter(|_| stats.wall_us > 0)
            .map(|n| n as f64 / stats.wall_us as f64),
        pv_uci,
        pv_san,
        nodes_created,
    };
    Ok((analysis, outcome))
}
