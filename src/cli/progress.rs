//! Signs of life on stderr, drawn only on a terminal: the progress bar of long commands
//! (batch analysis, `diff`), and the ticker of one long search (`analyze`, `trace`,
//! `tree`). With `--progress` the ticker writes a plain line a second wherever stderr goes
//! (a log, CI). They live in the CLI because the library reports progress through
//! callbacks and hooks and leaves the drawing to whoever calls it.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use sargon_core::hooks::{FnHook, Hook, HookPoint};

/// `--progress`: the search ticker writes a line a second even when stderr is no terminal.
static FORCED_LINES: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Set once from the command line (`--progress`).
pub(crate) fn force_lines(on: bool) {
    FORCED_LINES.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// How the ticker shows itself.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum TickerStyle {
    /// Nothing (stderr is not a terminal, or the command's output is on it).
    Hidden,
    /// One line redrawn in place, with a spinner.
    Terminal,
    /// A new line every second (`--progress` on a pipe or a file).
    Lines,
}

/// The characters of the spinner, one per redraw.
const SPINNER: [char; 4] = ['|', '/', '-', '\\'];

/// A progress bar on stderr, drawn only when stderr is a terminal (so it never mixes with
/// machine-readable output, and logs stay clean). Cheap to clone and to share between
/// threads.
#[derive(Clone)]
pub(crate) struct Progress {
    bar: indicatif::ProgressBar,
    visible: bool,
    /// With `--progress` and no terminal: what is counted, and when the last line was
    /// written (a line at most every [`LINE_EVERY`]).
    lines: Option<std::sync::Arc<ProgressLines>>,
}

/// The plain lines of a [`Progress`] under `--progress`.
struct ProgressLines {
    what: String,
    started: Instant,
    last: std::sync::Mutex<Instant>,
}

/// How often `--progress` writes a line for a bar.
const LINE_EVERY: Duration = Duration::from_secs(5);

impl Progress {
    /// A bar for `total` items of `what` ("positions"), visible when stderr is a terminal;
    /// with `--progress` and no terminal, a plain line every few seconds instead.
    pub(crate) fn new(total: u64, what: &str) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let mut progress = Progress::with_visibility(total, what, terminal);
        if !terminal && FORCED_LINES.load(std::sync::atomic::Ordering::Relaxed) {
            let now = Instant::now();
            progress.lines = Some(std::sync::Arc::new(ProgressLines {
                what: what.to_string(),
                started: now,
                last: std::sync::Mutex::new(now),
            }));
        }
        progress
    }

    fn with_visibility(total: u64, what: &str, visible: bool) -> Progress {
        let target = if visible {
            indicatif::ProgressDrawTarget::stderr()
        } else {
            indicatif::ProgressDrawTarget::hidden()
        };
        let bar = indicatif::ProgressBar::with_draw_target(Some(total), target);
        let style = indicatif::ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {what} (eta {{eta}}) {{msg}}"
        ))
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> ");
        bar.set_style(style);
        if visible {
            bar.enable_steady_tick(Duration::from_millis(250));
        }
        Progress {
            bar,
            visible,
            lines: None,
        }
    }

    /// One more item done.
    pub(crate) fn inc(&self) {
        self.bar.inc(1);
        if let Some(lines) = &self.lines {
            let now = Instant::now();
            let mut last = lines.last.lock().unwrap_or_else(|e| e.into_inner());
            let done = self.bar.position();
            let total = self.bar.length().unwrap_or(done);
            if now.duration_since(*last) >= LINE_EVERY || done == total {
                *last = now;
                eprintln!("{}", lines.line(done, total, &self.bar.message(), now));
            }
        }
    }

    /// A short note after the counts (e.g. the last position's id, a running score).
    pub(crate) fn set_message(&self, msg: impl Into<String>) {
        self.bar.set_message(msg.into());
    }

    /// Print a line on stderr above the bar (or plainly when there is no bar).
    pub(crate) fn println(&self, line: impl AsRef<str>) {
        if self.visible {
            self.bar.println(line.as_ref());
        } else {
            eprintln!("{}", line.as_ref());
        }
    }

    /// Run `f` (which prints, e.g. on stdout) with the bar taken off the screen.
    pub(crate) fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Remove the bar.
    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl ProgressLines {
    /// "120/3000 searches, 4 min 2 s, about 1 h 36 min left (line 41)".
    fn line(&self, done: u64, total: u64, message: &str, now: Instant) -> String {
        let elapsed = now.duration_since(self.started).as_secs_f64();
        let mut line = format!(
            "{done}/{total} {}, {}",
            self.what,
            super::human_duration(elapsed)
        );
        if done > 0 && done < total {
            let left = elapsed * (total - done) as f64 / done as f64;
            line += &format!(", about {} left", super::human_duration(left));
        }
        if !message.is_empty() {
            line += &format!(" ({message})");
        }
        line
    }
}

/// The ticker of one search: once the search has run for a second, a line on stderr with
/// the depth, the positions evaluated so far and the time, redrawn four times a second
/// and erased when the search ends. Only on a terminal, so that logs and pipes stay clean.
///
/// It is fed by a hook at `points.end` ([`SearchTicker::hook`]), which counts and, every
/// few thousand positions, looks at the clock: cheap enough to leave on for every search.
pub(crate) struct SearchTicker {
    depth: u8,
    style: TickerStyle,
    draws: usize,
    started: Instant,
    next_draw: Instant,
    evaluations: u64,
    /// Positions until the clock is read again.
    countdown: u32,
    drawn: bool,
}

/// Positions evaluated between two looks at the clock.
const TICKER_STRIDE: u32 = 4096;

impl SearchTicker {
    /// A ticker for a search to `depth`, drawn when stderr is a terminal and `wanted`
    /// (false where the command's own output already shows life on the same terminal),
    /// or written a line a second with `--progress` when stderr is not a terminal.
    pub(crate) fn new(depth: u8, wanted: bool) -> SearchTicker {
        let started = Instant::now();
        let terminal = std::io::stderr().is_terminal();
        let style = if wanted && terminal {
            TickerStyle::Terminal
        } else if !terminal && FORCED_LINES.load(std::sync::atomic::Ordering::Relaxed) {
            TickerStyle::Lines
        } else {
            TickerStyle::Hidden
        };
        SearchTicker {
            depth,
            style,
            draws: 0,
            started,
            next_draw: started + Duration::from_secs(1),
            evaluations: 0,
            countdown: TICKER_STRIDE,
            drawn: false,
        }
    }

    /// The hook that feeds the ticker, for the search's extra hooks.
    pub(crate) fn hook(&mut self) -> impl Hook + '_ {
        FnHook::new(&[HookPoint::PointsEnd], move |_| self.tick())
    }

    /// Run `search` with the ticker's hook as its extra hooks when the engine takes hooks
    /// (`hooks`, [`sargon_core::Capabilities::hooks`]); an engine without them (another
    /// person's port) searches without a ticker.
    pub(crate) fn around<T>(
        &mut self,
        hooks: bool,
        search: impl FnOnce(&mut [&mut dyn Hook]) -> T,
    ) -> T {
        if hooks {
            let mut hook = self.hook();
            search(&mut [&mut hook])
        } else {
            search(&mut [])
        }
    }

    /// One more position evaluated.
    fn tick(&mut self) {
        self.evaluations += 1;
        if self.style == TickerStyle::Hidden {
            return;
        }
        self.countdown -= 1;
        if self.countdown > 0 {
            return;
        }
        self.countdown = TICKER_STRIDE;
        let now = Instant::now();
        if now < self.next_draw {
            return;
        }
        let status = format!(
            "searching to depth {}: {} positions evaluated, {}",
            self.depth,
            self.evaluations,
            super::human_duration(now.duration_since(self.started).as_secs_f64())
        );
        // Through the binary's `eprint!` (crate::streams): a failed write is never a panic.
        if self.style == TickerStyle::Lines {
            self.next_draw = now + Duration::from_secs(1);
            eprintln!("{status}");
        } else {
            self.next_draw = now + Duration::from_millis(250);
            let spin = SPINNER[self.draws % SPINNER.len()];
            eprint!("\r\x1b[K{spin} {status}");
            self.drawn = true;
        }
        self.draws += 1;
    }

    /// Erase the line, if one was drawn (before the command prints its results).
    pub(crate) fn clear(&mut self) {
        if self.drawn {
            eprint!("\r\x1b[K");
            self.drawn = false;
        }
    }
}

impl Drop for SearchTicker {
    fn drop(&mut self) {
        self.clear();
    }
}
