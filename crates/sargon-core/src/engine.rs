//! One interface over both engines.
//!
//! The CLI, the models, the trace recorder, the PV extraction and the differential runner
//! talk to an [`Engine`]; whether the original Z80 code runs in the emulator or the native
//! port runs is a detail behind it.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::hooks::Hooks;
use crate::position::Setup;
use crate::vocab::{SMove, Score};

/// Which engine runs the search.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    /// The original Z80 code (an imported ROM) in the `iz80` emulator.
    Emulator,
    /// The native Rust port.
    Port,
}

impl EngineKind {
    /// The deepest PLYMAX this kind of engine takes: the original's tables hold 6 plies
    /// (see `docs/how-sargon-works.md`), the port's are sized for 20.
    pub const fn max_depth(self) -> u8 {
        match self {
            EngineKind::Emulator => 6,
            EngineKind::Port => 20,
        }
    }

    /// Check a depth against [`EngineKind::max_depth`] before any work is done.
    pub fn check_depth(self, depth: u8) -> Result<(), SearchError> {
        if depth == 0 || depth > self.max_depth() {
            return Err(SearchError::DepthOutOfRange {
                engine: self,
                depth,
                max: self.max_depth(),
            });
        }
        Ok(())
    }
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EngineKind::Emulator => "emulator",
            EngineKind::Port => "port",
        })
    }
}

/// A name that is no engine's, as [`EngineKind::from_str`] refuses it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown engine `{0}` (expected `port` or `emulator`)")]
pub struct UnknownEngine(pub String);

impl FromStr for EngineKind {
    type Err = UnknownEngine;
    fn from_str(s: &str) -> Result<Self, UnknownEngine> {
        match s {
            "emulator" | "emu" | "z80" => Ok(EngineKind::Emulator),
            "port" | "native" => Ok(EngineKind::Port),
            _ => Err(UnknownEngine(crate::input::echo(s))),
        }
    }
}

/// How to search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// PLYMAX: the nominal depth in plies (Sargon adds one ply when the last move checks).
    pub depth: u8,
    /// The byte the opening book reads where the original reads the Z80's refresh register
    /// (`LD A,R`); bit 0 picks 1.e4 (0) or 1.d4 (1) for White's first move. Fixed so that
    /// searches are reproducible and both engines choose alike.
    pub book_random: u8,
    /// Emulator only: give up after this many Z80 instructions (a runaway guard). `None`:
    /// the budget of the depth, [`instruction_budget`].
    pub max_instructions: Option<u64>,
    /// Set from another thread to stop the search soon (UCI `stop`): the search then
    /// returns [`SearchError::Stopped`], and the engine is ready for the next search.
    pub stop: Option<Arc<AtomicBool>>,
}

impl SearchOptions {
    /// Options for a search of `depth` plies, everything else default.
    pub fn depth(depth: u8) -> Self {
        SearchOptions {
            depth,
            ..Default::default()
        }
    }

    /// The emulator's instruction budget for this search: the one given, or the depth's
    /// ([`instruction_budget`]).
    pub fn instruction_budget(&self) -> u64 {
        self.max_instructions
            .unwrap_or_else(|| instruction_budget(self.depth))
    }

    /// Has a stop been requested?
    pub fn stop_requested(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            depth: 3,
            book_random: 0,
            max_instructions: None,
            stop: None,
        }
    }
}

/// The runaway guard of an emulated search of `depth` plies: about 20 times the most Z80
/// instructions any search of that depth took in the project's records
/// (`records/diff/varied-1000` and `varied-200`: 1,200 positions at depths 1-3, 1,000 at 4,
/// 200 at 5, 30 at 6; the maxima were 4.4 M, 74 M, 328 M, 1.2 G, 13.9 G and 29 G).
/// The known image never comes near it. It is the backstop: an image that loops without
/// reaching any hook point is stopped long before, within seconds at every depth, by the
/// emulator's progress check (`docs/emulator.md`).
pub const fn instruction_budget(depth: u8) -> u64 {
    match depth {
        0 | 1 => 100_000_000,
        2 => 1_500_000_000,
        3 => 7_000_000_000,
        4 => 25_000_000_000,
        5 => 280_000_000_000,
        _ => 600_000_000_000,
    }
}

/// Costs of one search.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct SearchStats {
    /// Z80 instructions executed (emulator only).
    pub z80_instructions: Option<u64>,
    /// Z80 T-states (clock cycles) executed, by the documented timing of every instruction
    /// in Zilog's Z80 CPU User Manual, the taken or not-taken value of a conditional one as
    /// it went (emulator only). This is the count the 1978 time estimates divide by a clock.
    pub t_states: Option<u64>,
    /// The same search's T-states as the `iz80` emulator counts them (emulator only): a few
    /// per cent lower for Sargon, because iz80 adds nothing for an IX/IY prefix and times
    /// `JP cc` and a not-taken `JR cc` differently (see `crate::original::profile`).
    pub iz80_t_states: Option<u64>,
    /// Wall-clock time of the search in microseconds.
    pub wall_us: u64,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOutcome {
    /// The move Sargon chose (BESTM), or `None` when it has no legal move.
    pub best: Option<SMove>,
    /// SCORE+1 after the search: the best root score as the search stores it, i.e. from
    /// the point of view of the side *not* to move (see [`SearchOutcome::score_for_mover`]).
    pub root_score: Score,
    /// The move came from the opening book, not from a search.
    pub from_book: bool,
    /// What the search cost.
    pub stats: SearchStats,
}

impl SearchOutcome {
    /// The root score from the side to move's point of view (positive: good for it).
    pub fn score_for_mover(&self) -> Score {
        self.root_score.negated()
    }

    /// The search found a forced mate for the side to move (SCORE+1 = 0xff, which is also
    /// what makes Sargon shorten its search).
    pub fn mates(&self) -> bool {
        self.root_score == Score(0xff)
    }
}

/// Why a search could not be done.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SearchError {
    #[error("depth {depth} is outside the {engine} engine's range 1..={max}")]
    /// The depth is outside what the engine can search.
    DepthOutOfRange {
        /// The engine asked.
        engine: EngineKind,
        /// The depth asked.
        depth: u8,
        /// The engine's deepest search.
        max: u8,
    },
    #[error(
        "runaway emulation: no return from {routine} after {instructions} Z80 instructions, \
         {why}; it was in {at} (PC={pc:#06x}): the ROM is not the known Sargon (sargon rom \
         verify)"
    )]
    /// The emulated routine did not return within its instruction budget, or went too long
    /// without reaching any hook point (the emulator's progress check).
    Runaway {
        /// The routine called.
        routine: String,
        /// Instructions run before giving up.
        instructions: u64,
        /// Why it was given up then: `the budget of this search`, or how long it went
        /// without reaching a hook point.
        why: String,
        /// The program counter when it gave up.
        pc: u16,
        /// Where that is by the ROM's symbols: `CASTLE+12`.
        at: String,
    },
    #[error("Sargon refused to replay the move {uci} while setting up the position")]
    /// A move of the game leading to the position was refused by Sargon's VALMOV.
    ReplayRefused {
        /// The refused move, in UCI notation.
        uci: String,
    },
    #[error("the search was stopped")]
    /// A stop request ended the search.
    Stopped,
    #[error("{what} needs the emulator on the {needs} core; this one runs on {core}")]
    /// The emulator was asked for something its Z80 core cannot give: the profiler's
    /// per-instruction observer, or the tracking of the image's reads, look at `iz80`'s
    /// own state and run on that core only.
    NotOnThisCore {
        /// What was asked: `the profiler`.
        what: String,
        /// The core it needs: `iz80`.
        needs: String,
        /// The core the emulator runs on: `z80emu`.
        core: String,
    },
}

/// Which copy of the original program an engine runs: the name it was imported under and
/// the SHA-256 of its image, so that every result can say what produced it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RomId {
    /// The name in the ROM store (`sargon` by default).
    pub name: String,
    /// SHA-256 of the assembled image, lower-case hex.
    pub sha256: String,
    /// The image behaved as the known Sargon when it was checked (`sargon rom verify`):
    /// false for one stored with `--accept-different`. Results made with an unverified
    /// ROM say so ([`RomId::unverified_note`]).
    pub verified: bool,
    /// Where a verified image differs from the known transcription, in code or data no
    /// search runs or reads (`PIECES`): allowed, and named in every result.
    pub allowed_differences: Vec<String>,
}

impl RomId {
    /// The note every result made with an unverified ROM carries; `None` when verified.
    pub fn unverified_note(&self) -> Option<String> {
        (!self.verified).then(|| {
            format!(
                "ROM `{}` is NOT VERIFIED: it is not the known Sargon image \
                 (see `sargon rom verify {}`)",
                self.name, self.name
            )
        })
    }
}

/// A chess engine that runs Sargon's search, original or port.
pub trait Engine {
    /// Which engine this is.
    fn kind(&self) -> EngineKind;
    /// The deepest PLYMAX this engine takes.
    fn max_depth(&self) -> u8 {
        self.kind().max_depth()
    }
    /// The imported program this engine runs (the emulator), or `None` (the port).
    fn rom_id(&self) -> Option<&RomId> {
        None
    }
    /// The emulator's Z80 core when it is not the default one, `iz80`: `Some("z80emu")`
    /// (`sargon_original::emu::Core`). `None` for the default core and for the port.
    fn core(&self) -> Option<&str> {
        None
    }
    /// The engine's kind, with the emulator's core when it is not the default one:
    /// `port`, `emulator`, `emulator on z80emu`.
    fn kind_on_core(&self) -> String {
        match self.core() {
            Some(core) => format!("{} on {core}", self.kind()),
            None => self.kind().to_string(),
        }
    }
    /// How to name this engine to a person: `port`, or `emulator (ROM sargon)`, or
    /// `emulator (ROM mine, NOT VERIFIED)`, or `emulator on z80emu (ROM sargon)`: every
    /// result that names its engine then says when it comes from an image that did not
    /// behave as Sargon, and on which core the emulator ran when not the default one.
    fn name(&self) -> String {
        let kind = self.kind_on_core();
        match self.rom_id() {
            Some(rom) if !rom.verified => {
                format!("{kind} (ROM {}, NOT VERIFIED)", rom.name)
            }
            Some(rom) if !rom.allowed_differences.is_empty() => format!(
                "{kind} (ROM {}, differs from the known image only where no search runs or reads: {})",
                rom.name,
                rom.allowed_differences.join(", ")
            ),
            Some(rom) => format!("{kind} (ROM {})", rom.name),
            None => kind,
        }
    }
    /// Search `setup` to `opts.depth`, running `hooks` at their points.
    fn search(
        &mut self,
        setup: &Setup,
        opts: &SearchOptions,
        hooks: &mut Hooks,
    ) -> Result<SearchOutcome, SearchError>;

    /// Check the depth against [`Engine::max_depth`]; engines call this first.
    fn check_depth(&self, depth: u8) -> Result<(), SearchError> {
        self.kind().check_depth(depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An engine that only names itself (and its core, when not the default one).
    struct Named(Option<RomId>, Option<&'static str>);

    impl Engine for Named {
        fn kind(&self) -> EngineKind {
            EngineKind::Emulator
        }
        fn rom_id(&self) -> Option<&RomId> {
            self.0.as_ref()
        }
        fn core(&self) -> Option<&str> {
            self.1
        }
        fn search(
            &mut self,
            _: &Setup,
            _: &SearchOptions,
            _: &mut Hooks,
        ) -> Result<SearchOutcome, SearchError> {
            unreachable!("only named")
        }
    }

    #[test]
    fn an_unverified_rom_is_named_as_such() {
        let rom = |verified| RomId {
            name: "mine".into(),
            sha256: "00".into(),
            verified,
            allowed_differences: Vec::new(),
        };
        assert_eq!(Named(Some(rom(true)), None).name(), "emulator (ROM mine)");
        assert_eq!(
            Named(Some(rom(false)), None).name(),
            "emulator (ROM mine, NOT VERIFIED)"
        );
        let allowed = RomId {
            allowed_differences: vec!["PIECES".into(), "DSPBRD".into()],
            ..rom(true)
        };
        assert_eq!(
            Named(Some(allowed), None).name(),
            "emulator (ROM mine, differs from the known image only where no search runs or reads: PIECES, DSPBRD)"
        );
    }

    #[test]
    fn a_core_other_than_the_default_is_named() {
        let rom = |verified| RomId {
            name: "sargon".into(),
            sha256: "00".into(),
            verified,
            allowed_differences: Vec::new(),
        };
        assert_eq!(
            Named(Some(rom(true)), Some("z80emu")).name(),
            "emulator on z80emu (ROM sargon)"
        );
        assert_eq!(
            Named(Some(rom(false)), Some("z80emu")).name(),
            "emulator on z80emu (ROM sargon, NOT VERIFIED)"
        );
    }
}
