//! The `sargon` command: a thin dispatcher over the subcommands in `cli/`, each a thin layer
//! of arguments and printing over the `sargon` library.

// A binary has no public API: what its modules share is `pub(crate)`, and the lint keeps
// it so.
#![warn(unreachable_pub)]

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;
#[cfg(feature = "serve")]
mod serve;
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
    Serve(serve::ServeArgs),
}

/// Writing to a closed or full standard output makes `println!` panic ("failed printing to
/// stdout: ..."). The commands print with `println!` throughout, so rather than carry an
/// `io::Result` through every line, the panic hook turns that one panic into the
/// conventional ends: for a closed pipe (`sargon rom info | head -1`) silence and status
/// 0, as ripgrep does (and as `sargon trace` does by its own checks): the reader has what
/// it wanted; for any other failure (a full disk) one line on stderr and status 1. SIGPIPE itself stays ignored, as Rust sets
/// it: `play` writes to other engines' pipes, and one that dies must not take us with it.
fn end_quietly_when_stdout_fails() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if let Some(why) = message.strip_prefix("failed printing to stdout: ") {
            if why.contains("Broken pipe") {
                std::process::exit(0);
            }
            use std::io::Write as _;
            let _ = writeln!(std::io::stderr(), "error: cannot write the output: {why}");
            std::process::exit(1);
        }
        default(info);
    }));
}

/// The command line, or clap's refusal and exit. Clap quotes what it refuses as it was
/// typed (`invalid value '...' for '--depth <DEPTH>'`, `unexpected argument '...'`): a 100 KB
/// value whole, a terminal escape raw. What it quotes goes through `echo` first, as every
/// other message's quotes do.
fn parse_arguments() -> Cli {
    use clap::error::{ContextKind, ContextValue};
    use sargon_core::input::echo;
    Cli::try_parse().unwrap_or_else(|mut error| {
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
        error.exit()
    })
}

fn main() -> ExitCode {
    end_quietly_when_stdout_fails();
    let cli = parse_arguments();
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
        Command::Serve(args) => serve::run(&store, args),
        // As diff(1): 0 the engines agree, 1 they differ (or a report found a gap), 2
        // trouble. A batch scheduler can then tell a shard that ran to its end from one
        // that failed (scripts/slurm/diff-array.sbatch).
        Command::Diff(args) => match cli::diff::run(&store, args) {
            Ok(true) => return ExitCode::SUCCESS,
            // Divergences were reported on stdout: no other message.
            Ok(false) => return ExitCode::from(1),
            Err(e) => {
                eprintln!("error: {e:#}");
                return ExitCode::from(2);
            }
        },
        // As diff: 0 the cores agree, 1 they disagree (reported on stdout), 2 trouble.
        Command::Emulator { command } => match cli::emulator::run(&store, command) {
            Ok(true) => return ExitCode::SUCCESS,
            Ok(false) => return ExitCode::from(1),
            Err(e) => {
                eprintln!("error: {e:#}");
                return ExitCode::from(2);
            }
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
