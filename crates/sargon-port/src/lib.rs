//! The native port: Sargon's search rewritten in Rust routine by routine.
//!
//! # Why it is shaped like this
//!
//! The port is checked against the original running in the emulator *event by event*: every
//! node created, every score, every alpha-beta and best-move decision must be the same. So
//! it is not a reimplementation of Sargon's ideas but a transcription of its routines, each
//! Rust function named after the routine it ports (`path`, `mpiece`, `fndmov`, ...; MOVE
//! is `move_` because `move` is a Rust keyword) with comments naming the original's labels,
//! so that the two can be read side by side.
//!
//! It comes in two parts:
//!
//! * `faithful`: the original's routines and nothing else, one function per routine,
//!   each naming its callers and callees as the original's routine headers do:
//!   * `state`: Sargon's data in a 64 KiB byte memory with the original's relative
//!     layout (board, attack list, pin list, royalty table, score table, ply table, book,
//!     move list) and the one-byte variables as fields. The data structures alias each
//!     other on purpose (ply-table slots are move-list heads, BESTM may point into the
//!     book, nulls are tested on the high byte only, some overflows spill into the
//!     neighbouring table), which a byte memory reproduces for free.
//!   * `movegen`: PATH, MPIECE, ENPSNT, ADJPTR, CASTLE, ADMOVE, GENMOV, INCHK/INCHK1,
//!     ATTACK, ATKSAV, PNCK.
//!   * `eval`: PINFND, XCHNG, NEXTAD, POINTS, LIMIT.
//!   * `search`: MOVE, UNMOVE, SORTM, EVAL, FNDMOV, ASCEND, BOOK, ROYALT, VALMOV.
//! * `shortcuts`: not the original's. POINTS's `memo` (only the squares a move can have
//!   changed are worked out again) and the evaluation `cache` make the port more than
//!   twice as fast, and leave the machine byte for byte as the original's steps would.
//!
//! The two meet at one interface, `Scorer`: where the original scores a position (CALL
//! PINFND, CALL POINTS in FNDMOV and EVAL), the faithful routines call the scorer they
//! were given. There are three: `OriginalSteps` (PINFND and POINTS themselves),
//! `Shortcuts` (the default) and `Verified` (both, comparing the machines after every
//! scoring: the tests use it). A [`Port`] is made with one of them (`Scoring`).
//! `hook` is the machine as the hooks read it ([`sargon_core::hooks::SargonMemory`]).
//!
//! Values the original passes in registers become arguments, return values and locals, but
//! keep their byte arithmetic: wrapping adds, negation, unsigned compares, nibble moves.
//! Where a routine leaves a register changed behind its caller's back (PNCK overwriting
//! ATKSAV's queen flag with the direction; XCHNG's alternate registers; return addresses
//! discarded by the book, as by PNCK), the port does the same thing explicitly.
//!
//! Depth: the original's tables hold 6 plies. Up to depth 6 the port uses exactly the
//! original's table sizes (including the 2040-byte move-list limit); beyond, up to
//! [`MAX_DEPTH`], larger tables (`state::Layout::DEEP`).
//!
//! # Example: Sargon's move in the initial position
//!
//! ```
//! use sargon_core::{setup, Book, Engine, Hooks, SearchOptions};
//! use sargon_port::Port;
//!
//! let setup = setup(&shakmaty::Chess::default(), Book::Off)?;
//! let outcome = Port::new().search(&setup, &SearchOptions::depth(3), &mut Hooks::new())?;
//! let best = outcome.best.expect("a move");
//! println!("{} ({:+.2} pawns)", best.uci(), outcome.score_for_mover().pawns());
//! assert_eq!(best.uci(), "b1c3"); // the book is off: Sargon searches, and likes 1.Nc3
//! assert!(!outcome.from_book);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]
// The crate's API is the engine, [`Port`]; the routines behind it are the crate's own
// (read them in the source, beside the original), and the lint keeps them so.
#![warn(unreachable_pub)]

mod faithful;
mod hook;
mod scorer;
mod shortcuts;

use faithful::state;
use scorer::{OriginalSteps, Scorer};
use shortcuts::{Shortcuts, Verified};

#[cfg(test)]
mod game_memory_tests;
#[cfg(test)]
mod tests;

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use sargon_core::engine::Memory;
use sargon_core::engine::{
    Capabilities, Engine, SearchError, SearchOptions, SearchOutcome, SearchStats,
};
use sargon_core::game::Carried;
use sargon_core::hooks::Hooks;
use sargon_core::position::{kept_board_differs, Setup};
use sargon_core::vocab::Score;

use state::{is_null, Layout, Machine, SCORE, SCRATCH};

/// The deepest PLYMAX the port takes: its tables are sized for 20 plies (the original's
/// hold 6, see `docs/how-sargon-works.md`).
pub const MAX_DEPTH: u8 = 20;

/// How a [`Port`] scores positions (which [`Scorer`] it gives FNDMOV). The engine always
/// uses the shortcuts; the crate's tests make ports of the other two, to prove the
/// shortcuts equal to the original's steps.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) enum Scoring {
    /// PINFND and POINTS by the original's steps.
    OriginalSteps,
    /// POINTS's memo and the evaluation cache ([`Shortcuts`]).
    #[default]
    Shortcuts,
    /// The shortcuts, each result checked against the original's steps ([`Verified`]):
    /// a difference panics.
    Verified,
}

/// The scorer a port holds, as a concrete type, so that the search is compiled for each
/// one (no dynamic call per scoring).
enum Scorers {
    OriginalSteps(OriginalSteps),
    Shortcuts(Shortcuts),
    Verified(Verified),
}

/// The native port as an [`Engine`].
pub struct Port {
    machine: Machine,
    scorer: Scorers,
    /// Each side's machine kept between the moves of a game ([`Memory`]): White's, Black's.
    games: [Option<Box<Machine>>; 2],
}

impl Default for Port {
    fn default() -> Self {
        Port::new()
    }
}

impl Port {
    /// A port with the shortcuts.
    ///
    /// ```
    /// use sargon_core::{setup, Book, Engine, Hooks, SearchOptions};
    ///
    /// let mut port = sargon_port::Port::new();
    /// assert_eq!((port.id(), port.max_depth()), ("port".to_string(), 20));
    /// // The scholar's mate is on: White mates in one, Qh5xf7.
    /// let moves = "startpos moves e2e4 e7e5 d1h5 b8c6 f1c4 g8f6";
    /// let pos = sargon_core::position::read_position(moves)?.position;
    /// let found = port.search(&setup(&pos, Book::Off)?, &SearchOptions::depth(2), &mut Hooks::new())?;
    /// assert_eq!(found.best.unwrap().uci(), "h5f7");
    /// assert!(found.mates());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new() -> Port {
        Port::with_scoring(Scoring::default())
    }

    /// A port that scores positions as `scoring` says.
    pub(crate) fn with_scoring(scoring: Scoring) -> Port {
        let scorer = match scoring {
            Scoring::OriginalSteps => Scorers::OriginalSteps(OriginalSteps),
            Scoring::Shortcuts => Scorers::Shortcuts(Shortcuts::new()),
            Scoring::Verified => Scorers::Verified(Verified::new()),
        };
        Port {
            machine: Machine::new(),
            scorer,
            games: [None, None],
        }
    }

    /// The shortcuts, if this port uses them (to see what they did in the last search).
    #[cfg(test)]
    pub(crate) fn shortcuts(&self) -> Option<&Shortcuts> {
        match &self.scorer {
            Scorers::OriginalSteps(_) => None,
            Scorers::Shortcuts(s) => Some(s),
            Scorers::Verified(v) => Some(v.shortcuts()),
        }
    }

    /// Write `setup` into a fresh machine as the emulator harness does (steps 2 to 6 of
    /// [`Port::search`]), without searching. `Err` carries the refused replay move.
    pub(crate) fn prepare(
        &mut self,
        setup: &Setup,
        depth: u8,
        book_random: u8,
        hooks: &mut Hooks<'_>,
    ) -> Result<(), SearchError> {
        // Fresh state: the original's initial data.
        self.machine.reset(Layout::for_depth(depth));
        self.write_setup(setup, depth, book_random, hooks)
    }

    /// A scorer that remembers nothing of the searches before.
    fn new_search(&mut self) {
        match &mut self.scorer {
            Scorers::OriginalSteps(s) => s.new_search(),
            Scorers::Shortcuts(s) => s.new_search(),
            Scorers::Verified(s) => s.new_search(),
        }
    }

    /// Write `setup` into the machine as it is (a fresh one, or a game's for its next game):
    /// the board, the side, the move number, the royalty table found (ROYALT), a replayed
    /// move, PLYMAX and KOLOR.
    fn write_setup(
        &mut self,
        setup: &Setup,
        depth: u8,
        book_random: u8,
        hooks: &mut Hooks<'_>,
    ) -> Result<(), SearchError> {
        self.new_search();
        let m = &mut self.machine;
        m.book_random = book_random;
        m.set_board_array(&setup.board);
        m.color = setup.side.byte();
        m.moveno = setup.moveno;
        m.royalt();
        // MLPTRJ points at a zeroed entry: the "previous move" of the root is no move.
        m.mlptrj = SCRATCH;
        if let Some((from, to)) = setup.replay {
            m.kolor = m.color ^ 0x80;
            enter_move(m, (from, to), hooks)?;
            m.color ^= 0x80;
        }
        m.plymax = depth;
        m.kolor = m.color;
        Ok(())
    }

    /// FNDMOV on the prepared machine with this port's scorer (see [`Machine::fndmov`]).
    pub(crate) fn fndmov(&mut self, hooks: &mut Hooks<'_>, stop: Option<&AtomicBool>) -> bool {
        let m = &mut self.machine;
        match &mut self.scorer {
            Scorers::OriginalSteps(s) => m.fndmov(s, hooks, stop),
            Scorers::Shortcuts(s) => m.fndmov(s, hooks, stop),
            Scorers::Verified(s) => m.fndmov(s, hooks, stop),
        }
    }
}

impl Engine for Port {
    fn id(&self) -> String {
        "port".into()
    }

    fn max_depth(&self) -> u8 {
        MAX_DEPTH
    }

    /// Hooks, and through them its whole data area ([`sargon_core::state`]); no Z80.
    fn capabilities(&self) -> Capabilities {
        Capabilities::hooked(true, false)
    }

    /// PLYMAX and PMATE as the last FNDMOV left them.
    fn left_for_next_move(&self) -> Option<Carried> {
        Some(Carried {
            plymax: self.machine.plymax,
            pmate: self.machine.pmate,
        })
    }

    fn search(
        &mut self,
        setup: &Setup,
        opts: &SearchOptions,
        hooks: &mut Hooks,
    ) -> Result<SearchOutcome, SearchError> {
        self.check_depth(opts.depth)?;
        let start = Instant::now();
        let side = usize::from(setup.search_color() >> 7);
        // A failed search in a game's memory leaves the side no game, as the emulator's; a
        // fresh search leaves the kept games alone.
        let kept = match opts.memory {
            Memory::Continue { .. } | Memory::NextGame => self.games[side].take(),
            Memory::Fresh | Memory::NewGame => None,
        };
        match opts.memory {
            Memory::Fresh | Memory::NewGame => {
                self.prepare(setup, opts.depth, opts.book_random, hooks)?;
                self.machine.pmate = opts.pmate;
            }
            Memory::NextGame => {
                self.machine = *kept_game(kept, setup)?;
                self.write_setup(setup, opts.depth, opts.book_random, hooks)?;
            }
            Memory::Continue { reply } => {
                self.machine = *kept_game(kept, setup)?;
                self.check_depth(self.machine.plymax)?;
                self.new_search();
                let m = &mut self.machine;
                m.book_random = opts.book_random;
                // DR14 counts the moves; PLYMAX, PMATE and KOLOR are the memory's.
                m.moveno = setup.moveno;
                // PLYRMV: the other side's move, checked and made by VALMOV.
                enter_move(m, reply, hooks)?;
                if let Some(square) = kept_board_differs(&m.board_array(), &setup.position) {
                    let (from, to) = reply;
                    return Err(SearchError::KeptBoardDiffers {
                        uci: format!("{from}{to}"),
                        square: square.to_string(),
                    });
                }
            }
        }
        if !self.fndmov(hooks, opts.stop.as_deref()) {
            return Err(SearchError::Stopped);
        }
        let m = &mut self.machine;
        let best = (!is_null(m.bestm)).then(|| m.entry_move(m.bestm));
        let root_score = Score(m.rd(SCORE + 1));
        if opts.memory.kept_after() {
            // CPTRMV: the chosen move made on the board (none: the game is over), and the
            // memory kept for the side's next search.
            if !is_null(m.bestm) {
                m.mlptrj = m.bestm;
                m.move_();
            }
            self.games[side] = Some(Box::new(m.clone()));
        }
        Ok(SearchOutcome {
            best,
            root_score,
            from_book: setup.plays_from_book(),
            stats: SearchStats {
                z80_instructions: None,
                t_states: None,
                iz80_t_states: None,
                wall_us: start.elapsed().as_micros().min(u128::from(u64::MAX)) as u64,
            },
        })
    }
}

/// VALMOV on the move `from`-`to` (as PLYRMV gives it the player's move): checked
/// against the moves of the side opposite KOLOR and made, or refused.
fn enter_move(
    m: &mut Machine,
    (from, to): (sargon_core::vocab::Sq, sargon_core::vocab::Sq),
    hooks: &mut Hooks<'_>,
) -> Result<(), SearchError> {
    m.mvemsg = [from.0, to.0];
    if m.valmov(hooks) != 0 {
        return Err(SearchError::ReplayRefused {
            uci: format!("{from}{to}"),
        });
    }
    Ok(())
}

/// A side's kept game, or the error that it has none.
fn kept_game(kept: Option<Box<Machine>>, setup: &Setup) -> Result<Box<Machine>, SearchError> {
    kept.ok_or_else(|| SearchError::no_game_in_memory(setup))
}
