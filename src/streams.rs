//! The one writer of the command's standard output and standard error, with one rule for
//! a write that fails (docs/reliability.md, "stderr (round three)"):
//!
//! - A closed pipe is the reader saying it has had enough, never an error, and never a
//!   message. On stdout, the command's product, there is nothing left to do: the command
//!   stops at once, status 0 (`sargon rom info | head -1`). On stderr, the commentary
//!   (progress, notes, warnings, errors), the product may still be wanted: the command goes
//!   on without its commentary and ends with the status it would have had
//!   (`sargon diff ... 2>&1 >results | head -1`).
//! - Any other failure (a full disk, `/dev/full`) is an error: the command's "trouble"
//!   status (1, or 2 for `diff` and `emulator`, whose 1 means "they differ"). On stdout the
//!   command stops at once with one line on stderr; on stderr it goes on without its
//!   commentary (a message about a full stderr has nowhere to go) and ends with that status.
//! - Neither ever panics, in the main thread or in any other (workers, the explorer).
//!
//! `println!`, `print!`, `eprintln!` and `eprint!` of the whole binary come here through
//! the macros of the same names defined in `main.rs`; code that writes stdout through
//! [`io::Write`] (a `BufWriter`, the UCI session) takes [`Stdout`].

use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicU8, Ordering};

/// What has become of stderr: every write is tried until the first one fails, then none.
static STDERR: AtomicU8 = AtomicU8::new(STDERR_OPEN);
const STDERR_OPEN: u8 = 0;
const STDERR_CLOSED: u8 = 1;
const STDERR_FAILED: u8 = 2;

/// The exit status of a command that could not write: 1, or 2 for `diff` and `emulator`.
static TROUBLE: AtomicU8 = AtomicU8::new(1);

/// Set, once the command is known, the status that means "trouble" for it.
pub(crate) fn set_trouble_status(status: u8) {
    TROUBLE.store(status, Ordering::Relaxed);
}

fn trouble_status() -> u8 {
    TROUBLE.load(Ordering::Relaxed)
}

/// Write to stdout (`println!`, `print!`); a failure ends the command ([`stdout_failed`]).
pub(crate) fn write_out(args: fmt::Arguments<'_>) {
    if let Err(e) = io::stdout().write_fmt(args) {
        stdout_failed(&e);
    }
}

/// Write to stderr (`eprintln!`, `eprint!`); after a failure, nothing more is tried and the
/// failure is kept for the exit status ([`exit_code`]).
pub(crate) fn write_err(args: fmt::Arguments<'_>) {
    if STDERR.load(Ordering::Relaxed) != STDERR_OPEN {
        return;
    }
    if let Err(e) = io::stderr().write_fmt(args) {
        stderr_failed(&e);
    }
}

/// Stderr could not be written: nothing more is tried, and the exit status will say so
/// unless the pipe was closed.
pub(crate) fn stderr_failed(e: &io::Error) {
    let state = if e.kind() == io::ErrorKind::BrokenPipe {
        STDERR_CLOSED
    } else {
        STDERR_FAILED
    };
    STDERR.store(state, Ordering::Relaxed);
}

/// Stdout for code that writes through [`io::Write`]: a failed write ends the command as
/// `println!`'s does, so callers never see a write error.
pub(crate) struct Stdout;

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match io::stdout().write(buf) {
            Err(e) if e.kind() != io::ErrorKind::Interrupted => stdout_failed(&e),
            written => written,
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        io::stdout().flush().or_else(|e| stdout_failed(&e))
    }
}

/// Stdout could not be written: stop, quietly with status 0 for a closed pipe, else with
/// one line on stderr and the trouble status.
pub(crate) fn stdout_failed(e: &io::Error) -> ! {
    std::process::exit(final_status(status_after_stdout_failed(e, 0)).into())
}

/// The status of a command whose stdout failed with `e`: `status` for a closed pipe, else,
/// after one line on stderr, the trouble status (or `status`, if worse).
fn status_after_stdout_failed(e: &io::Error, status: u8) -> u8 {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return status;
    }
    write_err(format_args!("error: cannot write the output: {e}\n"));
    status.max(trouble_status())
}

/// `status`, or the trouble status if stderr failed (other than by a closed pipe).
fn final_status(status: u8) -> u8 {
    if STDERR.load(Ordering::Relaxed) == STDERR_FAILED {
        status.max(trouble_status())
    } else {
        status
    }
}

/// The exit status of a command that ended with `status`: stdout is flushed (the command
/// has ended, so a closed pipe leaves its status as it is), and a stderr that could not be
/// written makes a success the trouble status.
pub(crate) fn exit_code(status: u8) -> std::process::ExitCode {
    let status = match io::stdout().flush() {
        Ok(()) => status,
        Err(e) => status_after_stdout_failed(&e, status),
    };
    std::process::ExitCode::from(final_status(status))
}

/// The panic hook's part: std's "failed printing to stdout" panic (from code that printed
/// with `std::println!` rather than through this module: a dependency) ends the command as
/// [`write_out`] would; any other panic is left to the default hook.
pub(crate) fn std_print_failed(message: &str) {
    if let Some(why) = message.strip_prefix("failed printing to stdout: ") {
        let kind = if why.contains("Broken pipe") {
            io::ErrorKind::BrokenPipe
        } else {
            io::ErrorKind::Other
        };
        stdout_failed(&io::Error::new(kind, why.to_string()));
    }
}
