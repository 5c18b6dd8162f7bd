//! The command line: one module per `sargon` subcommand, each with its clap arguments and
//! a `run` function, over the library. `src/main.rs` only dispatches.
//!
//! Shared here: how a command names its engine ([`EngineArgs`], a specification the library
//! opens: [`open_engine`]) and the emulator's Z80 core ([`CoreArgs`]), and the output format
//! switch.

use std::path::PathBuf;

use anyhow::Result;
use clap::ValueEnum;
use shakmaty::Chess;

use sargon_core::engine::{Engine, SearchOptions};
use sargon_core::position::Book;
use sargon_core::position::{self, Setup};
use sargon_engines::engines::{EngineSpec, OpenOptions, SpecError};
use sargon_original::emu::Core;
use sargon_original::rom::RomStore;

pub(crate) mod analyze;
pub(crate) mod annotate;
pub(crate) mod bench;
pub(crate) mod cache;
pub(crate) mod diff;
pub(crate) mod diff_causes;
pub(crate) mod diff_state;
pub(crate) mod emulator;
pub(crate) mod graphviz;
pub(crate) mod history;
pub(crate) mod listing;
pub(crate) mod models;
pub(crate) mod numbers;
pub(crate) mod play;
pub(crate) mod profile;
pub(crate) mod progress;
pub(crate) mod rom;
#[cfg(feature = "serve")]
pub(crate) mod serve;
pub(crate) mod text;
pub(crate) mod trace;
pub(crate) mod tree;
pub(crate) mod uci;

pub(crate) use numbers::parse_depth;

/// Text for people or JSON for programs.
#[derive(Copy, Clone, Debug, ValueEnum, PartialEq, Eq)]
pub(crate) enum Format {
    Text,
    Json,
}

/// Which engine a command drives, and how it sets up positions.
#[derive(clap::Args, Clone, Debug)]
pub(crate) struct EngineArgs {
    /// Which engine runs the search: `port` (the native port), `emulator` (the original),
    /// `exec:COMMAND` (another port that prints its trace) or `uci:COMMAND` (another port
    /// that speaks UCI); docs/commands.md says which commands take which
    #[arg(long, default_value = "port", value_parser = parse_engine)]
    pub engine: EngineSpec,
    /// ROM to run with the emulator (default: the only one imported, or `sargon`)
    #[arg(long)]
    pub rom: Option<String>,
    /// Do not play from the opening book in the initial position or after one White move
    #[arg(long)]
    pub no_book: bool,
    /// The byte the book reads instead of the Z80's R register (bit 0: 1.e4 or 1.d4)
    #[arg(long, default_value_t = 0, value_parser = numbers::byte, allow_negative_numbers = true)]
    pub book_random: u8,
}

pub(crate) fn parse_engine(s: &str) -> Result<EngineSpec, SpecError> {
    s.parse()
}

/// Which Z80 core runs the original, for the commands that run long searches on it.
#[derive(clap::Args, Clone, Debug)]
pub(crate) struct CoreArgs {
    /// The Z80 core that runs the original: iz80 (the default) or z80emu, faster (the
    /// lock-step crosscheck shows the two agree on Sargon's code; docs/emulator.md)
    #[arg(long, value_name = "CORE", value_parser = parse_core)]
    pub core: Option<Core>,
}

fn parse_core(s: &str) -> Result<Core, sargon_original::emu::UnknownCore> {
    s.parse()
}

impl CoreArgs {
    /// [`CoreArgs::core`] as an engine specification names it: `None` for the default.
    pub(crate) fn name(&self, emulator_runs: bool, why: &str) -> Result<Option<String>> {
        self.core(emulator_runs, why)?;
        Ok(self.core.map(|c| c.to_string()))
    }

    /// The core, checked against what runs: `--core` where no emulator searches (only the
    /// port, another person's port) is refused, `why` saying what runs instead.
    pub(crate) fn core(&self, emulator_runs: bool, why: &str) -> Result<Core> {
        match self.core {
            Some(core) if !emulator_runs => anyhow::bail!(
                "--core {core} chooses the Z80 core of the emulator, and {why}: no Z80 code runs"
            ),
            core => Ok(core.unwrap_or_default()),
        }
    }
}

impl EngineArgs {
    /// The engine to open: `--engine`, with `--rom` and `--core` for the emulator (`--core`
    /// with another engine is refused: no Z80 code would run).
    pub(crate) fn spec(&self, core: &CoreArgs) -> Result<EngineSpec> {
        spec_with(&self.engine, self.rom.as_deref(), core)
    }

    /// Search options for `depth` with this engine choice's book byte.
    pub(crate) fn options(&self, depth: u8) -> SearchOptions {
        SearchOptions {
            depth,
            book_random: self.book_random,
            ..Default::default()
        }
    }

    /// Read a position (see [`read_position`]) and build Sargon's set-up with this
    /// choice's book switch.
    pub(crate) fn setup(&self, position_text: &str) -> Result<Setup> {
        let pos = read_position(position_text)?;
        Ok(position::setup(&pos, Book::from(!self.no_book))?)
    }
}

/// Read a position as a person gives it on the command line ([`position::read_position`]:
/// a FEN, `startpos`, a board alone, an EPD line, then maybe `moves ...`), printing on
/// stderr what had to be assumed or was ignored.
pub(crate) fn read_position(text: &str) -> Result<Chess> {
    let read = position::read_position(text)?;
    for notice in &read.notices {
        eprintln!("note: {notice}");
    }
    Ok(read.position)
}

/// The words of a position argument as one text: a FEN may be given quoted or as its
/// separate words (`sargon analyze 8/8/8/8/8/8/8/K1k5 w - - 0 1`).
pub(crate) fn position_text(words: &[String]) -> String {
    words.join(" ")
}

/// A path as a message quotes it: through [`echo`](sargon_core::input::echo), as any other
/// input (a path can hold a terminal escape, or be thousands of characters long).
pub(crate) fn shown(path: &std::path::Path) -> String {
    sargon_core::input::echo(&path.display().to_string())
}

/// The ROM store a command uses: `--roms`, `$SARGON_ROMS` or the XDG default.
pub(crate) fn store(roms: Option<&PathBuf>) -> RomStore {
    RomStore::open(roms.map(|p| p.as_path()))
}

/// `spec` with `--rom` and `--core` for the emulator; either where `spec` is no emulator is
/// refused.
pub(crate) fn spec_with(
    spec: &EngineSpec,
    rom: Option<&str>,
    core: &CoreArgs,
) -> Result<EngineSpec> {
    let who = match spec {
        EngineSpec::Port => "the port".to_string(),
        other => format!("`{other}`"),
    };
    let core = core.name(
        spec.is_emulator(),
        &format!("{who} searches (--engine emulator runs the original)"),
    )?;
    if let (Some(rom), false) = (rom, spec.is_emulator()) {
        // Said rather than ignored: whoever asked for a ROM expects the original to run.
        anyhow::bail!(
            "--rom {} names a ROM for the emulator, and {who} searches              (--engine emulator runs the original)",
            sargon_core::input::echo(rom)
        );
    }
    Ok(spec.clone().with_rom_and_core(rom, core.as_deref()))
}

/// How the command line opens engines: the store of `--roms`, and the timeout of another
/// person's port (`exec:`, `uci:`) per search.
pub(crate) fn open_options(store: &RomStore) -> OpenOptions {
    OpenOptions {
        store: store.clone(),
        timeout: sargon_engines::external::DEFAULT_TIMEOUT,
    }
}

/// Open the engine `spec` names ([`sargon_engines::engines::open`]), saying its warning
/// (an unverified ROM) on stderr once per process.
pub(crate) fn open_engine(store: &RomStore, spec: &EngineSpec) -> Result<Box<dyn Engine + Send>> {
    Ok(open_with(spec, &open_options(store))?)
}

/// [`open_engine`] with options of the caller's.
pub(crate) fn open_with(
    spec: &EngineSpec,
    options: &OpenOptions,
) -> std::result::Result<Box<dyn Engine + Send>, sargon_engines::engines::OpenError> {
    let opened = sargon_engines::engines::open(spec, options)?;
    say_warning(opened.warning);
    Ok(opened.engine)
}

/// Say an opened engine's warning on stderr, once per process.
pub(crate) fn say_warning(warning: Option<String>) {
    // Once per process: `play` and `diff --jobs` open an engine per game or worker.
    static WARNED: std::sync::Once = std::sync::Once::new();
    if let Some(warning) = warning {
        WARNED.call_once(|| eprintln!("warning: {warning}"));
    }
}

/// Seconds as "12.3 s", "4m16s" or "4h02m".
pub(crate) fn human_duration(secs: f64) -> String {
    if secs < 60.0 {
        format!("{secs:.1} s")
    } else if secs < 3600.0 {
        format!("{}m{:02.0}s", (secs / 60.0).floor(), (secs % 60.0).floor())
    } else {
        format!(
            "{}h{:02}m",
            (secs / 3600.0).floor(),
            ((secs % 3600.0) / 60.0).floor() as u32
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(human_duration(12.34), "12.3 s");
        assert_eq!(human_duration(256.0), "4m16s");
        assert_eq!(human_duration(4.0 * 3600.0 + 125.0), "4h02m");
    }
}
