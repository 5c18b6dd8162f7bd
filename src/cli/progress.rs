//! The progress bar of long commands (batch analysis, `diff`): on stderr, drawn only on a
//! terminal. It lives in the CLI because the library reports progress through callbacks and
//! leaves the drawing to whoever calls it.

use std::io::IsTerminal;
use std::time::Duration;

/// A progress bar on stderr, drawn only when stderr is a terminal (so it never mixes with
/// machine-readable output, and logs stay clean). Cheap to clone and to share between
/// threads.
#[derive(Clone)]
pub struct Progress {
    bar: indicatif::ProgressBar,
    visible: bool,
}

impl Progress {
    /// A bar for `total` items of `what` ("positions"), visible when stderr is a terminal.
    pub fn new(total: u64, what: &str) -> Progress {
        Progress::with_visibility(total, what, std::io::stderr().is_terminal())
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
        Progress { bar, visible }
    }

    /// One more item done.
    pub fn inc(&self) {
        self.bar.inc(1);
    }

    /// A short note after the counts (e.g. the last position's id, a running score).
    pub fn set_message(&self, msg: impl Into<String>) {
        self.bar.set_message(msg.into());
    }

    /// Print a line on stderr above the bar (or plainly when there is no bar).
    pub fn println(&self, line: impl AsRef<str>) {
        if self.visible {
            self.bar.println(line.as_ref());
        } else {
            eprintln!("{}", line.as_ref());
        }
    }

    /// Run `f` (which prints, e.g. on stdout) with the bar taken off the screen.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Remove the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
