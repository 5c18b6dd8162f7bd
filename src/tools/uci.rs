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
//! * `time MS` since `go`, and the `pv`, read from the "best so far" nodes ([`crate::tools::pv`]).
//!
//! `bestmove` is the move of the last completed depth. A search cut short (by `stop`, the
//! clock or a node limit) is thrown away; if not even depth 1 completed, the first legal
//! move is played, and `bestmove 0000` is the answer when there is no legal move. The
//! move Sargon's opening book gives (in the initial position and one White move after it,
//! see [`crate::base::position`]) is played at once, without a search.
//!
//! # Time
//!
//! With `movetime`, the budget is the given time less [`MOVE_OVERHEAD`]. With a clock
//! (`wtime`/`btime`, `winc`/`binc`, `movestogo`) see [`TimeBudget::from_clock`]: a soft
//! budget per move and a hard limit. A depth is started only if its predicted time (the
//! last depth's time times the last observed growth factor, 6 before there is one)
//! would end within the soft budget times 1.5 and the hard limit; a watchdog thread sets
//! the stop flag at the hard limit, and the engines look at that flag (the emulator every
//! 64 K Z80 instructions), so a search that overruns is abandoned in about a millisecond.
//! Depth 1 is always started. Depths never exceed [`Engine::max_depth`].
//!
//! # Options
//!
//! `Engine` (port or emulator), `FixedDepth` (0: iterate under the clock; N: search depth N
//! only, preceded by a depth-1 safety search when a clock is running) and `Book`.
//! `go infinite` never uses the book: analysis wants a search, not a book move.
//!
//! # Input at the end
//!
//! When the input ends (EOF) without `quit`, a running `go infinite` is stopped and any
//! other search is allowed to finish, so that a script piped into `sargon uci` gets its
//! `bestmove`.

use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use crate::base::engine::{Engine, EngineKind, SearchError, SearchOptions};
use crate::base::hooks::{FnHook, HookPoint};
use crate::base::position::{self, Setup};
use crate::base::trace::Detail;
use crate::tools::record;

/// Builds an engine of a kind.
pub type EngineFactory =
    Box<dyn FnMut(EngineKind) -> anyhow::Result<Box<dyn Engine + Send>> + Send>;

/// Time kept in hand for the GUI and the pipe: never planned to be used.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(50);

/// Growth of the search time from one depth to the next, before one is observed.
pub const DEFAULT_GROWTH: f64 = 6.0;

/// The options a GUI can set, with their start values.
#[derive(Clone, Debug)]
pub struct Settings {
    /// `Engine`: which engine searches.
    pub engine: EngineKind,
    /// `FixedDepth`: 0 to iterate under the clock, N to search depth N only.
    pub fixed_depth: u8,
    /// `Book`: play from Sargon's opening book where it applies.
    pub book: bool,
    /// The byte the book reads (bit 0: 1.e4 or 1.d4); not a UCI option.
    pub book_random: u8,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            engine: EngineKind::Port,
            fixed_depth: 0,
            book: true,
            book_random: 0,
        }
    }
}

/// The limits of one `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub depth: Option<u8>,
    pub movetime: Option<Duration>,
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    pub movestogo: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
}

impl GoParams {
    /// Parse the words after `go`; what is not understood is returned as explanations.
    pub fn parse(words: &[&str]) -> (GoParams, Vec<String>) {
        let mut go = GoParams::default();
        let mut problems = Vec::new();
        let mut i = 0;
        // A number after a keyword; negative clock times (a flagged GUI clock) count as 0.
        let mut number = |i: &mut usize, key: &str| -> Option<u64> {
            let value = words.get(*i + 1);
            *i += 1;
            match value.map(|v| v.parse::<i64>()) {
                Some(Ok(n)) => Some(n.max(0) as u64),
                _ => {
                    problems.push(format!("go {key}: expected a number"));
                    None
                }
            }
        };
        let ms = Duration::from_millis;
        let mut unknown = Vec::new();
        while i < words.len() {
            match words[i] {
                "depth" => go.depth = number(&mut i, "depth").map(|n| n.min(255) as u8),
                "movetime" => go.movetime = number(&mut i, "movetime").map(ms),
                "wtime" => go.wtime = number(&mut i, "wtime").map(ms),
                "btime" => go.btime = number(&mut i, "btime").map(ms),
                "winc" => go.winc = number(&mut i, "winc").map(ms),
                "binc" => go.binc = number(&mut i, "binc").map(ms),
                "movestogo" => {
                    go.movestogo = number(&mut i, "movestogo").map(|n| n.min(1000) as u32)
                }
                "nodes" => go.nodes = number(&mut i, "nodes"),
                "mate" => go.mate = number(&mut i, "mate").map(|n| n.min(100) as u32),
                "infinite" => go.infinite = true,
                "ponder" => go.ponder = true,
                "searchmoves" => {
                    // Sargon always searches every move; skip the list.
                    while i + 1 < words.len() && words[i + 1].len() >= 4 {
                        i += 1;
                    }
                    unknown.push("searchmoves (Sargon searches all moves)".to_string());
                }
                other => unknown.push(other.to_string()),
            }
            i += 1;
        }
        if !unknown.is_empty() {
            problems.push(format!("go: ignored {}", unknown.join(", ")));
        }
        (go, problems)
    }

    /// The clock of the side to move, if the GUI gave one.
    fn clock(&self, turn: Color) -> Option<(Duration, Duration)> {
        let (time, inc) = match turn {
            Color::White => (self.wtime, self.winc),
            Color::Black => (self.btime, self.binc),
        };
        time.map(|t| (t, inc.unwrap_or_default()))
    }
}

/// How long one move may take.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// The time a move should take on average: depths are started while their predicted
    /// end is within 1.5 times this.
    pub soft: Duration,
    /// Never exceeded: the search is stopped here.
    pub hard: Duration,
}

impl TimeBudget {
    /// `movetime`: all of it but [`MOVE_OVERHEAD`] (at least 1 ms).
    pub fn from_movetime(movetime: Duration) -> TimeBudget {
        let t = movetime
            .saturating_sub(MOVE_OVERHEAD)
            .max(Duration::from_millis(1));
        TimeBudget { soft: t, hard: t }
    }

    /// A clock: `time` left, `inc` added after each move, `movestogo` moves to the next
    /// time control (25 assumed when not given). The usable time is what is left less
    /// [`MOVE_OVERHEAD`]; the soft budget is its share per move plus 3/4 of the increment,
    /// at most half of it; the hard limit is three times the soft budget, at most 3/4 of
    /// the usable time. So a move never takes more than 3/4 of the clock, and the clock
    /// never runs out whatever the number of moves.
    pub fn from_clock(time: Duration, inc: Duration, movestogo: Option<u32>) -> TimeBudget {
        let usable = time.saturating_sub(MOVE_OVERHEAD);
        let moves = movestogo.unwrap_or(25).clamp(1, 50);
        let soft = (usable / moves + inc * 3 / 4).min(usable / 2);
        let hard = (soft * 3).min(usable * 3 / 4);
        let floor = Duration::from_millis(1);
        TimeBudget {
            soft: soft.max(floor),
            hard: hard.max(floor),
        }
    }

    /// The budget of a `go`, or `None` when it has no time limit.
    pub fn of(go: &GoParams, turn: Color) -> Option<TimeBudget> {
        if go.infinite || go.ponder {
            return None;
        }
        let clock = go
            .clock(turn)
            .map(|(t, inc)| TimeBudget::from_clock(t, inc, go.movestogo));
        let movetime = go.movetime.map(TimeBudget::from_movetime);
        match (clock, movetime) {
            (Some(a), Some(b)) => Some(TimeBudget {
                soft: a.soft.min(b.soft),
                hard: a.hard.min(b.hard),
            }),
            (a, b) => a.or(b),
        }
    }

    /// May a depth predicted to take `predicted` start after `elapsed`?
    pub fn allows(&self, elapsed: Duration, predicted: Duration) -> bool {
        let end = elapsed + predicted;
        end <= self.hard && end <= self.soft.mul_f64(1.5)
    }
}

/// What a `go` will do: which depths, under which limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The depths to search, in order.
    pub depths: Vec<u8>,
    pub budget: Option<TimeBudget>,
    /// Stop once this many positions have been evaluated.
    pub nodes: Option<u64>,
    /// Wait for `stop` before answering (go infinite / go ponder).
    pub wait_for_stop: bool,
    /// Use the opening book where it applies.
    pub book: bool,
}

impl Plan {
    /// The plan for `go` in a position with `turn` to move, on an engine that searches up
    /// to `max_depth`; explanations for the GUI are returned with it.
    pub fn new(
        go: &GoParams,
        settings: &Settings,
        turn: Color,
        max_depth: u8,
    ) -> (Plan, Vec<String>) {
        let mut notes = Vec::new();
        let budget = TimeBudget::of(go, turn);
        let depths: Vec<u8> = if settings.fixed_depth > 0 {
            let fixed = if settings.fixed_depth > max_depth {
                notes.push(format!(
                    "FixedDepth {} is beyond this engine's maximum: searching depth {max_depth}",
                    settings.fixed_depth
                ));
                max_depth
            } else {
                settings.fixed_depth
            };
            if budget.is_some() && fixed > 1 {
                vec![1, fixed]
            } else {
                vec![fixed]
            }
        } else {
            let mut last = max_depth;
            if let Some(d) = go.depth {
                if d > max_depth {
                    notes.push(format!(
                        "depth {d} is beyond this engine's maximum: searching to depth {max_depth}"
                    ));
                }
                last = d.clamp(1, max_depth);
            }
            if let Some(m) = go.mate {
                last = last.min((2 * m.max(1) - 1).min(255) as u8).max(1);
            }
            (1..=last).collect()
        };
        let wait_for_stop = go.infinite || go.ponder;
        let plan = Plan {
            depths,
            budget,
            nodes: go.nodes,
            wait_for_stop,
            book: settings.book && !wait_for_stop,
        };
        (plan, notes)
    }
}

/// Where the answers go: shared by the reader and the search thread, one line at a time.
struct AnswerWriter<W: Write>(Arc<Mutex<W>>);

impl<W: Write> Clone for AnswerWriter<W> {
    fn clone(&self) -> Self {
        AnswerWriter(self.0.clone())
    }
}

impl<W: Write> AnswerWriter<W> {
    fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // A GUI that has gone away is not our problem: there is nobody left to tell.
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }

    fn info(&self, text: &str) {
        for l in text.lines() {
            self.line(&format!("info string {l}"));
        }
    }
}

/// The engine the searches run on.
struct Loaded {
    engine: Box<dyn Engine + Send>,
}

/// A `go` being carried out on the worker thread.
struct Running {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<Option<Loaded>>,
    /// go infinite / go ponder: answers only after `stop`.
    waits_for_stop: bool,
    /// Set by the search thread just before it writes `bestmove`: from then on the session
    /// takes new searches (joining the thread is then a matter of microseconds).
    answered: Arc<AtomicBool>,
}

/// A UCI session.
pub struct Uci<W: Write + Send + 'static> {
    out: AnswerWriter<W>,
    factory: EngineFactory,
    settings: Settings,
    engine: Option<Loaded>,
    position: Chess,
    running: Option<Running>,
}

impl<W: Write + Send + 'static> Uci<W> {
    pub fn new(factory: EngineFactory, out: W, settings: Settings) -> Self {
        Uci {
            out: AnswerWriter(Arc::new(Mutex::new(out))),
            factory,
            settings,
            engine: None,
            position: Chess::default(),
            running: None,
        }
    }

    /// The options as they stand.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The position the next `go` searches.
    pub fn position(&self) -> &Chess {
        &self.position
    }

    /// Is a search running (one whose `bestmove` has not been written)?
    pub fn is_searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.answered.load(Ordering::SeqCst))
    }

    /// Read commands until `quit` or the end of the input (see the module documentation).
    pub fn run(&mut self, input: impl BufRead) -> io::Result<()> {
        for line in input.lines() {
            let line = match line {
                Ok(l) => l,
                // Not UTF-8: say so and go on.
                Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                    self.out.info("ignored a line that is not UTF-8");
                    continue;
                }
                Err(e) => return Err(e),
            };
            if !self.handle_line(&line) {
                return Ok(());
            }
        }
        self.finish();
        Ok(())
    }

    /// At the end of the input: stop a search that waits for `stop`, let any other finish.
    pub fn finish(&mut self) {
        if let Some(r) = &self.running {
            if self.is_searching() && self.waits_for_stop() {
                r.stop.store(true, Ordering::Relaxed);
                r.handle.thread().unpark();
            }
        }
        self.wait();
    }

    fn waits_for_stop(&self) -> bool {
        self.running.as_ref().is_some_and(|r| r.waits_for_stop)
    }

    /// Wait for the running search to end by itself and take the engine back.
    pub fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            self.engine = r.handle.join().unwrap_or(None);
        }
    }

    /// Stop the running search (its `bestmove` is printed) and take the engine back.
    pub fn stop(&mut self) {
        if let Some(r) = &self.running {
            r.stop.store(true, Ordering::Relaxed);
            r.handle.thread().unpark();
        }
        self.wait();
    }

    /// Handle one line of input; `false` after `quit`.
    pub fn handle_line(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return true;
        };
        // Collect a search that has answered.
        if self.running.is_some() && !self.is_searching() {
            self.wait();
        }
        match command {
            "uci" => self.uci(),
            "isready" => {
                if !self.is_searching() {
                    self.ensure_engine();
                }
                self.out.line("readyok");
            }
            "ucinewgame" => {
                self.stop();
                self.position = Chess::default();
            }
            "position" => self.set_position(args),
            "go" => self.go(args),
            "stop" => self.stop(),
            // We offer no pondering; a ponderhit means "play now".
            "ponderhit" => self.stop(),
            "setoption" => self.set_option(args),
            "quit" => {
                self.stop();
                return false;
            }
            "debug" | "register" => {}
            _ => self.out.info(&format!(
                "unknown command `{}`; Sargon understands uci, isready, ucinewgame, position, \
                 go, stop, setoption and quit",
                truncate(line.trim(), 60)
            )),
        }
        true
    }

    fn uci(&mut self) {
        let kind = match self.settings.engine {
            EngineKind::Port => "native port",
            EngineKind::Emulator => "original Z80 code, emulated",
        };
        let out = &self.out;
        out.line(&format!(
            "id name Sargon 1978 ({kind}, sargon {})",
            env!("CARGO_PKG_VERSION")
        ));
        out.line("id author Dan and Kathe Spracklen (engine); sargon project (Rust)");
        out.line(&format!(
            "option name Engine type combo default {} var port var emulator",
            self.settings.engine
        ));
        out.line(&format!(
            "option name FixedDepth type spin default {} min 0 max {}",
            self.settings.fixed_depth,
            self.settings.engine.max_depth()
        ));
        out.line(&format!(
            "option name Book type check default {}",
            self.settings.book
        ));
        out.line("uciok");
    }

    fn set_option(&mut self, args: &[&str]) {
        // setoption name <id...> [value <x...>]
        let text = args.join(" ");
        let Some(rest) = text.strip_prefix("name ") else {
            self.out
                .info("setoption: expected `setoption name <id> [value <x>]`");
            return;
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.trim(), ""),
        };
        if self.is_searching() {
            self.out.info(&format!(
                "setoption {name}: ignored while searching (send stop first)"
            ));
            return;
        }
        match name.to_ascii_lowercase().as_str() {
            "engine" => match value.parse::<EngineKind>() {
                Ok(kind) => self.settings.engine = kind,
                Err(e) => self.out.info(&format!("setoption Engine: {e}")),
            },
            "fixeddepth" => match value.parse::<u8>() {
                Ok(d) => {
                    let max = self.settings.engine.max_depth();
                    if d > max {
                        self.out.info(&format!(
                            "setoption FixedDepth: {d} is beyond the {} engine's maximum, using {max}",
                            self.settings.engine
                        ));
                    }
                    self.settings.fixed_depth = d.min(max);
                }
                Err(_) => self.out.info(&format!(
                    "setoption FixedDepth: `{value}` is not a number 0-255"
                )),
            },
            "book" => match value.to_ascii_lowercase().as_str() {
                "true" => self.settings.book = true,
                "false" => self.settings.book = false,
                _ => self.out.info(&format!(
                    "setoption Book: expected true or false, got `{value}`"
                )),
            },
            _ => self.out.info(&format!(
                "setoption: no option `{name}` (Sargon has Engine, FixedDepth and Book)"
            )),
        }
    }

    fn set_position(&mut self, args: &[&str]) {
        match parse_position_command(args) {
            Ok(pos) => self.position = pos,
            Err(PositionCommandError::Invalid(why)) => {
                self.out.info(&format!("position ignored: {why}"))
            }
            Err(PositionCommandError::IllegalMove {
                uci,
                index,
                reached,
            }) => {
                self.out.info(&format!(
                    "position: move {} `{uci}` is illegal in {}; the position before it is kept",
                    index + 1,
                    position::fen_of(&reached)
                ));
                self.position = *reached;
            }
        }
    }

    /// Build the engine the options ask for, if it is not there yet.
    fn ensure_engine(&mut self) {
        let kind = self.settings.engine;
        if self
            .engine
            .as_ref()
            .is_some_and(|l| l.engine.kind() == kind)
        {
            return;
        }
        self.engine = None;
        match (self.factory)(kind) {
            Ok(engine) => {
                if let Some(rom) = engine.rom_id() {
                    self.out
                        .info(&format!("{kind} engine running the ROM `{}`", rom.name));
                    if let Some(note) = rom.unverified_note() {
                        self.out.info(&note);
                    }
                }
                self.engine = Some(Loaded { engine });
            }
            Err(e) => self
                .out
                .info(&format!("cannot start the {kind} engine: {e:#}")),
        }
    }

    fn go(&mut self, args: &[&str]) {
        if self.is_searching() {
            self.out
                .info("go ignored: already searching (send stop first)");
            return;
        }
        self.wait();
        let started = Instant::now();
        let (params, problems) = GoParams::parse(args);
        for p in problems {
            self.out.info(&p);
        }
        self.ensure_engine();
        let loaded = self.engine.take();
        let max_depth = loaded
            .as_ref()
            .map_or(self.settings.engine.max_depth(), |l| l.engine.max_depth());
        let (plan, notes) = Plan::new(&params, &self.settings, self.position.turn(), max_depth);
        for n in notes {
            self.out.info(&n);
        }
        let job = Job {
            position: self.position.clone(),
            plan,
            book_random: self.settings.book_random,
            started,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let out = self.out.clone();
        let worker_stop = stop.clone();
        let waits_for_stop = job.plan.wait_for_stop;
        let answered = Arc::new(AtomicBool::new(false));
        let worker_answered = answered.clone();
        let spawned = thread::Builder::new()
            .name("sargon-search".to_string())
            .spawn(move || search_thread(loaded, job, worker_stop, worker_answered, out));
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    stop,
                    handle,
                    waits_for_stop,
                    answered,
                })
            }
            Err(e) => {
                self.out.info(&format!("cannot start a search thread: {e}"));
                self.out
                    .line(&bestmove_line(&fallback(&self.position), None));
            }
        }
    }
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}...", s.chars().take(n).collect::<String>())
    }
}

/// Why a `position` command was not taken as it is.
#[derive(Debug, PartialEq, Eq)]
pub enum PositionCommandError {
    /// Nothing usable: the previous position stays.
    Invalid(String),
    /// Move `index` of the list is illegal; `reached` is the position before it.
    IllegalMove {
        uci: String,
        index: usize,
        reached: Box<Chess>,
    },
}

/// Parse the words after `position`: `startpos` or `fen <FEN>`, then `moves ...`.
pub fn parse_position_command(args: &[&str]) -> Result<Chess, PositionCommandError> {
    let invalid = |s: String| PositionCommandError::Invalid(s);
    let moves_at = args.iter().position(|&w| w == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let mut pos = match head.split_first() {
        Some((&"startpos", [])) => Chess::default(),
        Some((&"fen", fen)) if !fen.is_empty() => {
            position::parse_position(&fen.join(" ")).map_err(|e| invalid(e.to_string()))?
        }
        _ => {
            return Err(invalid(
                "expected `position startpos [moves ...]` or `position fen <FEN> [moves ...]`"
                    .to_string(),
            ))
        }
    };
    for (index, &text) in moves.iter().enumerate() {
        let mv = text
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&pos).ok());
        match mv {
            Some(m) => pos.play_unchecked(m),
            None => {
                return Err(PositionCommandError::IllegalMove {
                    uci: text.to_string(),
                    index,
                    reached: Box::new(pos),
                })
            }
        }
    }
    Ok(pos)
}

/// Everything the search thread needs.
struct Job {
    position: Chess,
    plan: Plan,
    book_random: u8,
    started: Instant,
}

/// One completed depth.
#[derive(Clone, Debug)]
pub struct DepthResult {
    pub depth: u8,
    pub best: Move,
    /// Legal from the position; starts with `best`.
    pub pv: Vec<Move>,
    /// Centipawns for the side to move.
    pub score_cp: i32,
    /// Moves to mate (negative: the side to move is mated), from a PV ending in mate.
    pub mate: Option<i32>,
    pub from_book: bool,
}

/// Search one depth; the positions evaluated are added to `nodes` even when it fails.
/// With `node_limit`, `stop` is set once `nodes` reaches it.
pub fn search_depth(
    engine: &mut dyn Engine,
    setup: &Setup,
    opts: &SearchOptions,
    nodes: &mut u64,
    node_limit: Option<u64>,
) -> Result<DepthResult, SearchError> {
    let pos = &setup.position;
    let stop = opts.stop.clone();
    let counted = &mut *nodes;
    let mut counter = FnHook::new(&[HookPoint::PointsEnd], move |_| {
        *counted += 1;
        if let (Some(limit), Some(stop)) = (node_limit, &stop) {
            if *counted >= limit {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    let recorded = record::search(engine, setup, opts, Detail::BestOnly, &mut [&mut counter])?;
    let outcome = &recorded.outcome;
    let best_s = outcome.best.ok_or(SearchError::Stopped)?;
    let Some(best) = best_s.to_chess(pos) else {
        return Err(SearchError::ReplayRefused {
            uci: format!("{} (Sargon's choice, illegal here)", best_s.uci()),
        });
    };
    let mut pv = recorded.pv(pos).moves;
    if pv.first() != Some(&best) {
        pv = vec![best];
    }
    Ok(DepthResult {
        depth: opts.depth,
        best,
        mate: mate_of(pos, &pv),
        pv,
        score_cp: outcome.score_for_mover().centipawns(),
        from_book: outcome.from_book,
    })
}

/// `Some(n)` when `pv` ends in checkmate: n moves for the side to move to mate, or -n
/// when it is the side to move that is mated.
pub fn mate_of(pos: &Chess, pv: &[Move]) -> Option<i32> {
    let mut p = pos.clone();
    for m in pv {
        p.play_unchecked(*m);
    }
    if !p.is_checkmate() || pv.is_empty() {
        return None;
    }
    let n = pv.len() as i32;
    Some(if n % 2 == 1 { (n + 1) / 2 } else { -(n / 2) })
}

fn uci_of(m: &Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

/// The `info` line of a completed depth.
pub fn info_line(r: &DepthResult, nodes: u64, elapsed: Duration) -> String {
    let ms = elapsed.as_millis() as u64;
    let nps = nodes * 1000 / ms.max(1);
    let score = match r.mate {
        Some(n) => format!("mate {n}"),
        None => format!("cp {}", r.score_cp),
    };
    let pv: Vec<String> = r.pv.iter().map(uci_of).collect();
    format!(
        "info depth {} score {score} nodes {nodes} nps {nps} time {ms} pv {}",
        r.depth,
        pv.join(" ")
    )
}

/// The first legal move (or none): what is played when no depth completed.
fn fallback(pos: &Chess) -> Option<Move> {
    pos.legal_moves().first().copied()
}

fn bestmove_line(best: &Option<Move>, ponder: Option<&Move>) -> String {
    match (best, ponder) {
        (Some(b), Some(p)) => format!("bestmove {} ponder {}", uci_of(b), uci_of(p)),
        (Some(b), None) => format!("bestmove {}", uci_of(b)),
        (None, _) => "bestmove 0000".to_string(),
    }
}

/// The search thread: iterate, report, answer `bestmove`, hand the engine back.
fn search_thread<W: Write>(
    mut loaded: Option<Loaded>,
    job: Job,
    stop: Arc<AtomicBool>,
    answered: Arc<AtomicBool>,
    out: AnswerWriter<W>,
) -> Option<Loaded> {
    // A watchdog sets the stop flag at the hard time limit.
    let finished = Arc::new(AtomicBool::new(false));
    let watchdog = job.plan.budget.map(|b| {
        let (finished, stop) = (finished.clone(), stop.clone());
        let deadline = job.started + b.hard;
        thread::spawn(move || loop {
            if finished.load(Ordering::Relaxed) {
                return;
            }
            let now = Instant::now();
            if now >= deadline {
                stop.store(true, Ordering::Relaxed);
                return;
            }
            thread::park_timeout(deadline - now);
        })
    });

    let last = if job.position.legal_moves().is_empty() {
        out.info("no legal move: checkmate or stalemate");
        None
    } else if let Some(l) = loaded.as_mut() {
        let result = panic::catch_unwind(AssertUnwindSafe(|| iterate(l, &job, &stop, &out)));
        match result {
            Ok(last) => last,
            Err(_) => {
                out.info("the engine failed during the search; it will be restarted");
                loaded = None;
                None
            }
        }
    } else {
        out.info("no engine to search with (see the message above)");
        None
    };

    finished.store(true, Ordering::Relaxed);
    if let Some(w) = watchdog {
        w.thread().unpark();
        let _ = w.join();
    }
    if job.plan.wait_for_stop {
        while !stop.load(Ordering::Relaxed) {
            thread::park_timeout(Duration::from_millis(50));
        }
    }
    let line = match &last {
        Some(r) => bestmove_line(&Some(r.best), r.pv.get(1)),
        None => {
            let fb = fallback(&job.position);
            if let Some(m) = &fb {
                out.info(&format!(
                    "no search depth completed: playing the first legal move {}",
                    uci_of(m)
                ));
            }
            bestmove_line(&fb, None)
        }
    };
    answered.store(true, Ordering::SeqCst);
    out.line(&line);
    loaded
}

/// Search depth after depth; the last completed one.
fn iterate<W: Write>(
    loaded: &mut Loaded,
    job: &Job,
    stop: &Arc<AtomicBool>,
    out: &AnswerWriter<W>,
) -> Option<DepthResult> {
    let setup = match position::setup(&job.position, job.plan.book) {
        Ok(s) => s,
        Err(e) => {
            out.info(&format!("cannot set up the position: {e}"));
            return None;
        }
    };
    let mut last: Option<DepthResult> = None;
    let mut nodes = 0u64;
    // Time of the last two completed depths, for the prediction.
    let mut times: Vec<Duration> = Vec::new();
    for (i, &depth) in job.plan.depths.iter().enumerate() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let elapsed = job.started.elapsed();
        if let (Some(budget), Some(&t)) = (job.plan.budget, times.last()) {
            let growth = match times.len() {
                n if n >= 2 && times[n - 2] >= Duration::from_millis(2) => {
                    (t.as_secs_f64() / times[n - 2].as_secs_f64()).clamp(2.0, 12.0)
                }
                _ => DEFAULT_GROWTH,
            };
            let steps = depth.saturating_sub(job.plan.depths[i - 1]).max(1) as i32;
            let predicted = t.mul_f64(growth.powi(steps).min(1e6));
            if !budget.allows(elapsed, predicted) {
                break;
            }
        }
        let opts = SearchOptions {
            depth,
            book_random: job.book_random,
            stop: Some(stop.clone()),
            ..Default::default()
        };
        let t0 = Instant::now();
        match search_depth(
            loaded.engine.as_mut(),
            &setup,
            &opts,
            &mut nodes,
            job.plan.nodes,
        ) {
            Ok(r) => {
                times.push(t0.elapsed());
                if r.from_book {
                    out.info(&format!(
                        "book move {} (Sargon's opening book)",
                        uci_of(&r.best)
                    ));
                    last = Some(r);
                    break;
                }
                out.line(&info_line(&r, nodes, job.started.elapsed()));
                let mate = r.mate.is_some_and(|n| n > 0);
                last = Some(r);
                if mate {
                    break;
                }
            }
            Err(SearchError::Stopped) => break,
            Err(e) => {
                out.info(&format!("search at depth {depth} failed: {e}"));
                break;
            }
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_words() {
        let (go, problems) = GoParams::parse(&[
            "wtime",
            "1000",
            "btime",
            "-5",
            "winc",
            "10",
            "movestogo",
            "3",
            "depth",
            "4",
        ]);
        assert!(problems.is_empty());
        assert_eq!(go.wtime, Some(Duration::from_millis(1000)));
        assert_eq!(go.btime, Some(Duration::ZERO));
        assert_eq!(go.winc, Some(Duration::from_millis(10)));
        assert_eq!(go.movestogo, Some(3));
        assert_eq!(go.depth, Some(4));
        let (go, problems) = GoParams::parse(&["infinite", "banana", "depth", "x"]);
        assert!(go.infinite);
        assert_eq!(problems.len(), 2, "{problems:?}");
    }

    #[test]
    fn clock_budget_keeps_time_in_hand() {
        let s = Duration::from_secs;
        for (time, inc, mtg) in [
            (s(300), s(0), None),
            (s(1), s(0), None),
            (Duration::from_millis(60), s(0), Some(1)),
            (Duration::from_millis(10), s(2), None),
            (s(10), s(5), Some(1)),
        ] {
            let b = TimeBudget::from_clock(time, inc, mtg);
            assert!(b.soft <= b.hard.max(Duration::from_millis(1)));
            let usable = time.saturating_sub(MOVE_OVERHEAD);
            assert!(
                b.hard <= (usable * 3 / 4).max(Duration::from_millis(1)),
                "{time:?} {inc:?}: {b:?}"
            );
        }
        let b = TimeBudget::from_clock(s(300), s(0), None);
        assert!(b.soft > s(10) && b.soft < s(13), "{b:?}");
    }

    #[test]
    fn prediction_blocks_a_depth_that_would_not_finish() {
        let b = TimeBudget::from_movetime(Duration::from_millis(1050));
        assert!(b.allows(Duration::from_millis(100), Duration::from_millis(800)));
        assert!(!b.allows(Duration::from_millis(300), Duration::from_millis(800)));
    }

    #[test]
    fn plans() {
        let settings = Settings::default();
        let (go, _) = GoParams::parse(&["depth", "3"]);
        let (p, _) = Plan::new(&go, &settings, Color::White, 6);
        assert_eq!(p.depths, vec![1, 2, 3]);
        let (go, _) = GoParams::parse(&["depth", "30"]);
        let (p, notes) = Plan::new(&go, &settings, Color::White, 6);
        assert_eq!(p.depths.len(), 6);
        assert_eq!(notes.len(), 1);
        let fixed = Settings {
            fixed_depth: 4,
            ..Settings::default()
        };
        let (go, _) = GoParams::parse(&["wtime", "1000", "btime", "1000"]);
        let (p, _) = Plan::new(&go, &fixed, Color::Black, 6);
        assert_eq!(p.depths, vec![1, 4]);
        let (go, _) = GoParams::parse(&["infinite"]);
        let (p, _) = Plan::new(&go, &settings, Color::Black, 6);
        assert!(p.wait_for_stop && !p.book && p.budget.is_none());
        let (go, _) = GoParams::parse(&["mate", "2"]);
        let (p, _) = Plan::new(&go, &settings, Color::Black, 20);
        assert_eq!(p.depths, vec![1, 2, 3]);
    }

    #[test]
    fn position_commands() {
        let pos = parse_position_command(&["startpos", "moves", "e2e4", "e7e5", "g1f3"]).unwrap();
        assert_eq!(pos.fullmoves().get(), 2);
        assert_eq!(pos.turn(), Color::Black);
        let err = parse_position_command(&["startpos", "moves", "e2e4", "e2e4"]).unwrap_err();
        match err {
            PositionCommandError::IllegalMove { index, reached, .. } => {
                assert_eq!(index, 1);
                assert_eq!(reached.turn(), Color::Black);
            }
            e => panic!("{e:?}"),
        }
        let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
            .split(' ')
            .collect::<Vec<_>>();
        let mut args = vec!["fen"];
        args.extend(fen);
        args.extend(["moves", "e1g1"]);
        let pos = parse_position_command(&args).unwrap();
        assert_eq!(position::fen_of(&pos), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
        assert!(matches!(
            parse_position_command(&["fen", "nonsense"]),
            Err(PositionCommandError::Invalid(_))
        ));
        assert!(matches!(
            parse_position_command(&["sideways"]),
            Err(PositionCommandError::Invalid(_))
        ));
    }

    #[test]
    fn mate_from_the_pv() {
        let pos = position::parse_position("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        let m: UciMove = "a1a8".parse().unwrap();
        let mv = m.to_move(&pos).unwrap();
        assert_eq!(mate_of(&pos, &[mv]), Some(1));
        assert_eq!(mate_of(&pos, &[]), None);
    }
}
