//! Other people's ports of Sargon, checked against the original by `sargon diff`.
//!
//! The project's own engines are compared through their hooks ([`crate::diff`]). A port
//! written elsewhere, in another language, has no hooks we can call; what it can do is
//! print its trace. Two ways in, weakest last:
//!
//! * **`exec:COMMAND`** ([`ExecPort`]): the program is run once per search through `sh -c`,
//!   with the position in `SARGON_FEN`, the depth in `SARGON_DEPTH` and `SARGON_BOOK` `1` or
//!   `0`; it prints its trace in the JSON Lines form of `docs/trace-format.md` on stdout,
//!   which is read line by line as it comes ([`sargon_core::trace_line`]) and compared
//!   event by event with the left engine's, exactly as two of our engines are compared.
//!   A program is a stranger: it may print nothing, garbage, a line without end, or never
//!   finish. Each of those is a clear error naming the line (quoted through
//!   [`sargon_core::input::echo`]), a line is read only up to `MAX_LINE_BYTES`, at most
//!   one line is read past the left engine's trace, and a search is given up after the
//!   port's timeout, counted only while we wait for the program (a slow left engine does
//!   not eat into it).
//! * **`uci:COMMAND`** ([`UciPort`]): for a port that speaks only UCI, started once through
//!   `sh -c`, `position fen ...` and `go depth N`, and only the answer is compared: the best move and the last
//!   `info score`. Two ports can agree there and still have searched differently.
//!
//! The process of an `exec:` port runs in a process group of its own, so that giving up on
//! it (a timeout, a divergence) ends whatever it started too.

use std::fmt;
use std::io::{self, BufRead, BufReader, Read};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use sargon_core::engine::{Engine, EngineKind, SearchError, SearchOptions, UnknownEngine};
use sargon_core::input::echo;
use sargon_core::position::{self, Setup};
use sargon_core::trace::Event;
use sargon_core::trace_line::{parse_trace_line, TraceLine, TraceLineError};

use crate::diff::{
    cpu_timed, Answer, AnswerDifference, CompareError, Divergence, EngineCost, SearchComparison,
    CHANNEL_DEPTH,
};
use crate::trace_cache::{left_search, LeftRun, TraceCache};
use crate::uci_client::{ClientError, EngineScore, Limit, UciClient};

/// The longest line read from an `exec:` port. A trace line holds one path: at depth 20
/// with a check extension that is some 130 bytes of moves, so a line this long is not a
/// trace line.
pub(crate) const MAX_LINE_BYTES: usize = 64 * 1024;

/// The per-search timeout when none is given: generous, since a port in a slow language
/// may take minutes at depth 5 where the native port takes a second.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

/// Lines of an `exec:` port's output read ahead of the comparison: with [`MAX_LINE_BYTES`]
/// this bounds the memory a program that floods its stdout can take (16 MiB).
const LINES_IN_FLIGHT: usize = 256;

/// Lines of an `exec:` port's stderr quoted when it fails.
const STDERR_LINES: usize = 3;

/// What the left engine is compared with: one of ours, or another person's port.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Contender {
    /// The emulator or the port.
    Engine(EngineKind),
    /// A program that prints its trace (`exec:COMMAND`).
    Exec(String),
    /// A UCI engine whose answers are compared (`uci:COMMAND`).
    Uci(String),
}

impl From<EngineKind> for Contender {
    fn from(kind: EngineKind) -> Contender {
        Contender::Engine(kind)
    }
}

/// Why a `--right` value names no contender.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ContenderError {
    /// Not `exec:`, `uci:` or an engine's name.
    #[error("{0}, or `exec:COMMAND` or `uci:COMMAND` for another program")]
    Unknown(UnknownEngine),
    /// `exec:` or `uci:` with nothing after it.
    #[error("`{0}:` needs a command after the colon")]
    NoCommand(&'static str),
}

impl FromStr for Contender {
    type Err = ContenderError;
    fn from_str(s: &str) -> Result<Contender, ContenderError> {
        let command = |c: &str, kind| {
            if c.trim().is_empty() {
                Err(ContenderError::NoCommand(kind))
            } else {
                Ok(c.to_string())
            }
        };
        if let Some(c) = s.strip_prefix("exec:") {
            Ok(Contender::Exec(command(c, "exec")?))
        } else if let Some(c) = s.strip_prefix("uci:") {
            Ok(Contender::Uci(command(c, "uci")?))
        } else {
            s.parse()
                .map(Contender::Engine)
                .map_err(ContenderError::Unknown)
        }
    }
}

/// The name recorded with every search: `port`, `emulator`, `exec:COMMAND`, `uci:COMMAND`.
impl fmt::Display for Contender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contender::Engine(kind) => kind.fmt(f),
            Contender::Exec(c) => write!(f, "exec:{c}"),
            Contender::Uci(c) => write!(f, "uci:{c}"),
        }
    }
}

/// Why an `exec:` port's search could not be compared. The search (position, depth) is
/// named by whoever shows the error; the error names the line.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum ExecError {
    /// `sh` could not be started.
    #[error("exec: cannot start `sh -c {command}`: {source}")]
    Start {
        /// The command, quoted.
        command: String,
        /// What the system said.
        source: io::Error,
    },
    /// Nothing at all on stdout, and a clean exit.
    #[error("exec: the program printed nothing on stdout{stderr}")]
    NoOutput {
        /// The end of its stderr, ready to append.
        stderr: String,
    },
    /// A line that is not a trace line.
    #[error("exec: line {line} of its output is not a trace event: {problem}: `{text}`")]
    BadLine {
        /// 1-based line number.
        line: usize,
        /// The line, quoted.
        text: String,
        /// What is wrong with it.
        problem: TraceLineError,
    },
    /// A `rom` line after the first event.
    #[error("exec: line {line} of its output is a `rom` line, which may only come first")]
    LateRomLine {
        /// 1-based line number.
        line: usize,
    },
    /// A line that is not UTF-8.
    #[error("exec: line {line} of its output is not UTF-8 text: `{text}`")]
    NotUtf8 {
        /// 1-based line number.
        line: usize,
        /// The line, with the bad bytes replaced, quoted.
        text: String,
    },
    /// A line beyond [`MAX_LINE_BYTES`].
    #[error("exec: line {line} of its output is longer than {MAX_LINE_BYTES} bytes: `{start}`")]
    LineTooLong {
        /// 1-based line number.
        line: usize,
        /// Its beginning, quoted.
        start: String,
    },
    /// The program failed.
    #[error("exec: the program exited with {status} after {lines} lines of output{stderr}")]
    Exited {
        /// The exit status, in words.
        status: String,
        /// Lines read.
        lines: usize,
        /// The end of its stderr, ready to append.
        stderr: String,
    },
    /// The output ended before the `result` event.
    #[error(
        "exec: its output ended after line {lines} without the `result` event that closes a trace"
    )]
    NoResult {
        /// Lines read.
        lines: usize,
    },
    /// The program took too long.
    #[error(
        "exec: no end of the trace within the timeout of {} s ({lines} lines read); the program was killed",
        seconds.as_secs_f64()
    )]
    TimedOut {
        /// The timeout.
        seconds: Duration,
        /// Lines read before it.
        lines: usize,
    },
    /// Reading its stdout failed.
    #[error("exec: cannot read its output: {0}")]
    Read(io::Error),
}

/// A port run as a program once per search, whose trace is read from its stdout.
#[derive(Clone, Debug)]
pub struct ExecPort {
    /// The command, run through `sh -c`.
    pub command: String,
    /// How long one search may take (counted while waiting for the program).
    pub timeout: Duration,
}

/// What the reader of a port's stdout hands over.
enum Piece {
    Line(Vec<u8>),
    TooLong(Vec<u8>),
    End,
    Failed(io::Error),
}

/// A running `exec:` program: its process, its stdout as lines, the end of its stderr.
struct Running {
    child: Child,
    lines: Receiver<Piece>,
    stderr: Arc<Mutex<Vec<String>>>,
    stderr_done: Receiver<()>,
}

impl Running {
    fn start(port: &ExecPort, setup: &Setup, depth: u8, book: bool) -> Result<Running, ExecError> {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(&port.command)
            .env("SARGON_FEN", position::fen_of(&setup.position))
            .env("SARGON_DEPTH", depth.to_string())
            .env("SARGON_BOOK", if book { "1" } else { "0" })
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        let mut child = command.spawn().map_err(|source| ExecError::Start {
            command: echo(&port.command),
            source,
        })?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr_pipe = child.stderr.take().expect("stderr is piped");

        let (tx, lines) = mpsc::sync_channel(LINES_IN_FLIGHT);
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                let read = (&mut reader)
                    .take(MAX_LINE_BYTES as u64 + 1)
                    .read_until(b'\n', &mut line);
                let piece = match read {
                    Err(e) => Piece::Failed(e),
                    Ok(0) => Piece::End,
                    Ok(_) if line.last() == Some(&b'\n') => {
                        line.pop();
                        Piece::Line(line)
                    }
                    Ok(_) if line.len() > MAX_LINE_BYTES => Piece::TooLong(line),
                    // The last line, without its newline.
                    Ok(_) => Piece::Line(line),
                };
                let last = !matches!(piece, Piece::Line(_));
                if tx.send(piece).is_err() || last {
                    return;
                }
            }
        });

        let stderr = Arc::new(Mutex::new(Vec::new()));
        let (done_tx, stderr_done) = mpsc::channel();
        let kept = stderr.clone();
        thread::spawn(move || {
            let mut reader = BufReader::new(stderr_pipe);
            let mut line = Vec::new();
            while let Ok(n) = (&mut reader)
                .take(MAX_LINE_BYTES as u64)
                .read_until(b'\n', &mut line)
            {
                if n == 0 {
                    break;
                }
                let text = String::from_utf8_lossy(&line).trim_end().to_string();
                let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
                if !text.is_empty() {
                    kept.push(text);
                }
                let excess = kept.len().saturating_sub(STDERR_LINES);
                kept.drain(..excess);
                line.clear();
            }
            let _ = done_tx.send(());
        });
        Ok(Running {
            child,
            lines,
            stderr,
            stderr_done,
        })
    }

    /// End the program and everything it started.
    fn kill(&mut self) {
        #[cfg(unix)]
        {
            // SAFETY: kill(2) with a negative pid signals the process group the child leads
            // (process_group(0) made it the leader); it touches no memory of ours. The group
            // keeps its id while any process it started lives, even after the leader has
            // been reaped, so the signal reaches those and no one else.
            unsafe {
                libc::kill(-(self.child.id() as libc::pid_t), libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The last lines of its stderr, as `; its stderr ends: ...`, or nothing.
    fn stderr_tail(&self) -> String {
        // Give the reader a moment to take what the program wrote before it ended.
        let _ = self.stderr_done.recv_timeout(Duration::from_millis(500));
        let kept = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        if kept.is_empty() {
            String::new()
        } else {
            let lines: Vec<String> = kept.iter().map(|l| echo(l)).collect();
            format!("; its stderr ends: {}", lines.join(" | "))
        }
    }

    /// Wait for the program to exit, at most `time`.
    fn wait(&mut self, time: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + time;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.kill();
        }
    }
}

/// How reading the program's trace ended, when it did not fail.
struct ReadEnd {
    events: u64,
    divergence: Option<Divergence>,
}

/// Run one search on the left engine and on the `exec:` port, and compare the traces.
pub(crate) fn compare_exec(
    left: &mut (dyn Engine + Send),
    cache: Option<&TraceCache>,
    port: &ExecPort,
    setup: &Setup,
    opts: &SearchOptions,
    book: bool,
) -> Result<SearchComparison, CompareError> {
    let stop = Arc::new(AtomicBool::new(false));
    let mut opts = opts.clone();
    opts.stop = Some(stop.clone());
    let mut running = Running::start(port, setup, opts.depth, book)?;
    let (tx, rx) = mpsc::sync_channel::<Event>(CHANNEL_DEPTH);

    thread::scope(|scope| {
        let left_opts = opts.clone();
        let left_thread = scope.spawn(move || {
            left_search(left, cache, setup, &left_opts, |e| {
                let _ = tx.send(e);
            })
        });
        let read = read_and_compare(&mut running, &rx, port.timeout);
        if !matches!(
            read,
            Ok(ReadEnd {
                divergence: None,
                ..
            })
        ) {
            stop.store(true, Ordering::Relaxed);
            running.kill();
        }
        drop(rx);
        let LeftRun {
            result: left_result,
            cost: left,
        } = left_thread
            .join()
            .expect("the left engine's thread panicked");
        match (left_result, read) {
            (Err(e), _) if !matches!(e, SearchError::Stopped) => Err(e.into()),
            (_, Err(e)) => Err(e.into()),
            (_, Ok(end)) => Ok(SearchComparison {
                events: end.events,
                divergence: end.divergence,
                left,
                right: EngineCost::default(),
            }),
        }
    })
}

fn read_and_compare(
    running: &mut Running,
    left: &Receiver<Event>,
    timeout: Duration,
) -> Result<ReadEnd, ExecError> {
    // The timeout counts the time spent waiting for the program only.
    let mut waited = Duration::ZERO;
    let mut lines = 0usize;
    let mut events = 0u64;
    let mut seen_result = false;
    loop {
        let left_time = timeout.saturating_sub(waited);
        let started = Instant::now();
        let piece = running.lines.recv_timeout(left_time);
        waited += started.elapsed();
        let bytes = match piece {
            Err(RecvTimeoutError::Timeout) => {
                return Err(ExecError::TimedOut {
                    seconds: timeout,
                    lines,
                })
            }
            Ok(Piece::End) | Err(RecvTimeoutError::Disconnected) => break,
            Ok(Piece::Failed(e)) => return Err(ExecError::Read(e)),
            Ok(Piece::TooLong(start)) => {
                return Err(ExecError::LineTooLong {
                    line: lines + 1,
                    start: echo(&String::from_utf8_lossy(&start)),
                })
            }
            Ok(Piece::Line(bytes)) => bytes,
        };
        lines += 1;
        let text = std::str::from_utf8(&bytes).map_err(|_| ExecError::NotUtf8 {
            line: lines,
            text: echo(&String::from_utf8_lossy(&bytes)),
        })?;
        let mine = match parse_trace_line(text) {
            Ok(TraceLine::Event(e)) => e,
            Ok(TraceLine::Rom) if lines == 1 => continue,
            Ok(TraceLine::Rom) => return Err(ExecError::LateRomLine { line: lines }),
            Err(problem) => {
                return Err(ExecError::BadLine {
                    line: lines,
                    text: echo(text),
                    problem,
                })
            }
        };
        let is_result = matches!(mine, Event::Result { .. });
        match left.recv() {
            Ok(theirs) if theirs.as_written() == mine => {
                events += 1;
                seen_result |= is_result;
            }
            theirs => {
                return Ok(ReadEnd {
                    events,
                    divergence: Some(Divergence {
                        index: events,
                        left: theirs.ok(),
                        right: Some(mine),
                    }),
                })
            }
        }
    }
    // The output has ended: the program's exit decides whether the trace counts.
    let status = running
        .wait(timeout.saturating_sub(waited))
        .ok_or(ExecError::TimedOut {
            seconds: timeout,
            lines,
        })?;
    if !status.success() {
        return Err(ExecError::Exited {
            status: status_words(status),
            lines,
            stderr: running.stderr_tail(),
        });
    }
    if lines == 0 {
        return Err(ExecError::NoOutput {
            stderr: running.stderr_tail(),
        });
    }
    if !seen_result {
        return Err(ExecError::NoResult { lines });
    }
    // The left trace must end where the program's did.
    let divergence = left.recv().ok().map(|extra| Divergence {
        index: events,
        left: Some(extra),
        right: None,
    });
    Ok(ReadEnd { events, divergence })
}

/// `status 3`, or `signal 9` for a process killed by a signal.
fn status_words(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("status {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("signal {signal}");
        }
    }
    status.to_string()
}

/// A UCI engine whose answers are compared: best move and score.
pub struct UciPort {
    client: UciClient,
    timeout: Duration,
}

impl UciPort {
    /// Start the engine through `sh -c`, as an `exec:` port is run, and tell it whether to
    /// use its book when it offers `OwnBook`.
    pub fn start(command: &str, book: bool, timeout: Duration) -> Result<UciPort, ClientError> {
        let mut client = UciClient::spawn_shell(command)?;
        if client
            .options()
            .iter()
            .any(|o| o.eq_ignore_ascii_case("OwnBook"))
        {
            client.set_option("OwnBook", if book { "true" } else { "false" })?;
        }
        client.ready()?;
        Ok(UciPort { client, timeout })
    }
}

/// Run one search on the left engine and ask the UCI port for its move at that depth.
pub(crate) fn compare_uci(
    left: &mut (dyn Engine + Send),
    port: &mut UciPort,
    setup: &Setup,
    opts: &SearchOptions,
) -> Result<SearchComparison<AnswerDifference>, CompareError> {
    let mut nodes = 0;
    let (searched, left_cpu) =
        cpu_timed(|| crate::uci::search_depth(&mut *left, setup, opts, &mut nodes, None, &mut []));
    let left_result = searched?;
    let reply = port.client.go(
        &setup.position,
        &[],
        &setup.position,
        &Limit {
            depth: Some(u32::from(opts.depth)),
            ..Limit::default()
        },
        port.timeout,
    )?;
    let uci = |m: &shakmaty::Move| m.to_uci(shakmaty::CastlingMode::Standard).to_string();
    let expected = Answer {
        best: uci(&left_result.best),
        // A move from the book comes without a search, so without a score to compare.
        score: (!left_result.from_book).then_some(match left_result.mate {
            Some(n) => EngineScore::Mate(n),
            None => EngineScore::Cp(left_result.score_cp),
        }),
    };
    let answered = Answer {
        best: uci(&reply.best),
        score: reply.score,
    };
    let agree = expected.best == answered.best
        && (expected.score.is_none() || expected.score == answered.score);
    Ok(SearchComparison {
        events: 0,
        divergence: (!agree).then_some(AnswerDifference {
            left: expected,
            right: answered,
        }),
        left: EngineCost {
            cpu: left_cpu,
            z80_instructions: None,
            cached: false,
        },
        right: EngineCost::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contenders_are_read_from_their_names() {
        assert_eq!(
            "port".parse::<Contender>(),
            Ok(Contender::Engine(EngineKind::Port))
        );
        assert_eq!(
            "exec:./my-port --trace".parse::<Contender>(),
            Ok(Contender::Exec("./my-port --trace".into()))
        );
        assert_eq!(
            "uci:stockfish".parse::<Contender>().unwrap().to_string(),
            "uci:stockfish"
        );
        assert_eq!(
            "exec: ".parse::<Contender>().unwrap_err().to_string(),
            "`exec:` needs a command after the colon"
        );
        let e = "zargon".parse::<Contender>().unwrap_err().to_string();
        assert!(
            e.contains("unknown engine `zargon`") && e.contains("exec:COMMAND"),
            "{e}"
        );
    }
}
