//! The other side of UCI: driving a chess engine that speaks it, for `sargon play`.
//!
//! A `UciClient` talks to an engine through one of two transports:
//!
//! * a **process** started from a command line (`stockfish`, `/usr/games/stockfish`,
//!   `"my engine" --threads 1`): commands go to its stdin, a reader thread turns its stdout
//!   into lines, another keeps the last lines of its stderr for the error message should it
//!   die;
//! * a **session** of Sargon's own UCI front end (`sargon_chess::uci::Uci`) in this
//!   process, so that Sargon plays through exactly the code that GUIs use: iterative
//!   deepening under a time budget, the book, `FixedDepth`. The client knows it only as an
//!   `InProcess` engine; `UciClient::in_process` is made on the `uci` side.
//!
//! Either way the client writes commands and reads lines with a deadline, so that an engine
//! that hangs is noticed ([`ClientError::Timeout`]), one that dies is noticed at the end of
//! its output ([`ClientError::Exited`]), and a `bestmove` that is not legal in the position
//! is refused ([`ClientError::IllegalMove`]). A process is asked to `quit` and then killed
//! when the client is dropped.

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move};

pub use crate::command_line::{split_command, SplitError};

use sargon_core::input::echo;
use sargon_core::position;

/// How long an engine may take to answer `uci` and `isready`, unless its starter says
/// otherwise ([`UciClient::spawn_shell`] takes the engine's timeout).
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);

/// Lines of an engine's stderr kept for the message when it dies.
const STDERR_TAIL: usize = 5;

/// The limits of one `go`: any of depth, time and nodes (none: the engine decides).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Limit {
    /// `go depth`.
    pub depth: Option<u32>,
    /// `go movetime`.
    pub movetime: Option<Duration>,
    /// `go nodes`.
    pub nodes: Option<u64>,
}

impl Limit {
    /// No limit at all.
    pub fn is_empty(&self) -> bool {
        self.depth.is_none() && self.movetime.is_none() && self.nodes.is_none()
    }

    /// The words after `go`: `depth 3 movetime 100 nodes 5000`.
    pub fn go_words(&self) -> String {
        let mut words = Vec::new();
        if let Some(d) = self.depth {
            words.push(format!("depth {d}"));
        }
        if let Some(t) = self.movetime {
            words.push(format!("movetime {}", t.as_millis()));
        }
        if let Some(n) = self.nodes {
            words.push(format!("nodes {n}"));
        }
        words.join(" ")
    }
}

/// "depth 3", "movetime 100 ms", "nodes 5000", joined by ", ".
impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(t) = self.movetime {
            parts.push(format!("movetime {} ms", t.as_millis()));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes {n}"));
        }
        if parts.is_empty() {
            parts.push("no limit".to_string());
        }
        f.write_str(&parts.join(", "))
    }
}

/// A score as an engine reports it, for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EngineScore {
    /// Centipawns.
    Cp(i32),
    /// Moves to mate; negative when the side to move is mated.
    Mate(i32),
}

impl EngineScore {
    /// Pawns with a sign (`+0.35`), or mate as `+M3` / `-M2`.
    pub fn pawns_text(&self) -> String {
        match *self {
            EngineScore::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
            EngineScore::Mate(n) if n >= 0 => format!("+M{n}"),
            EngineScore::Mate(n) => format!("-M{}", -n),
        }
    }
}

/// An engine's answer to `go`.
#[derive(Clone, Debug)]
pub struct Reply {
    /// The move, legal in the position.
    pub best: Move,
    /// The score of the last `info` line that had one.
    pub score: Option<EngineScore>,
    /// The depth of that line (or of the last `info` with a depth).
    pub depth: Option<u32>,
    /// From sending `go` to reading `bestmove`.
    pub elapsed: Duration,
}

/// What went wrong with an engine.
///
/// What the engine sent (its name, a move, its last words) and what the person gave (the
/// command line, an option's name) are quoted through [`echo`]: an engine can send anything.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The engine could not be started.
    #[error("cannot start `{command}`: {reason}")]
    Start {
        /// The command line.
        command: String,
        /// Why it did not start.
        reason: String,
    },
    /// The engine's process ended.
    #[error("{engine} exited while {doing}{last_words}")]
    Exited {
        /// The engine's command line.
        engine: String,
        /// What it was asked to do.
        doing: String,
        /// Its last lines on stderr, if any, ready to append.
        last_words: String,
    },
    /// The engine did not answer in time.
    #[error("{engine} did not answer within {:.1} s while {doing}", after.as_secs_f64())]
    Timeout {
        /// The engine's command line.
        engine: String,
        /// What it was asked to do.
        doing: String,
        /// How long it was given.
        after: Duration,
    },
    /// The engine answered with a move that is not legal.
    #[error("{engine} answered `bestmove {text}`, which is not a legal move in {fen}")]
    IllegalMove {
        /// The engine's command line.
        engine: String,
        /// The move as it sent it, as [`echo`] quotes it.
        text: String,
        /// The position, as FEN.
        fen: String,
    },
    /// The engine has no option of that name.
    #[error("{engine} has no option `{name}` (it offers: {offered})")]
    UnknownOption {
        /// The engine's command line.
        engine: String,
        /// The option asked for.
        name: String,
        /// The options it does offer.
        offered: String,
    },
}

/// An engine in this process that reads UCI lines and writes its answers to a
/// [`LineSink`]: Sargon's own front end (`sargon_chess::uci::Uci`, which makes such a client in
/// `UciClient::in_process`). A trait of the client's, so that the client does not import
/// the engine side, which imports it.
pub trait InProcess: Send {
    /// Handle one command line (false once it has quit).
    fn handle_line(&mut self, line: &str) -> bool;
}

/// An in-process engine writes here: complete lines go to the client's channel.
pub struct LineSink {
    tx: Sender<String>,
    partial: Vec<u8>,
}

impl Write for LineSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line).trim_end().to_string();
            // The client has gone: nobody reads what the session writes any more.
            let _ = self.tx.send(text);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

enum Transport {
    Process {
        child: Child,
        stdin: ChildStdin,
        stderr_tail: Arc<Mutex<VecDeque<String>>>,
    },
    Session(Box<dyn InProcess>),
}

/// A connection to one UCI engine (see the module documentation).
pub struct UciClient {
    transport: Transport,
    lines: Receiver<String>,
    /// `id name`, or the command until the engine says; as [`echo`] quotes it, since it
    /// appears in messages.
    name: String,
    /// The names of the options the engine offers (`option name ...`).
    options: Vec<String>,
    /// How long it may take to answer `uci` and `isready`.
    handshake: Duration,
}

impl UciClient {
    /// Start the engine `command` (a command line, see [`split_command`]) and complete the
    /// handshake (`uci` ... `uciok`).
    pub fn spawn(command: &str) -> Result<UciClient, ClientError> {
        let words = split_command(command).map_err(|reason| ClientError::Start {
            command: echo(command),
            reason: reason.to_string(),
        })?;
        let name = echo(&words[0]);
        UciClient::start(command, &words, name, HANDSHAKE_TIMEOUT)
    }

    /// Start the engine `command` through `sh -c` (a pipeline, variables and quotes as the
    /// shell takes them) and complete the handshake, each of its exchanges (`uci`,
    /// `isready`) within `handshake`. Until the engine names itself, it is called by the
    /// command.
    pub fn spawn_shell(command: &str, handshake: Duration) -> Result<UciClient, ClientError> {
        let words = ["sh".to_string(), "-c".to_string(), command.to_string()];
        UciClient::start(command, &words, echo(command), handshake)
    }

    fn start(
        command: &str,
        words: &[String],
        name: String,
        handshake: Duration,
    ) -> Result<UciClient, ClientError> {
        let start_error = |reason: String| ClientError::Start {
            command: echo(command),
            reason,
        };
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| start_error(e.to_string()))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(line).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = stderr_tail.clone();
        thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { return };
                let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                if t.len() == STDERR_TAIL {
                    t.pop_front();
                }
                t.push_back(line);
            }
        });
        let mut client = UciClient {
            transport: Transport::Process {
                child,
                stdin,
                stderr_tail,
            },
            lines,
            name,
            options: Vec::new(),
            handshake,
        };
        client.handshake()?;
        Ok(client)
    }

    /// An engine in this process, made by `start` around the sink it writes to; the
    /// handshake is done.
    pub fn in_process_with(
        start: impl FnOnce(LineSink) -> Box<dyn InProcess>,
    ) -> Result<UciClient, ClientError> {
        let (tx, lines) = mpsc::channel();
        let sink = LineSink {
            tx,
            partial: Vec::new(),
        };
        let mut client = UciClient {
            transport: Transport::Session(start(sink)),
            lines,
            name: "sargon".to_string(),
            options: Vec::new(),
            handshake: HANDSHAKE_TIMEOUT,
        };
        client.handshake()?;
        Ok(client)
    }

    /// The engine's `id name`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The names of the options the engine offers.
    pub fn options(&self) -> &[String] {
        &self.options
    }

    fn send(&mut self, line: &str) -> Result<(), ClientError> {
        match &mut self.transport {
            Transport::Process { stdin, .. } => {
                let sent = writeln!(stdin, "{line}").and_then(|_| stdin.flush());
                if sent.is_err() {
                    return Err(self.exited(&format!("receiving `{}`", echo(line))));
                }
            }
            Transport::Session(session) => {
                session.handle_line(line);
            }
        }
        Ok(())
    }

    /// The error for an engine whose output has ended.
    fn exited(&mut self, doing: &str) -> ClientError {
        let mut last_words = String::new();
        if let Transport::Process {
            child, stderr_tail, ..
        } = &mut self.transport
        {
            // Give the stderr reader a moment to collect the last words.
            let deadline = Instant::now() + Duration::from_millis(200);
            let mut status = None;
            while Instant::now() < deadline {
                if let Ok(Some(s)) = child.try_wait() {
                    status = Some(s);
                    break;
                }
                thread::sleep(Duration::from_millis(10));
            }
            thread::sleep(Duration::from_millis(20));
            if let Some(s) = status {
                last_words.push_str(&format!(" ({s})"));
            }
            let tail = stderr_tail.lock().unwrap_or_else(|e| e.into_inner());
            if !tail.is_empty() {
                let lines: Vec<String> = tail.iter().map(|l| echo(l)).collect();
                last_words.push_str(&format!(
                    "; its last words on stderr: {}",
                    lines.join(" | ")
                ));
            }
        }
        ClientError::Exited {
            engine: self.name.clone(),
            doing: doing.to_string(),
            last_words,
        }
    }

    /// The next line before `deadline`.
    fn read_line(
        &mut self,
        deadline: Instant,
        doing: &str,
        started: Instant,
    ) -> Result<String, ClientError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(ClientError::Timeout {
                engine: self.name.clone(),
                doing: doing.to_string(),
                after: started.elapsed(),
            }),
            Err(RecvTimeoutError::Disconnected) => Err(self.exited(doing)),
        }
    }

    /// Send `command`, then read lines until one that starts with `answer`.
    fn expect(
        &mut self,
        command: &str,
        answer: &str,
        timeout: Duration,
    ) -> Result<Vec<String>, ClientError> {
        let started = Instant::now();
        self.send(command)?;
        let doing = format!("waiting for `{answer}` after `{command}`");
        let mut seen = Vec::new();
        loop {
            let line = self.read_line(started + timeout, &doing, started)?;
            if line.split_whitespace().next() == Some(answer) {
                return Ok(seen);
            }
            seen.push(line);
        }
    }

    fn handshake(&mut self) -> Result<(), ClientError> {
        let lines = self.expect("uci", "uciok", self.handshake)?;
        for line in lines {
            if let Some(name) = line.strip_prefix("id name ") {
                self.name = echo(name.trim());
            } else if let Some(rest) = line.strip_prefix("option name ") {
                let name = match rest.find(" type ") {
                    Some(i) => &rest[..i],
                    None => rest,
                };
                self.options.push(name.trim().to_string());
            }
        }
        Ok(())
    }

    /// `setoption name NAME value VALUE`, for an option the engine offers (names compare
    /// without regard to case, as UCI says).
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), ClientError> {
        let Some(known) = self
            .options
            .iter()
            .find(|o| o.eq_ignore_ascii_case(name))
            .cloned()
        else {
            let offered: Vec<String> = self.options.iter().map(|o| echo(o)).collect();
            return Err(ClientError::UnknownOption {
                engine: self.name.clone(),
                name: echo(name),
                offered: offered.join(", "),
            });
        };
        self.send(&format!("setoption name {known} value {value}"))
    }

    /// `isready` ... `readyok`.
    pub fn ready(&mut self) -> Result<(), ClientError> {
        self.expect("isready", "readyok", self.handshake)
            .map(|_| ())
    }

    /// `ucinewgame`, then wait until the engine is ready.
    pub fn new_game(&mut self) -> Result<(), ClientError> {
        self.send("ucinewgame")?;
        self.ready()
    }

    /// Ask for a move: `position ...` (the start and the moves since, so that the engine
    /// knows the game's history), then `go` with `limit`; `pos` is the position reached,
    /// to check the answer. `timeout` counts from `go`.
    pub fn go(
        &mut self,
        start: &Chess,
        moves: &[Move],
        pos: &Chess,
        limit: &Limit,
        timeout: Duration,
    ) -> Result<Reply, ClientError> {
        self.send(&position_command(start, moves))?;
        let go = format!("go {}", limit.go_words());
        let go = go.trim_end().to_string();
        let started = Instant::now();
        self.send(&go)?;
        let doing = format!("waiting for `bestmove` after `{go}`");
        let (mut score, mut score_depth, mut last_depth) = (None, None, None);
        loop {
            let line = self.read_line(started + timeout, &doing, started)?;
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.first() {
                Some(&"info") => {
                    let info = parse_info(&words[1..]);
                    if info.depth.is_some() {
                        last_depth = info.depth;
                    }
                    if info.score.is_some() {
                        score = info.score;
                        score_depth = info.depth;
                    }
                }
                Some(&"bestmove") => {
                    let elapsed = started.elapsed();
                    let text = words.get(1).copied().unwrap_or("").to_string();
                    let best = text
                        .parse::<UciMove>()
                        .ok()
                        .and_then(|u| u.to_move(pos).ok());
                    let Some(best) = best else {
                        return Err(ClientError::IllegalMove {
                            engine: self.name.clone(),
                            text: echo(&text),
                            fen: position::fen_of(pos),
                        });
                    };
                    return Ok(Reply {
                        best,
                        score,
                        depth: score_depth.or(last_depth),
                        elapsed,
                    });
                }
                _ => {}
            }
        }
    }
}

impl Drop for UciClient {
    fn drop(&mut self) {
        match &mut self.transport {
            Transport::Process { child, stdin, .. } => {
                let _ = writeln!(stdin, "quit").and_then(|_| stdin.flush());
                let deadline = Instant::now() + Duration::from_millis(500);
                while Instant::now() < deadline {
                    if let Ok(Some(_)) = child.try_wait() {
                        return;
                    }
                    thread::sleep(Duration::from_millis(10));
                }
                let _ = child.kill();
                let _ = child.wait();
            }
            Transport::Session(session) => {
                session.handle_line("quit");
            }
        }
    }
}

/// `position startpos moves ...` or `position fen FEN moves ...`.
pub fn position_command(start: &Chess, moves: &[Move]) -> String {
    let mut cmd = if *start == Chess::default() {
        "position startpos".to_string()
    } else {
        format!("position fen {}", position::fen_of(start))
    };
    if !moves.is_empty() {
        cmd.push_str(" moves");
        for m in moves {
            cmd.push(' ');
            cmd.push_str(&m.to_uci(shakmaty::CastlingMode::Standard).to_string());
        }
    }
    cmd
}

/// What one `info` line says about depth and score.
#[derive(Debug, Default, PartialEq, Eq)]
struct Info {
    depth: Option<u32>,
    score: Option<EngineScore>,
}

fn parse_info(words: &[&str]) -> Info {
    let mut info = Info::default();
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            // The rest of the line is free text.
            "string" => break,
            // Only the first line of a multi-PV search speaks of the best move.
            "multipv" if words.get(i + 1).is_some_and(|w| *w != "1") => return Info::default(),
            "depth" => info.depth = words.get(i + 1).and_then(|w| w.parse().ok()),
            "score" => {
                let value = words.get(i + 2).and_then(|w| w.parse::<i32>().ok());
                info.score = match (words.get(i + 1), value) {
                    (Some(&"cp"), Some(v)) => Some(EngineScore::Cp(v)),
                    (Some(&"mate"), Some(v)) => Some(EngineScore::Mate(v)),
                    _ => info.score,
                };
            }
            // The moves of the PV are not keywords.
            "pv" => break,
            _ => {}
        }
        i += 1;
    }
    info
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Position;

    /// Ask for a move in the starting position, no limit, waiting at most `timeout`.
    fn go_from_start(client: &mut UciClient, timeout: Duration) -> Result<Reply, ClientError> {
        let start = Chess::default();
        client.go(&start, &[], &start, &Limit::default(), timeout)
    }

    #[test]
    fn info_lines() {
        let words = |s: &'static str| s.split_whitespace().collect::<Vec<_>>();
        assert_eq!(
            parse_info(&words(
                "depth 12 seldepth 15 multipv 1 score cp -35 nodes 100 pv e2e4 e7e5"
            )),
            Info {
                depth: Some(12),
                score: Some(EngineScore::Cp(-35))
            }
        );
        assert_eq!(
            parse_info(&words("depth 5 score mate -2 pv a1a2")).score,
            Some(EngineScore::Mate(-2))
        );
        assert_eq!(
            parse_info(&words("depth 3 multipv 2 score cp 10")),
            Info::default()
        );
        assert_eq!(
            parse_info(&words("string depth 3 score cp 1")),
            Info::default()
        );
        assert_eq!(EngineScore::Cp(35).pawns_text(), "+0.35");
        assert_eq!(EngineScore::Cp(-250).pawns_text(), "-2.50");
        assert_eq!(EngineScore::Mate(-2).pawns_text(), "-M2");
    }

    #[test]
    fn limits_and_positions() {
        let limit = Limit {
            depth: Some(3),
            movetime: Some(Duration::from_millis(250)),
            nodes: None,
        };
        assert_eq!(limit.go_words(), "depth 3 movetime 250");
        assert_eq!(limit.to_string(), "depth 3, movetime 250 ms");
        assert_eq!(Limit::default().to_string(), "no limit");
        let start = Chess::default();
        let e4: UciMove = "e2e4".parse().unwrap();
        let e4 = e4.to_move(&start).unwrap();
        assert_eq!(
            position_command(&start, &[e4]),
            "position startpos moves e2e4"
        );
        let mut after = start.clone();
        after.play_unchecked(e4);
        assert!(
            position_command(&after, &[]).starts_with("position fen rnbqkbnr/pppppppp/8/8/4P3/")
        );
    }

    #[test]
    fn a_missing_program_is_a_clear_error() {
        let err = UciClient::spawn("/nonexistent/engine --flag")
            .err()
            .unwrap();
        assert!(
            err.to_string()
                .starts_with("cannot start `/nonexistent/engine --flag`"),
            "{err}"
        );
    }

    #[test]
    fn an_engine_that_dies_or_cheats_is_caught() {
        // A shell script as a UCI engine: it answers the handshake, then one bestmove that is
        // illegal, then exits.
        let script = "while read l; do case \"$l\" in \
            uci) echo 'id name liar'; echo uciok;; \
            isready) echo readyok;; \
            go*) echo 'bestmove e2e5'; echo 'dying' >&2; exit 3;; \
            esac; done";
        let mut client = UciClient::spawn(&format!("sh -c \"{script}\"")).unwrap();
        assert_eq!(client.name(), "liar");
        client.new_game().unwrap();
        let err = go_from_start(&mut client, Duration::from_secs(10)).unwrap_err();
        assert!(matches!(err, ClientError::IllegalMove { .. }), "{err}");
        let err = client.ready().unwrap_err();
        assert!(matches!(err, ClientError::Exited { .. }), "{err}");
        let text = err.to_string();
        assert!(text.contains("dying"), "{text}");
    }

    #[test]
    fn an_engine_that_hangs_times_out() {
        let script = "while read l; do case \"$l\" in \
            uci) echo uciok;; isready) echo readyok;; esac; done";
        let mut client = UciClient::spawn(&format!("sh -c \"{script}\"")).unwrap();
        let err = go_from_start(&mut client, Duration::from_millis(200)).unwrap_err();
        assert!(matches!(err, ClientError::Timeout { .. }), "{err}");
    }
}
