//! One interface over every engine.
//!
//! The CLI, the models, the trace recorder, the PV extraction and the differential runner
//! talk to an [`Engine`]; whether the original Z80 code runs in the emulator, the native
//! port runs, or another person's port answers from another process is a detail behind
//! it. An engine says what it can do ([`Capabilities`]) instead of which engine it is.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::hooks::{Hook, Hooks};
use crate::position::Setup;
use crate::trace::{Detail, Event, Recorder};
use crate::vocab::{SMove, Score, Sq};

mod error;
pub use error::SearchError;

/// Something an engine may be able to do beyond searching a position to a depth.
///
/// Commands ask for what they need ([`Engine::require`]) before any work, and a command
/// that needs what an engine lacks refuses with one sentence naming it.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Capability {
    /// It tells its search event by event ([`Engine::trace`]): the tree, the PV from the
    /// `best` events, the event-by-event comparison.
    Trace,
    /// Rust hooks run at its hook points and may steer it ([`crate::hooks`]): the models.
    Hooks,
    /// Its hooks can read Sargon's whole data area ([`crate::state`]): `diff --state`.
    State,
    /// It runs Z80 code: it counts instructions and T-states, and can be profiled.
    Z80,
}

impl Capability {
    /// What the capability is, as a sentence names it: `a trace of its search`.
    ///
    /// ```
    /// use sargon_core::Capability;
    /// assert_eq!(Capability::Trace.described(), "a trace of its search");
    /// assert_eq!(Capability::Z80.described(), "a Z80");
    /// ```
    pub fn described(self) -> &'static str {
        match self {
            Capability::Trace => "a trace of its search",
            Capability::Hooks => "hooks",
            Capability::State => "Sargon's data area",
            Capability::Z80 => "a Z80",
        }
    }
}

/// What an engine can do, as it says of itself ([`Engine::capabilities`]).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Capabilities {
    /// [`Capability::Trace`].
    pub trace: bool,
    /// [`Capability::Hooks`].
    pub hooks: bool,
    /// [`Capability::State`].
    pub state: bool,
    /// [`Capability::Z80`].
    pub z80: bool,
    /// Its trace's moves carry Sargon's whole flag byte. A trace read from text carries
    /// only the promotion bit (`docs/trace-format.md`), so a comparison with such an
    /// engine compares the written forms of the events.
    pub move_flags: bool,
}

impl Capabilities {
    /// An engine with hooks: a trace (recorded at its hook points), hooks and full move
    /// flags; `state` and `z80` as given.
    ///
    /// ```
    /// use sargon_core::Capabilities;
    /// let emulator = Capabilities::hooked(true, true);
    /// assert!(emulator.trace && emulator.hooks && emulator.move_flags && emulator.z80);
    /// assert!(!Capabilities::hooked(false, false).state);
    /// ```
    pub const fn hooked(state: bool, z80: bool) -> Capabilities {
        Capabilities {
            trace: true,
            hooks: true,
            state,
            z80,
            move_flags: true,
        }
    }

    /// Does the engine have `capability`?
    ///
    /// ```
    /// use sargon_core::{Capabilities, Capability};
    /// let traced = Capabilities { trace: true, ..Capabilities::default() };
    /// assert!(traced.has(Capability::Trace) && !traced.has(Capability::Hooks));
    /// assert!(Capabilities::hooked(true, false).has(Capability::State));
    /// ```
    pub fn has(self, capability: Capability) -> bool {
        match capability {
            Capability::Trace => self.trace,
            Capability::Hooks => self.hooks,
            Capability::State => self.state,
            Capability::Z80 => self.z80,
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
    /// PMATE before the search: 0, as the program's image has it, or what the last search
    /// of a game left ([`crate::game::GameDepth`]). No search reads it; FNDMOV writes it.
    pub pmate: u8,
    /// The memory the search runs in: a fresh machine's (analysis), or a game's kept from
    /// the side's last move, as the original's main loop keeps it ([`Memory`]).
    pub memory: Memory,
}

impl SearchOptions {
    /// Options for a search of `depth` plies, everything else default.
    ///
    /// ```
    /// use sargon_core::SearchOptions;
    /// let opts = SearchOptions::depth(4);
    /// assert_eq!((opts.depth, opts.book_random), (4, 0));
    /// assert_eq!(opts.instruction_budget(), sargon_core::engine::instruction_budget(4));
    /// assert!(!opts.stop_requested());
    /// ```
    pub fn depth(depth: u8) -> Self {
        SearchOptions {
            depth,
            ..Default::default()
        }
    }

    /// The emulator's instruction budget for this search: the one given, or the depth's
    /// ([`instruction_budget`]).
    ///
    /// ```
    /// use sargon_core::{engine::instruction_budget, SearchOptions};
    /// let mut opts = SearchOptions::depth(2);
    /// assert_eq!(opts.instruction_budget(), instruction_budget(2));
    /// opts.max_instructions = Some(1_000);
    /// assert_eq!(opts.instruction_budget(), 1_000);
    /// ```
    pub fn instruction_budget(&self) -> u64 {
        self.max_instructions
            .unwrap_or_else(|| instruction_budget(self.depth))
    }

    /// Has a stop been requested?
    ///
    /// ```
    /// use std::sync::{atomic::{AtomicBool, Ordering}, Arc};
    /// use sargon_core::SearchOptions;
    /// let stop = Arc::new(AtomicBool::new(false));
    /// let opts = SearchOptions { stop: Some(stop.clone()), ..SearchOptions::depth(3) };
    /// assert!(!opts.stop_requested());
    /// stop.store(true, Ordering::Relaxed);
    /// assert!(opts.stop_requested());
    /// ```
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
            pmate: 0,
            memory: Memory::Fresh,
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
///
/// ```
/// use sargon_core::engine::instruction_budget;
/// assert_eq!(instruction_budget(1), 100_000_000);
/// assert!(instruction_budget(5) < instruction_budget(6));
/// ```
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
    ///
    /// ```
    /// use sargon_core::{engine::SearchStats, SearchOutcome, Score};
    /// let found = SearchOutcome {
    ///     best: None,
    ///     root_score: Score(0x88), // one pawn down for the side that did not move
    ///     from_book: false,
    ///     stats: SearchStats::default(),
    /// };
    /// assert_eq!(found.score_for_mover().pawns(), 1.0);
    /// assert!(!found.mates());
    /// ```
    pub fn score_for_mover(&self) -> Score {
        self.root_score.negated()
    }

    /// The search found a forced mate for the side to move (SCORE+1 = 0xff, which is also
    /// what makes Sargon shorten its search).
    ///
    /// ```
    /// use sargon_core::{engine::SearchStats, SearchOutcome, Score};
    /// let mate = SearchOutcome {
    ///     best: None,
    ///     root_score: Score(0xff),
    ///     from_book: false,
    ///     stats: SearchStats::default(),
    /// };
    /// assert!(mate.mates());
    /// assert!(!SearchOutcome { root_score: Score(0x80), ..mate }.mates());
    /// ```
    pub fn mates(&self) -> bool {
        self.root_score == Score(0xff)
    }
}

/// Which memory a search runs in ([`SearchOptions::memory`]).
///
/// The original is a whole program: its main loop (DRIVER) plays one colour in one memory
/// that nothing resets between moves, and a new game begins in what the last one left
/// (`docs/how-sargon-works.md`, "Between two moves of a game"). A search in a game's kept
/// memory finds what the original's would: PLYMAX and PMATE as FNDMOV left them, the
/// royalty table as MOVE kept it (not found anew from the board: after a promotion they
/// differ), the score table's bytes from the last search, the last move list. Two copies
/// of Sargon playing each other are two machines: an engine keeps one memory per colour.
///
/// Engines of another process (`exec:`, `uci:`) keep their own memory and search the
/// position whatever this says.
///
/// ```
/// use sargon_core::engine::Memory;
/// use sargon_core::vocab::Sq;
/// use sargon_core::{setup, Book, Engine, Hooks, SearchOptions};
/// use shakmaty::Position;
///
/// // White's machine searches, and makes its move on its own board.
/// let mut pos = sargon_core::parse_position("startpos")?;
/// let mut white = sargon_port::Port::new();
/// let first = SearchOptions { memory: Memory::NewGame, ..SearchOptions::depth(2) };
/// let found = white.search(&setup(&pos, Book::Off)?, &first, &mut Hooks::new())?;
/// pos.play_unchecked(found.best.unwrap().to_chess(&pos).unwrap());
/// // Black answers 1...c5; White's next search continues its memory after that reply.
/// pos.play_unchecked(shakmaty::uci::UciMove::from_ascii(b"c7c5")?.to_move(&pos)?);
/// let next = SearchOptions {
///     memory: Memory::Continue { reply: (Sq(83), Sq(63)) },
///     ..SearchOptions::depth(2)
/// };
/// assert!(white.search(&setup(&pos, Book::Off)?, &next, &mut Hooks::new())?.best.is_some());
/// assert_eq!(Memory::default(), Memory::Fresh);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Memory {
    /// A fresh machine: the image's memory and the set-up, as every analysis search.
    #[default]
    Fresh,
    /// A side's first search of a game, in a fresh machine. Afterwards the engine makes the
    /// chosen move on its board (CPTRMV's MOVE) and keeps the memory for the side's next
    /// search.
    NewGame,
    /// The side's memory as its last search and move left it, after `reply`, the other
    /// side's move since, entered as the player's (PLYRMV's VALMOV). The options' depth and
    /// PMATE are not written (the memory has the original's own); the set-up's move number
    /// is, as DRIVER counts it. Then as [`Memory::NewGame`].
    Continue {
        /// The other side's move since this side's last search: from and to square.
        reply: (Sq, Sq),
    },
    /// A new game in the side's kept memory, as the original's next game without
    /// reloading: the set-up written as for a fresh machine, PLYMAX the options' depth
    /// (INTERR asks again), everything else (the score table, PMATE, the move list) as the
    /// last game left it. Then as [`Memory::NewGame`].
    NextGame,
}

impl Memory {
    /// Does the engine keep the memory after this search (a game's)?
    ///
    /// ```
    /// use sargon_core::engine::Memory;
    /// assert!(Memory::NewGame.kept_after() && Memory::NextGame.kept_after());
    /// assert!(!Memory::Fresh.kept_after());
    /// ```
    pub fn kept_after(self) -> bool {
        self != Memory::Fresh
    }
}

/// What a search leaves in Sargon's memory that its next search in a game starts from
/// ([`Engine::left_for_next_move`], [`crate::game`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Carried {
    /// PLYMAX: the depth of the next search (two less after a mate found at the root).
    pub plymax: u8,
    /// PMATE: the move number at which the search saw a mate (only the original's "mate in
    /// N" message reads it; no search does).
    pub pmate: u8,
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
    ///
    /// ```
    /// use sargon_core::engine::RomId;
    /// let rom = RomId {
    ///     name: "mine".into(),
    ///     sha256: "00".into(),
    ///     verified: false,
    ///     allowed_differences: vec![],
    /// };
    /// assert!(rom.unverified_note().unwrap().starts_with("ROM `mine` is NOT VERIFIED"));
    /// assert_eq!(RomId { verified: true, ..rom }.unverified_note(), None);
    /// ```
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

/// A chess engine that runs Sargon's search: the original in the emulator, the native
/// port, another person's port behind `exec:` or `uci:`, or anything else that can search a
/// position to a depth.
///
/// An engine says what it is ([`Engine::id`], [`Engine::name`]), how deep it searches
/// ([`Engine::max_depth`]) and what it can do beyond searching ([`Engine::capabilities`]);
/// nothing else in the project asks which engine it is. A new kind of engine is a new
/// implementation of this trait, nothing more.
///
/// ```
/// use sargon_core::engine::{Capabilities, Engine, SearchError, SearchOptions, SearchOutcome};
/// use sargon_core::{setup, Book, Hooks, Setup};
///
/// /// The port under another name: an engine this crate has never heard of.
/// struct Renamed(sargon_port::Port);
///
/// impl Engine for Renamed {
///     fn id(&self) -> String {
///         "renamed".into()
///     }
///     fn max_depth(&self) -> u8 {
///         self.0.max_depth()
///     }
///     fn capabilities(&self) -> Capabilities {
///         self.0.capabilities()
///     }
///     fn search(
///         &mut self,
///         setup: &Setup,
///         opts: &SearchOptions,
///         hooks: &mut Hooks,
///     ) -> Result<SearchOutcome, SearchError> {
///         self.0.search(setup, opts, hooks)
///     }
/// }
///
/// let mut engine = Renamed(sargon_port::Port::new());
/// let e = engine.check_depth(30).unwrap_err();
/// assert_eq!(e.to_string(), "depth 30 is outside the renamed engine's range 1..=20");
/// let setup = setup(&shakmaty::Chess::default(), Book::Off)?;
/// let found = engine.search(&setup, &SearchOptions::depth(2), &mut Hooks::new())?;
/// assert!(found.best.is_some());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Engine {
    /// The name recorded with every result and accepted on the command line: `port`,
    /// `emulator`, `exec:COMMAND`, `uci:COMMAND`.
    ///
    /// ```
    /// use sargon_core::Engine;
    /// assert_eq!(sargon_port::Port::new().id(), "port");
    /// ```
    fn id(&self) -> String;
    /// The deepest PLYMAX this engine takes.
    ///
    /// ```
    /// use sargon_core::Engine;
    /// assert_eq!(sargon_port::Port::new().max_depth(), sargon_port::MAX_DEPTH);
    /// ```
    fn max_depth(&self) -> u8;
    /// What this engine can do beyond searching.
    ///
    /// ```
    /// use sargon_core::{Capability, Engine};
    /// let port = sargon_port::Port::new().capabilities();
    /// assert!(port.has(Capability::State) && !port.has(Capability::Z80));
    /// ```
    fn capabilities(&self) -> Capabilities;
    /// The imported program this engine runs (the emulator), or `None`.
    ///
    /// ```
    /// use sargon_core::Engine;
    /// assert_eq!(sargon_port::Port::new().rom_id(), None); // the port runs no imported image
    /// ```
    fn rom_id(&self) -> Option<&RomId> {
        None
    }
    /// After a search: what it left in Sargon's memory for the program's next move in a
    /// game (PLYMAX, PMATE; [`crate::game`]), or `None` when the engine cannot say (an
    /// engine of another process).
    ///
    /// ```
    /// use sargon_core::{setup, Book, Engine, Hooks, SearchOptions};
    /// // White mates in two: FNDMOV lowers PLYMAX by two, 3 to 1; White's PMATE is kept.
    /// let pos = sargon_core::parse_position("7k/8/5K2/8/8/8/8/6R1 w - - 0 40")?;
    /// let mut port = sargon_port::Port::new();
    /// port.search(&setup(&pos, Book::Off)?, &SearchOptions::depth(3), &mut Hooks::new())?;
    /// let left = port.left_for_next_move().expect("the port says");
    /// assert_eq!(left.plymax, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn left_for_next_move(&self) -> Option<Carried> {
        None
    }
    /// The emulator's Z80 core when it is not the default one, `iz80`: `Some("z80emu")`
    /// (`sargon_original::emu::Core`). `None` for the default core and for engines
    /// without a Z80.
    ///
    /// ```
    /// use sargon_core::Engine;
    /// assert_eq!(sargon_port::Port::new().core(), None);
    /// ```
    fn core(&self) -> Option<&str> {
        None
    }
    /// The engine's recorded name, with the emulator's core when it is not the default
    /// one: `port`, `emulator`, `emulator on z80emu`.
    ///
    /// ```
    /// use sargon_core::Engine;
    /// assert_eq!(sargon_port::Port::new().id_on_core(), "port");
    /// ```
    fn id_on_core(&self) -> String {
        match self.core() {
            Some(core) => format!("{} on {core}", self.id()),
            None => self.id(),
        }
    }
    /// How to name this engine to a person: `port`, or `emulator (ROM sargon)`, or
    /// `emulator (ROM mine, NOT VERIFIED)`, or `emulator on z80emu (ROM sargon)`: every
    /// result that names its engine then says when it comes from an image that did not
    /// behave as Sargon, and on which core the emulator ran when not the default one.
    ///
    /// ```
    /// use sargon_core::Engine;
    /// assert_eq!(sargon_port::Port::new().name(), "port");
    /// ```
    fn name(&self) -> String {
        let id = self.id_on_core();
        match self.rom_id() {
            Some(rom) if !rom.verified => {
                format!("{id} (ROM {}, NOT VERIFIED)", rom.name)
            }
            Some(rom) if !rom.allowed_differences.is_empty() => format!(
                "{id} (ROM {}, differs from the known image only where no search runs or reads: {})",
                rom.name,
                rom.allowed_differences.join(", ")
            ),
            Some(rom) => format!("{id} (ROM {})", rom.name),
            None => id,
        }
    }
    /// Search `setup` to `opts.depth`, running `hooks` at their points. An engine without
    /// [`Capability::Hooks`] refuses hooks ([`Engine::refuse_hooks`]).
    ///
    /// ```
    /// use sargon_core::{setup, Book, Engine, Hooks, SearchOptions};
    ///
    /// let start = setup(&shakmaty::Chess::default(), Book::Allowed)?;
    /// let mut port = sargon_port::Port::new();
    /// let found = port.search(&start, &SearchOptions::depth(2), &mut Hooks::new())?;
    /// // MOVENO 1: the book answers, and book_random 0 picks 1.e4.
    /// assert!(found.from_book);
    /// assert_eq!(found.best.unwrap().uci(), "e2e4");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn search(
        &mut self,
        setup: &Setup,
        opts: &SearchOptions,
        hooks: &mut Hooks,
    ) -> Result<SearchOutcome, SearchError>;

    /// Search `setup`, handing every event `detail` asks for to `sink` as it happens, and
    /// last the result event. `extra` hooks run before the recording at their points. A
    /// search that fails has no result event. [`crate::record`] is how tools call this.
    ///
    /// An engine with hooks records its trace at its hook points (this default); an engine
    /// that tells its trace another way (a program that prints it) overrides this, and one
    /// that cannot tell it at all hands over the result event alone.
    ///
    /// ```
    /// use sargon_core::{setup, Book, Detail, Engine, Event, SearchOptions};
    ///
    /// let start = setup(&shakmaty::Chess::default(), Book::Off)?;
    /// let mut events = Vec::new();
    /// let found = sargon_port::Port::new().trace(
    ///     &start,
    ///     &SearchOptions::depth(1),
    ///     Detail::Full,
    ///     &mut [],
    ///     &mut |e| events.push(e),
    /// )?;
    /// let created = events.iter().filter(|e| matches!(e, Event::Created { .. })).count();
    /// assert_eq!(created, 20); // the root's moves
    /// assert_eq!(events.last(), Some(&Event::Result { best: found.best, score: found.root_score }));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn trace(
        &mut self,
        setup: &Setup,
        opts: &SearchOptions,
        detail: Detail,
        extra: &mut [&mut dyn Hook],
        sink: &mut dyn FnMut(Event),
    ) -> Result<SearchOutcome, SearchError> {
        let mut recorder = Recorder::new(detail, &mut *sink);
        let mut hooks = Hooks::new();
        for hook in extra.iter_mut() {
            hooks.add(&mut **hook);
        }
        hooks.add(&mut recorder);
        let outcome = self.search(setup, opts, &mut hooks)?;
        drop(hooks);
        drop(recorder);
        sink(Event::Result {
            best: outcome.best,
            score: outcome.root_score,
        });
        Ok(outcome)
    }

    /// Check the depth against [`Engine::max_depth`]; engines call this first.
    ///
    /// ```
    /// use sargon_core::Engine;
    /// let port = sargon_port::Port::new();
    /// assert!(port.check_depth(20).is_ok());
    /// let e = port.check_depth(0).unwrap_err();
    /// assert_eq!(e.to_string(), "depth 0 is outside the port engine's range 1..=20");
    /// ```
    fn check_depth(&self, depth: u8) -> Result<(), SearchError> {
        if depth == 0 || depth > self.max_depth() {
            return Err(SearchError::DepthOutOfRange {
                engine: self.id(),
                depth,
                max: self.max_depth(),
            });
        }
        Ok(())
    }

    /// Refuse, before any work, when this engine lacks `capability`, which `what` (`sargon
    /// models`) needs.
    ///
    /// ```
    /// use sargon_core::{Capability, Engine};
    /// let port = sargon_port::Port::new();
    /// assert!(port.require(Capability::Hooks, "sargon models").is_ok());
    /// let e = port.require(Capability::Z80, "sargon profile").unwrap_err();
    /// assert_eq!(e.to_string(), "sargon profile needs a Z80, which the engine `port` does not have");
    /// ```
    fn require(&self, capability: Capability, what: &str) -> Result<(), SearchError> {
        if self.capabilities().has(capability) {
            Ok(())
        } else {
            Err(SearchError::Lacks {
                engine: self.id(),
                capability,
                what: what.to_string(),
            })
        }
    }

    /// For an engine without hooks: refuse a search that brings some.
    ///
    /// ```
    /// use sargon_core::{Capabilities, Engine, FnHook, HookPoint, Hooks, SearchError, SearchOptions, Setup};
    /// use sargon_core::engine::SearchOutcome;
    ///
    /// /// An engine that only answers (as a `uci:` engine does).
    /// struct Answers;
    /// impl Engine for Answers {
    ///     fn id(&self) -> String { "answers".into() }
    ///     fn max_depth(&self) -> u8 { 1 }
    ///     fn capabilities(&self) -> Capabilities { Capabilities::default() }
    ///     fn search(&mut self, _: &Setup, _: &SearchOptions, hooks: &mut Hooks)
    ///         -> Result<SearchOutcome, SearchError> {
    ///         self.refuse_hooks(hooks)?;
    ///         Err(SearchError::Stopped)
    ///     }
    /// }
    /// assert!(Answers.refuse_hooks(&Hooks::new()).is_ok());
    /// let mut count = FnHook::new(&[HookPoint::PointsEnd], |_| {});
    /// let mut hooks = Hooks::new();
    /// hooks.add(&mut count);
    /// let e = Answers.refuse_hooks(&hooks).unwrap_err();
    /// assert_eq!(e.to_string(), "a search with hooks needs hooks, which the engine `answers` does not have");
    /// ```
    fn refuse_hooks(&self, hooks: &Hooks) -> Result<(), SearchError> {
        if hooks.is_empty() {
            Ok(())
        } else {
            self.require(Capability::Hooks, "a search with hooks")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An engine that only names itself (and its core, when not the default one).
    struct Named(Option<RomId>, Option<&'static str>);

    impl Engine for Named {
        fn id(&self) -> String {
            "emulator".into()
        }
        fn max_depth(&self) -> u8 {
            6
        }
        fn capabilities(&self) -> Capabilities {
            Capabilities::hooked(true, true)
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
