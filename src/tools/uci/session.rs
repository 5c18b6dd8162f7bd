//! The UCI session: reads commands, keeps the options and the position, starts and
//! stops searches.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Instant;

use shakmaty::{Chess, Position};

use crate::base::engine::{Engine, EngineKind};
use crate::base::position;

use super::worker::{bestmove_line, fallback, search_thread, Job};
use super::{
    parse_position_command, EngineFactory, GoParams, Plan, PositionCommandError, Settings,
};

/// Where the answers go: shared by the reader and the search thread, one line at a time.
pub(super) struct AnswerWriter<W: Write>(Arc<Mutex<W>>);

impl<W: Write> Clone for AnswerWriter<W> {
    fn clone(&self) -> Self {
        AnswerWriter(self.0.clone())
    }
}

impl<W: Write> AnswerWriter<W> {
    pub(super) fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // A GUI that has gone away is not our problem: there is nobody left to tell.
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }

    pub(super) fn info(&self, text: &str) {
        for l in text.lines() {
            self.line(&format!("info string {l}"));
        }
    }
}

/// The engine the searches run on.
pub(super) struct Loaded {
    pub(super) engine: Box<dyn Engine + Send>,
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
    /// A UCI session making engines with `factory` and writing to `out`.
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
