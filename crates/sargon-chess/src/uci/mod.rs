//! The UCI protocol: Sargon as an engine for chess GUIs and tools.
//!
//! [`Uci`] reads commands line by line ([`Uci::handle_line`], or [`Uci::run`] over any
//! `BufRead`) and writes its answers to any `Write`, so the protocol is tested with
//! in-memory streams and run on stdin/stdout by `sargon uci`.
//!
//! # Searching
//!
//! `go` starts a search on a worker thread; the engine ([`Engine`]) moves into that thread
//! and comes back when the search is over, so `stop`, `isready` and `quit` are answered
//! while it runs. Sargon has no iterative deepening of its own: each depth is a fresh,
//! complete search to that PLYMAX, run from depth 1 upward. After each completed depth an
//! `info` line gives:
//!
//! * `score cp X`: the root score for the side to move (Sargon's unit is 1/8 pawn, so
//!   centipawns come in steps of 12.5, rounded toward zero); `score mate N` instead when the
//!   principal variation ends in checkmate (checked with `shakmaty`: N moves for the side
//!   to move to mate, or -N when it is mated);
//! * `nodes N`: the positions Sargon's scoring routine (POINTS) evaluated, counted by a
//!   hook at `points.end`, summed over all the depths searched for this `go` (each depth
//!   searches the tree again from scratch, so this is the work really done); `nps` is that
//!   count per second of wall time since `go`;
//! * `time MS` since `go`, and the `pv`, read from the "best so far" nodes ([`sargon_core::pv`]).
//!
//! `bestmove` is the move of the last completed depth. A search cut short (by `stop`, the
//! clock or a node limit) is thrown away. Depth 1 always completes: `stop`, the end of the
//! input, a node limit and `go movetime` end only the depths after it, so the move played
//! is one a search chose. The one exception is the clock (`wtime`/`btime`), whose hard
//! limit ends depth 1 too: the first legal move is then played in time, with an `info
//! string` saying so. `quit` ends depth 1 too, and a search so ended, a search that failed
//! (a runaway image) and a position without a legal move answer `bestmove 0000`. The
//! move Sargon's opening book gives (in the initial position and one White move after it,
//! see [`sargon_core::position`]) is played at once, without a search, and announced with
//! an `info depth 0 ... pv <move>` line so that an analysis pane shows it.
//!
//! # MultiPV and searchmoves, through the move-generation hook
//!
//! Sargon has neither. [`RootMoves`] is a hook at `movegen.done` of ply 1 that unlinks the
//! unwanted moves from the root's move list, so Sargon's own search runs on the moves
//! left, on both engines alike. `go searchmoves` keeps only the moves given; `MultiPV N`
//! runs, at each depth, N searches: line k with the best moves of lines 1..k-1 kept out.
//! That is Sargon's own second (third, ...) choice, not an estimate.
//!
//! # Time
//!
//! With `movetime`, the budget is the given time less [`MOVE_OVERHEAD`]. With a clock
//! (`wtime`/`btime`, `winc`/`binc`, `movestogo`) see `TimeBudget::from_clock`: a soft
//! budget per move and a hard limit. A depth is started only if its predicted time (the
//! last depth's time times the last observed growth factor, 6 before there is one)
//! would end within the soft budget times 1.5 and the hard limit; a watchdog thread sets
//! the stop flag at the hard limit, and the engines look at that flag (the emulator every
//! 64 K Z80 instructions), so a search that overruns is abandoned in about a millisecond.
//! Depth 1 is always started, and only the clock's hard limit stops it. Depths never
//! exceed [`Engine::max_depth`].
//!
//! # Options
//!
//! `Engine` (port or emulator), `FixedDepth` (0: iterate under the clock; N: search depth 1,
//! so that a searched move is at hand, then depth N), `OwnBook` (alias
//! `Book`), `MultiPV`, `UCI_AnalyseMode` and `Ponder` ([`Settings`]). The book answers only
//! a plain `go`: analysis (`UCI_AnalyseMode`, `go infinite`, `go ponder`) wants a search,
//! and a restricted root (`searchmoves`, `MultiPV` above 1) a choice the book cannot make.
//!
//! # Never a move for a position nobody set
//!
//! After a refused `position`, or while the chosen engine cannot start, every `go` answers
//! `bestmove 0000` with the reason: any move would answer a question the GUI did not ask.
//! A line longer than 64 KB or not UTF-8 is refused whole, never carried out in part: a
//! `position` so sent is a refused position, a `go` answers `bestmove 0000`.
//! Malformed `go` words are named and ignored, echoed input goes through
//! [`sargon_core::input::echo`], and depths beyond an engine's maximum are said, never
//! silently clamped.
//!
//! # Input at the end
//!
//! When the input ends (EOF) without `quit`, the GUI has gone: a bounded search gets
//! [`EOF_GRACE`] to finish (so a script piped into `sargon uci` gets its `bestmove`), then
//! any search is stopped as by `stop` (depth 1 completes) and [`Uci::run`] returns.
//!
//! # Layout
//!
//! `session` holds the [`Uci`] state machine, `commands` parses the arguments of `go` and
//! `position`, `time` turns a `go` into a [`Plan`] under a [`TimeBudget`], and `worker`
//! is the search thread. Everything public is re-exported here.

mod commands;
mod in_process;
mod session;
mod shared;
mod time;
mod worker;

use sargon_core::engine::Engine;

use sargon_engines::engines::{EngineSpec, OpenError};

pub use commands::{parse_position_command, GoParams, PositionCommandError};
pub use in_process::client_in_process;
pub use session::{StartError, Uci, EOF_GRACE};
pub use time::{Plan, TimeBudget, DEFAULT_GROWTH, MOVE_OVERHEAD};
pub use worker::{info_line, mate_of, root_moves, search_depth, DepthResult, RootMoves};

/// Opens the engine a specification names (the program's is [`sargon_engines::engines::open`];
/// tests give engines of their own).
pub type EngineFactory =
    Box<dyn FnMut(&EngineSpec) -> Result<Box<dyn Engine + Send>, OpenError> + Send>;

/// The options a GUI can set, with their start values.
#[derive(Clone, Debug)]
pub struct Settings {
    /// `Engine`: which engine searches.
    pub engine: EngineSpec,
    /// `FixedDepth`: 0 to iterate under the clock, N to search depth 1 (so that a searched
    /// move is at hand) and then depth N.
    pub fixed_depth: u8,
    /// `OwnBook` (alias `Book`): play from Sargon's opening book where it applies.
    pub book: bool,
    /// `CarryDepth`: in a game at a FixedDepth, each side's next search (at the FixedDepth
    /// after depth 1) continues the memory its last one left, as the original's: PLYMAX
    /// two lower after it found a mate, the royalty table and the men's flags as its moves
    /// left them ([`sargon_core::game`]), until `ucinewgame` or a position that does not
    /// follow from it. Off: FixedDepth afresh every move.
    pub carry_depth: bool,
    /// The byte the book reads (bit 0: 1.e4 or 1.d4); not a UCI option.
    pub book_random: u8,
    /// `UCI_AnalyseMode`: the GUI analyses; never answer from the book.
    pub analyse_mode: bool,
    /// `MultiPV`: how many lines to report, each a search with the best moves of the lines
    /// before it kept out of the root.
    pub multipv: u8,
    /// `Ponder`: the GUI may send `go ponder`; Sargon needs nothing prepared for it.
    pub ponder: bool,
    /// How long a `go` runs before `info currmove` lines start; not a UCI option. A
    /// search of a few milliseconds would otherwise print a line per root move and
    /// depth, which no one can read (Stockfish waits 3 s).
    pub currmove_after: std::time::Duration,
}

impl Settings {
    /// Whether a `go` carries the depth from the side's last search: `CarryDepth` at a
    /// `FixedDepth`, in a game (not `UCI_AnalyseMode`), one line (a second MultiPV line's
    /// search leaves out the best move, so what it leaves is not the game's).
    pub fn carries_depth(&self) -> bool {
        self.carry_depth && self.fixed_depth > 0 && !self.analyse_mode && self.multipv == 1
    }
}

/// The largest `MultiPV`: each line is a search of its own, so more lines cost more time.
pub(crate) const MAX_MULTIPV: u8 = 32;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            engine: EngineSpec::Port,
            fixed_depth: 0,
            book: true,
            carry_depth: true,
            book_random: 0,
            analyse_mode: false,
            multipv: 1,
            ponder: false,
            currmove_after: std::time::Duration::from_secs(1),
        }
    }
}
