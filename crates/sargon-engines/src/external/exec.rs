//! `exec:COMMAND`: a port run as a program once per search, whose trace is read from its
//! stdout ([`ExecEngine`]).
//!
//! The program is run through `sh -c`, with the position in `SARGON_FEN`, the depth in
//! `SARGON_DEPTH` and `SARGON_BOOK` `1` or `0`; it prints its trace in the JSON Lines form
//! of `docs/trace-format.md` on stdout, which is read line by line as it comes
//! ([`sargon_core::trace_line`]) and handed on event by event, as any engine's trace is.
//! A program is a stranger: it may print nothing, garbage, a line without end, or never
//! finish. Each of those is a clear error naming the line (quoted through
//! [`sargon_core::input::echo`]), a line is read only up to `MAX_LINE_BYTES`, a stop
//! request (a comparison that has found its divergence) ends the program after the line
//! at hand, and a search is given up after the timeout, counted only while we wait for
//! the program (a slow reader of the trace does not eat into it).
//!
//! The process runs in a process group of its own, so that giving up on it (a timeout, a
//! divergence) ends whatever it started too.

use std::io::{self, BufRead, BufReader, Read};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use sargon_core::engine::{
    Capabilities, Engine, SearchError, SearchOptions, SearchOutcome, SearchStats,
};
use sargon_core::hooks::{Hook, Hooks};
use sargon_core::input::echo;
use sargon_core::position::{self, Setup};
use sargon_core::trace::{Detail, Event};
use sargon_core::trace_line::{parse_trace_line, TraceLine, TraceLineError};

use super::EXTERNAL_MAX_DEPTH;

/// The longest line read from an `exec:` port. A trace line holds one path: at depth 20
/// with a check extension that is some 130 bytes of moves, so a line this long is not a
/// trace line.
pub(crate) const MAX_LINE_BYTES: usize = 64 * 1024;

/// The bytes of lines the reader of an `exec:` port's output hands over at once, at most
/// (and less when the pipe holds no more): with [`BATCHES_IN_FLIGHT`] and
/// [`MAX_LINE_BYTES`] this bounds the memory a program that floods its stdout can take
/// (about 2 MiB).
const BATCH_BYTES: usize = 256 * 1024;

/// Batches of lines read ahead of the comparison.
const BATCHES_IN_FLIGHT: usize = 4;

/// Lines of an `exec:` port's stderr quoted when it fails.
const STDERR_LINES: usize = 3;

/// Why an `exec:` port's search failed. The search (position, depth) is named by whoever
/// shows the error; the error names the line.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExecError {
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
    /// A line beyond 64 KiB, the longest line read (no trace line comes near it).
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
pub struct ExecEngine {
    /// The command, run through `sh -c`.
    command: String,
    /// How long one search may take (counted while waiting for the program).
    timeout: Duration,
}

impl ExecEngine {
    /// The program `command` (run through `sh -c`), given `timeout` per search.
    pub fn new(command: &str, timeout: Duration) -> ExecEngine {
        ExecEngine {
            command: command.to_string(),
            timeout,
        }
    }
}

impl Engine for ExecEngine {
    fn id(&self) -> String {
        format!("exec:{}", self.command)
    }

    fn max_depth(&self) -> u8 {
        EXTERNAL_MAX_DEPTH
    }

    /// A trace, read from the program's output, with moves as the trace format writes
    /// them; no hooks, no data area, no Z80.
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            trace: true,
            ..Capabilities::default()
        }
    }

    fn search(
        &mut self,
        setup: &Setup,
        opts: &SearchOptions,
        hooks: &mut Hooks,
    ) -> Result<SearchOutcome, SearchError> {
        self.refuse_hooks(hooks)?;
        self.trace(setup, opts, Detail::BestOnly, &mut [], &mut |_| {})
    }

    fn trace(
        &mut self,
        setup: &Setup,
        opts: &SearchOptions,
        detail: Detail,
        extra: &mut [&mut dyn Hook],
        sink: &mut dyn FnMut(Event),
    ) -> Result<SearchOutcome, SearchError> {
        if !extra.is_empty() {
            self.require(sargon_core::Capability::Hooks, "a search with hooks")?;
        }
        self.check_depth(opts.depth)?;
        let started = Instant::now();
        let mut running =
            Running::start(self, setup, opts.depth, setup.plays_from_book()).map_err(external)?;
        let read = read_trace(&mut running, self.timeout, opts, &mut |e| {
            if detail == Detail::Full || matches!(e, Event::Best { .. } | Event::Result { .. }) {
                sink(e)
            }
        });
        if read.is_err() {
            running.kill();
        }
        let (best, root_score, events) = read?;
        Ok(SearchOutcome {
            best,
            root_score,
            // A book move is played without a search: a trace of the result alone.
            from_book: setup.plays_from_book() && events == 0,
            stats: SearchStats {
                wall_us: started.elapsed().as_micros() as u64,
                ..SearchStats::default()
            },
        })
    }
}

/// An `exec:` failure as a search error (its message unchanged).
fn external(e: ExecError) -> SearchError {
    SearchError::External(Box::new(e))
}

/// What the reader of a port's stdout hands over.
enum Piece {
    Line(Vec<u8>),
    TooLong(Vec<u8>),
    End,
    Failed(io::Error),
}

/// The pieces of a program's output as they arrive, in batches.
struct Pieces {
    rx: Receiver<Vec<Piece>>,
    pending: std::collections::VecDeque<Piece>,
}

impl Pieces {
    /// The next piece, waiting at most `time` for one.
    fn recv_timeout(&mut self, time: Duration) -> Result<Piece, RecvTimeoutError> {
        loop {
            if let Some(piece) = self.pending.pop_front() {
                return Ok(piece);
            }
            self.pending = self.rx.recv_timeout(time)?.into();
        }
    }
}

/// A running `exec:` program: its process, its stdout as lines, the end of its stderr.
struct Running {
    child: Child,
    lines: Pieces,
    stderr: Arc<Mutex<Vec<String>>>,
    stderr_done: Receiver<()>,
}

impl Running {
    fn start(
        port: &ExecEngine,
        setup: &Setup,
        depth: u8,
        book: bool,
    ) -> Result<Running, ExecError> {
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

        let (tx, lines) = mpsc::sync_channel(BATCHES_IN_FLIGHT);
        thread::spawn(move || {
            // As much as a pipe holds (64 KiB on Linux), so that one read can take all a
            // fast program has written.
            let mut reader = BufReader::with_capacity(1 << 16, stdout);
            // Lines go in batches of what was read at once: one wake-up of the reading
            // thread per batch, not per line (docs/checking-your-port.md, "The referee's
            // own speed"); a slow program's line is sent as soon as it is read.
            let mut batch = Vec::new();
            let mut batch_bytes = 0;
            loop {
                // Room for a trace line as most are, so that it is not grown piece by piece;
                // the batch counts what the lines hold, room included.
                let mut line = Vec::with_capacity(160);
                let read = (&mut reader)
                    .take(MAX_LINE_BYTES as u64 + 1)
                    .read_until(b'\n', &mut line);
                batch_bytes += line.capacity();
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
                batch.push(piece);
                if last || reader.buffer().is_empty() || batch_bytes >= BATCH_BYTES {
                    batch_bytes = 0;
                    let nobody_reads = tx.send(std::mem::take(&mut batch)).is_err();
                    if nobody_reads || last {
                        return;
                    }
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
            lines: Pieces {
                rx: lines,
                pending: Default::default(),
            },
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

    /// The next piece of output once the `result` event is read, within `time`: the end
    /// of the output when the program has exited and nothing more comes, even if a process
    /// it left behind still holds its stdout open (else the search would wait out the
    /// whole timeout). What such a process holds is ended with it.
    fn next_after_result(&mut self, time: Duration) -> Result<Piece, RecvTimeoutError> {
        // How long to wait for more lines once the program has exited: what it wrote
        // before exiting is in the pipe already and is read at once.
        const QUIET: Duration = Duration::from_millis(50);
        let deadline = Instant::now() + time;
        let mut exited = false;
        loop {
            let slice = QUIET.min(deadline.saturating_duration_since(Instant::now()));
            match self.lines.recv_timeout(slice) {
                Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => {}
                other => return other,
            }
            if exited {
                self.kill_group();
                return Ok(Piece::End);
            }
            exited = matches!(self.child.try_wait(), Ok(Some(_)));
        }
    }

    /// Kill what is left of the program's process group (the program itself has exited).
    fn kill_group(&mut self) {
        #[cfg(unix)]
        // SAFETY: as in `kill`: the group is alive (one of its processes holds the pipe
        // we read), so its id is still its own.
        unsafe {
            libc::kill(-(self.child.id() as libc::pid_t), libc::SIGKILL);
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

/// Read the program's trace to its end, handing each event to `sink`, and return the
/// best move and score of its `result` event and the events before it. Lines past the
/// `result` event are handed on too, so that a comparison sees a trace longer than the
/// other; a stop request ends the reading after the line at hand.
fn read_trace(
    running: &mut Running,
    timeout: Duration,
    opts: &SearchOptions,
    sink: &mut dyn FnMut(Event),
) -> Result<(Option<sargon_core::SMove>, sargon_core::Score, u64), SearchError> {
    // The timeout counts the time spent waiting for the program only.
    let mut waited = Duration::ZERO;
    let mut lines = 0usize;
    let mut events = 0u64;
    let mut result = None;
    loop {
        if opts.stop_requested() {
            return Err(SearchError::Stopped);
        }
        let ready = match result {
            None => running.lines.pending.pop_front(),
            Some(_) => None,
        };
        let piece = match ready {
            // A line already read means no waiting, and no clock to read: reading it for
            // each line was a few per cent of the referee's time.
            Some(piece) => Ok(piece),
            None => {
                let left_time = timeout.saturating_sub(waited);
                let started = Instant::now();
                let piece = match result {
                    None => running.lines.recv_timeout(left_time),
                    Some(_) => running.next_after_result(left_time),
                };
                waited += started.elapsed();
                piece
            }
        };
        let bytes = match piece {
            Err(RecvTimeoutError::Timeout) => {
                return Err(external(ExecError::TimedOut {
                    seconds: timeout,
                    lines,
                }))
            }
            Ok(Piece::End) | Err(RecvTimeoutError::Disconnected) => break,
            Ok(Piece::Failed(e)) => return Err(external(ExecError::Read(e))),
            Ok(Piece::TooLong(start)) => {
                return Err(external(ExecError::LineTooLong {
                    line: lines + 1,
                    start: echo(&String::from_utf8_lossy(&start)),
                }))
            }
            Ok(Piece::Line(bytes)) => bytes,
        };
        lines += 1;
        let text = std::str::from_utf8(&bytes).map_err(|_| {
            external(ExecError::NotUtf8 {
                line: lines,
                text: echo(&String::from_utf8_lossy(&bytes)),
            })
        })?;
        // A byte-order mark, as some editors and runtimes (PowerShell, .NET) write first.
        let text = match lines {
            1 => text.strip_prefix('\u{feff}').unwrap_or(text),
            _ => text,
        };
        let event = match parse_trace_line(text) {
            Ok(TraceLine::Event(e)) => e,
            Ok(TraceLine::Rom) if lines == 1 => continue,
            Ok(TraceLine::Rom) => return Err(external(ExecError::LateRomLine { line: lines })),
            Err(problem) => {
                return Err(external(ExecError::BadLine {
                    line: lines,
                    text: echo(text),
                    problem,
                }))
            }
        };
        match &event {
            Event::Result { best, score } if result.is_none() => {
                result = Some((*best, *score, events));
            }
            _ if result.is_none() => events += 1,
            _ => {}
        }
        sink(event);
    }
    // The output has ended: the program's exit decides whether the trace counts.
    let status = running
        .wait(timeout.saturating_sub(waited))
        .ok_or(external(ExecError::TimedOut {
            seconds: timeout,
            lines,
        }))?;
    if !status.success() {
        return Err(external(ExecError::Exited {
            status: status_words(status),
            lines,
            stderr: running.stderr_tail(),
        }));
    }
    if lines == 0 {
        return Err(external(ExecError::NoOutput {
            stderr: running.stderr_tail(),
        }));
    }
    result.ok_or(external(ExecError::NoResult { lines }))
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
