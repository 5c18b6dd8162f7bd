//! The tests that call the studies directly. They were integration tests while the studies
//! were a crate; a binary's modules are out of reach of `tests/`, so they are unit tests
//! now. The tests of the same commands that only run the binary stay in `tests/`
//! (`tests/it/history.rs`, `tests/it/listing.rs`); where a test needs both, its checks of what
//! the command prints are there and its checks of the studies' values here.

// The integration tests' ROM gate, the same file, so that these tests too print the lines
// `.ci/run` counts and fail for want of the ROM under `SARGON_REQUIRE_ROM=1`. Its items are
// `pub` for `tests/it/common`, which re-exports them; here they are only this module's.
#[allow(unreachable_pub)]
#[path = "../../../tests/it/common/rom_gate.rs"]
mod rom_gate;

mod history;
mod whole_games;

use clap::Parser as _;

/// `sargon ARGS`, parsed as `main` parses it.
fn command(args: &[&str]) -> crate::Cli {
    crate::Cli::try_parse_from(std::iter::once("sargon").chain(args.iter().copied()))
        .unwrap_or_else(|e| panic!("sargon {args:?}: {e}"))
}

/// `sargon history ARGS` run in this process, as `main` runs it: the files it writes can
/// be read back with the studies' own functions. (A unit test has no
/// `CARGO_BIN_EXE_sargon` to run the binary with; what the command prints is checked from
/// `tests/it/history.rs`.)
fn history(args: &[&str]) -> anyhow::Result<()> {
    let cli = command(&[&["history"], args].concat());
    let store = crate::cli::store(cli.roms.as_ref());
    match cli.command {
        crate::Command::History { command } => crate::cli::history::run(&store, command),
        _ => unreachable!("a history command"),
    }
}
