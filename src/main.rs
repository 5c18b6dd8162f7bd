//! The `sargon` command: a thin dispatcher over the subcommands in `cli/`, each a thin layer
//! of arguments and printing over the `sargon` library.

// A binary has no public API: what its modules share is `pub(crate)`, and the lint keeps
// it so.
#![warn(unreachable_pub)]

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

// The printing macros of the whole binary, in place of std's: std's panic when a write
// fails ("failed printing to stderr: No space left on device"), and the command then ends
// with status 101 and a panic message. These go through `streams`, which applies the
// project's one rule for a stream that cannot be written (see there). Defined before the
// `mod` lines, they shadow std's in every module of the binary, so every call site, and
// every one written later, is covered without naming anything new.
macro_rules! println {
    () => {
        $crate::streams::write_out(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::streams::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}
macro_rules! print {
    ($($arg:tt)*) => {
        $crate::streams::write_out(format_args!($($arg)*))
    };
}
macro_rules! eprintln {
    () => {
        $crate::streams::write_err(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::streams::write_err(format_args!("{}\n", format_args!($($arg)*)))
    };
}
macro_rules! eprint {
    ($($arg:tt)*) => {
        $crate::streams::write_err(format_args!($($arg)*))
    };
}

mod cli;
mod streams;
mod studies;

#[derive(Parser)]
#[command(
    name = "sargon",
    version,
    about = "Sargon (1978) in a Z80 emulator and as a native Rust port"
)]
struct Cli {
    /// ROM store directory (default: $SARGON_ROMS, else $XDG_DATA_HOME/sargon/roms)
    #[arg(long, global = true, value_name = "DIR")]
    roms: Option<PathBuf>,
    /// Say how long work is going on stderr even when it is not a terminal, for logs and
    /// CI: a line a second for one search (depth, positions evaluated, time), a line every
    /// 5 s for many (done of total, time, time left)
    #[arg(long, global = true)]
    progress: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Import, list and inspect your copy of the original program
    Rom {
        #[command(subcommand)]
        command: cli::rom::RomCommand,
    },
    /// Ask Sargon for its move in a position
    Analyze(cli::analyze::AnalyzeArgs),
    /// Print every event of a search: nodes created, scores, alpha-beta and best-move decisions
    Trace(cli::trace::TraceArgs),
    /// The minimax and alpha-beta models of "A Window into Sargon", run on Sargon's own search
    Models(cli::models::ModelsArgs),
    /// Run the original and the port on the same searches and compare them event by event
    Diff(cli::diff::DiffArgs),
    /// The original's traces that `sargon diff` keeps for reruns: where, how big, clear
    Cache {
        #[command(subcommand)]
        command: cli::cache::CacheCommand,
    },
    /// Measure the port against the emulator, and against the TRS-80 of 1978
    Bench(cli::bench::BenchArgs),
    /// Speak the UCI protocol on stdin/stdout, for chess GUIs (see docs/uci.md)
    Uci(cli::uci::UciArgs),
    /// Play a match against another UCI engine or Sargon at another level, with PGN out
    Play(cli::play::PlayArgs),
    /// Sargon's score, choice and line on every move of the games of a PGN file
    Annotate(cli::annotate::AnnotateArgs),
    /// Draw Sargon's search tree: DOT, SVG (with Graphviz) or an indented text tree
    Tree(cli::tree::TreeArgs),
    /// Where a search spends its instructions and T-states, routine by routine
    Profile(cli::profile::ProfileArgs),
    /// Sargon's speed on the machines of 1978: estimated TRS-80 times against the manual's
    History {
        #[command(subcommand)]
        command: cli::history::HistoryCommand,
    },
    /// Disassemble the imported program with its symbols, T-states and hook points
    Listing(cli::listing::ListingArgs),
    /// Check the emulator itself: the original on a second Z80 core in lock-step
    Emulator {
        #[command(subcommand)]
        command: cli::emulator::EmulatorCommand,
    },
    /// Explore Sargon's searches in the browser: the tree, the PV, both engines side by side
    #[cfg(feature = "serve")]
    Serve(cli::serve::ServeArgs),
}

/// Everything the binary prints goes through `streams` (the macros above), which never
/// panics. A dependency printing with std's `println!` to a closed or full stdout would
/// still panic ("failed printing to stdout: ..."): the hook turns that one panic into the
/// same ends as `streams` gives. SIGPIPE itself stays ignored, as Rust sets it: `play`
/// writes to other engines' pipes, and one that dies must not take us with it.
fn end_quietly_when_stdout_fails() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        streams::std_print_failed(message);
        default(info);
    }));
}

/// The command line, or clap's refusal and exit. Clap quotes what it refuses as it was
/// typed (`invalid value '...' for '--depth <DEPTH>'`, `unexpected argument '...'`): a 100 KB
/// value whole, a terminal escape raw. What it quotes goes through `echo` first, as every
/// other message's quotes do.
fn parse_arguments() -> Result<Cli, ExitCode> {
    use clap::error::{ContextKind, ContextValue};
    use sargon_core::input::echo;
    Cli::try_parse().map_err(|mut error| {
        for kind in [
            ContextKind::InvalidValue,
            ContextKind::InvalidArg,
            ContextKind::InvalidSubcommand,
            ContextKind::PriorArg,
        ] {
            if let Some(ContextValue::String(text)) = error.get(kind) {
                let quoted = ContextValue::String(echo(text));
                error.insert(kind, quoted);
            }
        }
        // The tips repeat the argument (`to pass '...' as a value, use '-- ...'`).
        if let Some(ContextValue::StyledStrs(tips)) = error.get(ContextKind::Suggested) {
            let tips = tips.iter().map(|t| echo(&t.to_string()).into()).collect();
            error.insert(ContextKind::Suggested, ContextValue::StyledStrs(tips));
        }
        // As `error.exit()`, but a help text or a refusal that cannot be written is
        // handled as any other output: clap's own `exit` ignores a failed write.
        if let Err(e) = error.print() {
            if error.use_stderr() {
                streams::stderr_failed(&e);
            } else {
                streams::stdout_failed(&e);
            }
        }
        streams::exit_code(u8::try_from(error.exit_code()).unwrap_or(2))
    })
}

fn main() -> ExitCode {
    end_quietly_when_stdout_fails();
    let cli = match parse_arguments() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    // Diff and emulator say "they differ" with 1 (see below): trouble is 2 for them.
    if matches!(cli.command, Command::Diff(_) | Command::Emulator { .. }) {
        streams::set_trouble_status(2);
    }
    cli::progress::force_lines(cli.progress);
    let store = cli::store(cli.roms.as_ref());
    let result = match cli.command {
        Command::Rom { command } => cli::rom::run(&store, command),
        Command::Analyze(args) => cli::analyze::run(&store, args),
        Command::Trace(args) => cli::trace::run(&store, args),
        Command::Models(args) => cli::models::run(&store, args),
        Command::Uci(args) => cli::uci::run(&store, args),
        Command::Play(args) => cli::play::run(&store, args),
        Command::Annotate(args) => cli::annotate::run(&store, args),
        Command::Tree(args) => cli::tree::run(&store, args),
        Command::Profile(args) => cli::profile::run(&store, args),
        Command::History { command } => cli::history::run(&store, command),
        Command::Listing(args) => cli::listing::run(&store, args),
        Command::Bench(args) => cli::bench::run(&store, args),
        Command::Cache { command } => cli::cache::run(command),
        #[cfg(feature = "serve")]
        Command::Serve(args) => cli::serve::run(&store, args),
        // As diff(1): 0 the engines agree, 1 they differ (or a report found a gap), 2
        // trouble. A batch scheduler can then tell a shard that ran to its end from one
        // that failed (scripts/slurm/diff-array.sbatch).
        Command::Diff(args) => match cli::diff::run(&store, args) {
            Ok(true) => return streams::exit_code(0),
            // Divergences were reported on stdout: no other message.
            Ok(false) => return streams::exit_code(1),
            Err(e) => {
                eprintln!("error: {e:#}");
                return streams::exit_code(2);
            }
        },
        // As diff: 0 the cores agree, 1 they disagree (reported on stdout), 2 trouble.
        Command::Emulator { command } => match cli::emulator::run(&store, command) {
            Ok(true) => return streams::exit_code(0),
            Ok(false) => return streams::exit_code(1),
            Err(e) => {
                eprintln!("error: {e:#}");
                return streams::exit_code(2);
            }
        },
    };
    match result {
        Ok(()) => streams::exit_code(0),
        Err(e) => {
            eprintln!("error: {e:#}");
            streams::exit_code(1)
        }
    }
}
