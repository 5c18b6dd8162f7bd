//! Why a search could not be done ([`SearchError`]).

use super::Capability;

/// Why a search could not be done.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SearchError {
    #[error("depth {depth} is outside the {engine} engine's range 1..={max}")]
    /// The depth is outside what the engine can search.
    DepthOutOfRange {
        /// The engine asked, by its recorded name ([`Engine::id`](super::Engine::id)).
        engine: String,
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
    #[error("{what} needs {}, which the engine `{engine}` does not have", capability.described())]
    /// A command asked an engine for what it cannot do ([`Engine::require`](super::Engine::require)).
    Lacks {
        /// The engine, by its recorded name.
        engine: String,
        /// What it lacks.
        capability: Capability,
        /// What needed it: `sargon models`.
        what: String,
    },
    #[error(transparent)]
    /// An engine outside this project (a program behind `exec:` or `uci:`) failed: it
    /// could not be started, printed what is no trace, took too long. The error names the
    /// line or the exchange at fault.
    External(Box<dyn std::error::Error + Send + Sync>),
    #[error("the {side} side has no game in memory to continue (a side's first search of a game is a new game)")]
    /// [`Memory::Continue`](super::Memory::Continue) or [`Memory::NextGame`](super::Memory::NextGame) for a side whose machine holds no game.
    NoGameInMemory {
        /// `White` or `Black`.
        side: String,
    },
    #[error(
        "after the reply {uci}, the board in the kept memory is not the position's (at {square})"
    )]
    /// [`Memory::Continue`](super::Memory::Continue): the kept board, after the other side's move, differs from the
    /// position asked for (a game's moves were skipped, or the program played another move).
    KeptBoardDiffers {
        /// The reply, in UCI notation.
        uci: String,
        /// The first square that differs: `e4`.
        square: String,
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

impl SearchError {
    /// [`SearchError::NoGameInMemory`] for the side that moves in `setup`'s position.
    ///
    /// ```
    /// use sargon_core::{parse_position, setup, Book, SearchError};
    /// let pos = parse_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")?;
    /// let e = SearchError::no_game_in_memory(&setup(&pos, Book::Off)?);
    /// assert!(e.to_string().starts_with("the Black side has no game in memory"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn no_game_in_memory(setup: &crate::position::Setup) -> SearchError {
        let side = if setup.search_color() & 0x80 == 0 {
            "White"
        } else {
            "Black"
        };
        SearchError::NoGameInMemory { side: side.into() }
    }
}
