//! The UCI session: reads commands, keeps the options and the position, starts and
//! stops searches.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position, Role};

use sargon_core::engine::Memory;
use sargon_core::engine::{Engine, SearchOptions};
use sargon_core::game::{DepthRule, GameDepth};

use sargon_core::input::echo;
use sargon_core::position;
use sargon_engines::engines::{EngineSpec, OpenError};

use super::shared::{AnswerWriter, Loaded};
use super::worker::{search_thread, GuiSignals, Job, StopFlags};
use super::{
    parse_position_command, EngineFactory, GoParams, Plan, PositionCommandError, Settings,
    MAX_MULTIPV,
};

/// How long a bounded search may go on after the input has ended.
pub const EOF_GRACE: Duration = Duration::from_millis(500);

/// A `go` being carried out on the worker thread.
struct Running {
    flags: StopFlags,
    handle: JoinHandle<Option<Loaded>>,
    /// go infinite / go ponder: answers only after `stop`.
    waits_for_stop: bool,
    /// Set by the search thread just before it writes `bestmove`: from then on the session
    /// takes new searches (joining the thread is then a matter of microseconds).
    answered: Arc<AtomicBool>,
    /// What the GUI says during the search: `stop`, `ponderhit`.
    signals: Arc<GuiSignals>,
    /// The position whose search carries the side's memory and depth (`CarryDepth`): what
    /// the engine leaves is kept for that side's next search.
    carried_for: Option<Chess>,
}

/// A UCI session.
pub struct Uci<W: Write + Send + 'static> {
    out: AnswerWriter<W>,
    factory: EngineFactory,
    settings: Settings,
    engine: Option<Loaded>,
    /// Why the chosen engine cannot run (the last attempt failed): every `go` then answers
    /// `bestmove 0000`, as a move of another engine is not what the GUI asked for. The
    /// reason is told once; the same engine is not tried again until `setoption Engine`.
    engine_problem: Option<(EngineSpec, String)>,
    position: Chess,
    /// Why the last `position` command was refused: until a valid one arrives every `go`
    /// answers `bestmove 0000`, as any move would be a move in a position nobody set.
    position_problem: Option<String>,
    running: Option<Running>,
    /// Each side's depth in the game, from what its last search left ([`Settings::carry_depth`]).
    game: GameDepth,
    /// The engine was opened before the session began ([`Uci::open_engine`]) and the GUI
    /// has not been told yet which ROM it runs, nor that the ROM is not verified.
    untold: bool,
}

/// The longest input line read whole: no UCI command comes near it (a `position` with 500
/// moves is about 2,500 bytes), and a GUI or a pipe gone wrong must not make the engine
/// hold a gigabyte. A longer line is refused whole ([`Uci::refuse_line`]): its first part
/// is a command nobody sent (a `position` cut at a move boundary is a shorter game).
const MAX_LINE: usize = 64 * 1024;

/// Read one line (its end included) into `buf`, at most `cap` bytes of it: the rest of a
/// longer line is read and dropped. `None` at the end of the input; else whether the line
/// was cut.
fn read_capped_line(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<bool>> {
    buf.clear();
    let mut cut = false;
    let mut any = false;
    loop {
        let available = input.fill_buf()?;
        if available.is_empty() {
            return Ok(any.then_some(cut));
        }
        any = true;
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..=i], true),
            None => (available, false),
        };
        let room = cap.saturating_sub(buf.len());
        if chunk.len() > room {
            cut = true;
        }
        buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = chunk.len();
        input.consume(used);
        if done {
            return Ok(Some(cut));
        }
    }
}

/// Why the engine the options ask for could not be opened ([`Uci::open_engine`], and
/// `setoption name Engine`, which tells the GUI this in an `info string`). The cause is in
/// the message and not also a `source()`, so that an error line says it once.
#[derive(Debug, thiserror::Error)]
#[error("cannot start the {engine} engine: {cause}")]
pub struct StartError {
    /// The engine asked for.
    pub engine: EngineSpec,
    /// Why it did not open (boxed: an error is passed around more often than it happens).
    pub cause: Box<OpenError>,
}

impl<W: Write + Send + 'static> Uci<W> {
    /// A UCI session making engines with `factory` and writing to `out`.
    pub fn new(factory: EngineFactory, out: W, settings: Settings) -> Self {
        Uci {
            out: AnswerWriter::new(out),
            factory,
            game: GameDepth::new(DepthRule::Carried),
            settings,
            engine: None,
            engine_problem: None,
            position: Chess::default(),
            position_problem: None,
            running: None,
            untold: false,
        }
    }

    /// The position the next `go` searches (the last valid one set).
    pub fn position(&self) -> &Chess {
        &self.position
    }

    /// Why the last `position` command was refused, if it was: `go` then plays nothing.
    pub fn position_problem(&self) -> Option<&str> {
        self.position_problem.as_deref()
    }

    /// Open the engine the options ask for now, so that a caller can refuse to start
    /// (before `uciok`) with an engine that cannot run.
    pub fn open_engine(&mut self) -> Result<(), StartError> {
        let kind = self.settings.engine.clone();
        let engine = (self.factory)(&kind).map_err(|cause| StartError {
            engine: kind.clone(),
            cause: Box::new(cause),
        })?;
        self.engine = Some(Loaded { engine });
        self.engine_problem = None;
        self.untold = true;
        Ok(())
    }

    /// The note for a loaded engine whose ROM is not verified.
    fn unverified_note(&self) -> Option<String> {
        self.engine
            .as_ref()
            .and_then(|l| l.engine.rom_id())
            .and_then(|rom| rom.unverified_note())
    }

    /// Tell the GUI which ROM `engine` runs, and that it is not verified if it is not.
    fn tell_rom(&self, engine: &dyn Engine) {
        if let Some(rom) = engine.rom_id() {
            // `emulator on z80emu engine` would read badly: the core comes after `engine`.
            let on_core = engine
                .core()
                .map(|core| format!(" on {core}"))
                .unwrap_or_default();
            self.out.info(&format!(
                "{} engine{on_core} running the ROM `{}`",
                engine.id(),
                rom.name
            ));
            if let Some(note) = rom.unverified_note() {
                self.out.info(&note);
            }
        }
    }

    /// Is a search running (one whose `bestmove` has not been written)?
    pub fn is_searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.answered.load(Ordering::SeqCst))
    }

    /// Read commands until `quit` or the end of the input (see the module documentation).
    pub fn run(&mut self, mut input: impl BufRead) -> io::Result<()> {
        let mut bytes = Vec::new();
        while let Some(cut) = read_capped_line(&mut input, &mut bytes, MAX_LINE)? {
            let why = if cut {
                format!("its line is longer than {} KB", MAX_LINE / 1024)
            } else if std::str::from_utf8(&bytes).is_err() {
                "its line is not UTF-8".to_string()
            } else {
                let line = String::from_utf8_lossy(&bytes);
                if !self.handle_line(line.trim_end_matches(['\n', '\r'])) {
                    return Ok(());
                }
                continue;
            };
            self.refuse_line(&String::from_utf8_lossy(&bytes), &why);
        }
        self.finish();
        Ok(())
    }

    /// At the end of the input: the GUI has gone. A search bounded by depth, time or
    /// nodes gets [`EOF_GRACE`] to finish (so a script piped in gets its `bestmove`), then
    /// it is stopped, as is a search that waits for `stop`: the process never outlives
    /// its input by more than about that long.
    pub fn finish(&mut self) {
        let t0 = Instant::now();
        while self.is_searching() && !self.waits_for_stop() && t0.elapsed() < EOF_GRACE {
            thread::sleep(Duration::from_millis(5));
        }
        self.stop();
    }

    fn waits_for_stop(&self) -> bool {
        self.running.as_ref().is_some_and(|r| r.waits_for_stop)
    }

    /// Wait for the running search to end by itself and take the engine back.
    pub fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            self.engine = r.handle.join().unwrap_or(None);
            if let (Some(pos), Some(loaded)) = (&r.carried_for, &self.engine) {
                self.game.searched(pos, loaded.engine.as_ref());
            }
        }
    }

    /// Stop the running search once depth 1 has completed (its `bestmove` is printed:
    /// a searched move) and take the engine back.
    pub(crate) fn stop(&mut self) {
        if let Some(r) = &self.running {
            r.signals.stop();
            r.flags.stop_soon();
            r.handle.thread().unpark();
        }
        self.wait();
    }

    /// `quit`: end the running search at once, depth 1 too (the GUI wants no answer; a
    /// search cut before depth 1 answers `bestmove 0000`), and take the engine back.
    fn quit(&mut self) {
        if let Some(r) = &self.running {
            r.signals.quit();
            r.flags.stop_now();
            r.handle.thread().unpark();
        }
        self.wait();
    }

    /// A line that cannot be read as sent (cut at [`MAX_LINE`], or not UTF-8) is not
    /// carried out, in part or otherwise: what it would have set is refused as a whole.
    /// A `position` is refused as an invalid one is (every `go` answers `bestmove 0000`
    /// until a valid one), and a `go` gets its `bestmove 0000` (the GUI waits for one).
    fn refuse_line(&mut self, line: &str, why: &str) {
        let command = line.split_whitespace().next().unwrap_or("");
        if self.running.is_some() && !self.is_searching() {
            self.wait();
        }
        match command {
            "position" => self.refuse_position(why.to_string()),
            "go" if !self.is_searching() => {
                self.refuse_go(&format!("go refused: {why}; no search"))
            }
            "" => self.out.info(&format!("ignored a line: {why}")),
            _ => self
                .out
                .info(&format!("ignored a `{}` line: {why}", echo(command))),
        }
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
                self.game.new_game();
                self.position = Chess::default();
                self.position_problem = None;
            }
            "position" => self.set_position(args),
            "go" => self.go(args),
            "stop" => self.stop(),
            "ponderhit" => self.ponderhit(),
            "setoption" => self.set_option(args),
            "quit" => {
                self.quit();
                return false;
            }
            "debug" | "register" => {}
            _ => self.out.info(&format!(
                "unknown command `{}`; Sargon understands uci, isready, ucinewgame, position, \
                 go, stop, ponderhit, setoption and quit",
                echo(line.trim())
            )),
        }
        true
    }

    fn uci(&mut self) {
        let kind = match &self.settings.engine {
            EngineSpec::Port => "native port".to_string(),
            EngineSpec::Emulator { .. } => "original Z80 code, emulated".to_string(),
            other => format!("another program: {other}"),
        };
        // A GUI shows the name and discards stderr: an unverified ROM is named here.
        let unverified = if self.unverified_note().is_some() {
            " (NOT VERIFIED)"
        } else {
            ""
        };
        let out = &self.out;
        out.line(&format!(
            "id name Sargon 1978 ({kind}, sargon {}){unverified}",
            env!("CARGO_PKG_VERSION")
        ));
        out.line("id author Dan and Kathe Spracklen (engine); sargon project (Rust)");
        // A combo's default must be one of its values: another program is one more.
        let other = match &self.settings.engine {
            spec if spec.is_external() => format!(" var {spec}"),
            _ => String::new(),
        };
        out.line(&format!(
            "option name Engine type combo default {} var port var emulator{other}",
            self.settings.engine
        ));
        out.line(&format!(
            "option name FixedDepth type spin default {} min 0 max {}",
            self.settings.fixed_depth,
            self.settings.engine.max_depth()
        ));
        out.line(&format!(
            "option name OwnBook type check default {}",
            self.settings.book
        ));
        out.line(&format!(
            "option name CarryDepth type check default {}",
            self.settings.carry_depth
        ));
        out.line(&format!(
            "option name MultiPV type spin default {} min 1 max {MAX_MULTIPV}",
            self.settings.multipv
        ));
        out.line(&format!(
            "option name UCI_AnalyseMode type check default {}",
            self.settings.analyse_mode
        ));
        out.line(&format!(
            "option name Ponder type check default {}",
            self.settings.ponder
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
        let (name, value) = (echo(name), echo(value));
        if self.is_searching() {
            self.out.info(&format!(
                "setoption {name}: ignored while searching (send stop first)"
            ));
            return;
        }
        let check = |value: &str| match value.to_ascii_lowercase().as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!(
                "setoption {name}: expected true or false, got `{value}`"
            )),
        };
        let result: Result<(), String> = match name.to_ascii_lowercase().as_str() {
            "engine" => match value.parse::<EngineSpec>() {
                // A GUI chooses among the combo's values; a program to run is chosen by
                // whoever starts `sargon uci`, never by a GUI's option.
                Ok(kind) if kind.is_external() && kind != self.settings.engine => Err(format!(
                    "setoption Engine: `{}` is another program, which only `sargon uci \
                     --engine` starts; choose port or emulator",
                    echo(&value)
                )),
                Ok(kind) => {
                    // The factory gives the emulator the ROM and core the session was
                    // started with.
                    self.settings.engine = kind;
                    // Asked for again: try again, and tell the reason again if it fails.
                    self.engine_problem = None;
                    self.ensure_engine();
                    match &self.engine_problem {
                        Some(_) => Err(format!(
                            "setoption Engine {} refused (see above): every go answers \
                             bestmove 0000 until a working engine is chosen",
                            self.settings.engine
                        )),
                        None => Ok(()),
                    }
                }
                Err(e) => Err(format!("setoption Engine: {e}")),
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
                    // A new level is the original's INTERR again: the depth starts afresh.
                    self.game = GameDepth::new(DepthRule::Carried);
                    Ok(())
                }
                // The range the `option` line advertised (min 0 max the engine's deepest),
                // not the u8 the value is parsed into, and what stays in force.
                Err(_) => Err(format!(
                    "setoption FixedDepth: `{value}` is not a whole number from 0 (the clock \
                     decides) to {} (the {} engine's deepest); kept {}",
                    self.settings.engine.max_depth(),
                    self.settings.engine,
                    self.settings.fixed_depth
                )),
            },
            // `Book` was this option's name before the UCI convention was followed.
            "ownbook" | "book" => check(&value).map(|b| self.settings.book = b),
            "uci_analysemode" => check(&value).map(|b| self.settings.analyse_mode = b),
            "carrydepth" => check(&value).map(|b| {
                self.settings.carry_depth = b;
                self.game.new_game();
            }),
            "ponder" => check(&value).map(|b| self.settings.ponder = b),
            "multipv" => match value.parse::<u8>() {
                Ok(n) if (1..=MAX_MULTIPV).contains(&n) => {
                    self.settings.multipv = n;
                    Ok(())
                }
                _ => Err(format!(
                    "setoption MultiPV: `{value}` is not a number 1-{MAX_MULTIPV}; kept {}",
                    self.settings.multipv
                )),
            },
            _ => Err(format!(
                "setoption: no option `{name}` (Sargon has Engine, FixedDepth, OwnBook, \
                 MultiPV, UCI_AnalyseMode and Ponder)"
            )),
        };
        if let Err(why) = result {
            self.out.info(&why);
        }
    }

    fn set_position(&mut self, args: &[&str]) {
        let problem = match parse_position_command(args) {
            Ok(pos) => {
                self.position = pos;
                self.position_problem = None;
                return;
            }
            Err(PositionCommandError::Invalid(why)) => why,
            Err(PositionCommandError::IllegalMove {
                uci,
                index,
                reached,
            }) => format!(
                "move {} `{}` is illegal in {}",
                index + 1,
                echo(&uci),
                position::fen_of(&reached)
            ),
        };
        self.refuse_position(problem);
    }

    /// Refuse a `position` command: until a valid one, every `go` answers `bestmove 0000`.
    fn refuse_position(&mut self, problem: String) {
        self.out.info(&format!(
            "position refused: {problem}; every go answers bestmove 0000 until a valid position"
        ));
        self.position_problem = Some(problem);
    }

    /// Build the engine the options ask for, if it is not there yet; on failure the
    /// reason is kept in `engine_problem` and told to the GUI.
    fn ensure_engine(&mut self) {
        let kind = self.settings.engine.clone();
        if self
            .engine_problem
            .as_ref()
            .is_some_and(|(failed, _)| *failed == kind)
        {
            // The same cause as before, already told: not again at every `go`.
            return;
        }
        if let Some(loaded) = self
            .engine
            .as_ref()
            .filter(|l| l.engine.id() == kind.to_string())
        {
            if self.untold {
                self.tell_rom(loaded.engine.as_ref());
                self.untold = false;
            }
            return;
        }
        self.engine = None;
        self.untold = false;
        match (self.factory)(&kind) {
            Ok(engine) => {
                self.tell_rom(engine.as_ref());
                self.engine = Some(Loaded { engine });
                self.engine_problem = None;
            }
            Err(cause) => {
                let problem = StartError {
                    engine: kind.clone(),
                    cause: Box::new(cause),
                }
                .to_string();
                self.out.info(&problem);
                self.engine_problem = Some((kind, problem));
            }
        }
    }

    /// `ponderhit`: the GUI's opponent played the move pondered on; the search goes on
    /// as a normal one, its clock starting now.
    fn ponderhit(&mut self) {
        match &self.running {
            Some(r) if self.is_searching() && r.signals.pondering() => {
                r.signals.hit();
                r.handle.thread().unpark();
            }
            _ => self.out.info("ponderhit ignored: not pondering"),
        }
    }

    /// The legal moves of `go searchmoves` (empty: all moves); what is not legal here is
    /// named and left out. Sargon promotes only to a queen, so an under-promotion is
    /// searched as the queen's.
    fn searchmoves(&self, given: &[UciMove]) -> Vec<Move> {
        let mut moves = Vec::new();
        for u in given {
            match u.to_move(&self.position) {
                Ok(m) => {
                    let m = match m {
                        Move::Normal {
                            role,
                            from,
                            capture,
                            to,
                            promotion: Some(p),
                        } if p != Role::Queen => {
                            self.out.info(&format!(
                                "go searchmoves {u}: Sargon promotes only to a queen; searching {}q",
                                &u.to_string()[..4]
                            ));
                            Move::Normal {
                                role,
                                from,
                                capture,
                                to,
                                promotion: Some(Role::Queen),
                            }
                        }
                        m => m,
                    };
                    if !moves.contains(&m) {
                        moves.push(m);
                    }
                }
                Err(_) => self
                    .out
                    .info(&format!("go searchmoves {u}: not legal here; ignored")),
            }
        }
        if moves.is_empty() && !given.is_empty() {
            self.out
                .info("go searchmoves: no legal move given; searching all moves");
        }
        moves
    }

    /// Answer a `go` that cannot search with `bestmove 0000` and the reason.
    fn refuse_go(&self, why: &str) {
        self.out.info(why);
        self.out.line("bestmove 0000");
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
        if let Some(why) = &self.position_problem {
            self.refuse_go(&format!(
                "go: no valid position ({why}); send a valid position command"
            ));
            return;
        }
        self.ensure_engine();
        if let Some((kind, _)) = &self.engine_problem {
            self.refuse_go(&format!(
                "go: the {kind} engine cannot start (the reason was given above); choose a \
                 working engine (setoption name Engine value port)"
            ));
            return;
        }
        let searchmoves = self.searchmoves(&params.searchmoves);
        let loaded = self.engine.take();
        let max_depth = loaded
            .as_ref()
            .map_or(self.settings.engine.max_depth(), |l| l.engine.max_depth());
        let turn = self.position.turn();
        // In a game at a FixedDepth the depth is the one the side's last search left.
        let carried_for = self.settings.carries_depth().then(|| self.position.clone());
        let mut planned = self.settings.clone();
        let (mut pmate, mut memory) = (0, Memory::Fresh);
        if carried_for.is_some() {
            let fixed = planned.fixed_depth.min(max_depth);
            let next = self
                .game
                .options(&self.position, &SearchOptions::depth(fixed), max_depth);
            if next.depth != fixed {
                self.out.info(&format!(
                    "depth {} carried from the last search, which found a mate (the \
                     original's PLYMAX; setoption name CarryDepth value false for FixedDepth {fixed})",
                    next.depth
                ));
            }
            (planned.fixed_depth, pmate, memory) = (next.depth, next.pmate, next.memory);
        }
        let (plan, notes) = Plan::new(&params, &planned, turn, max_depth);
        for n in notes {
            self.out.info(&n);
        }
        let signals = Arc::new(GuiSignals::new(plan.ponder));
        let job = Job {
            position: self.position.clone(),
            plan,
            book_random: self.settings.book_random,
            started,
            searchmoves,
            multipv: self.settings.multipv,
            currmove_after: self.settings.currmove_after,
            signals: signals.clone(),
            pmate,
            memory,
        };
        let flags = StopFlags::default();
        let out = self.out.clone();
        let worker_flags = flags.clone();
        let waits_for_stop = job.plan.wait_for_stop;
        let answered = Arc::new(AtomicBool::new(false));
        let worker_answered = answered.clone();
        let spawned = thread::Builder::new()
            .name("sargon-search".to_string())
            .spawn(move || search_thread(loaded, job, worker_flags, worker_answered, out));
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    flags,
                    handle,
                    waits_for_stop,
                    answered,
                    signals,
                    carried_for,
                })
            }
            Err(e) => {
                // The engine went with the closure that was not run: built again at the
                // next `go`. No search, so no move.
                self.refuse_go(&format!("go: cannot start a search thread: {e}"));
            }
        }
    }
}
