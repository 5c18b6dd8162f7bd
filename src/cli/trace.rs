//! `sargon trace`: every event of a search, as text, JSON Lines or a digest.

use std::io::{self, IsTerminal, Write};

use anyhow::{Context, Result};

use super::progress::SearchTicker;
use super::{open_engine, CoreArgs, EngineArgs};
use sargon_core::digest::DigestBuilder;
use sargon_core::engine::Capability;
use sargon_core::record;
use sargon_core::trace::{self, Detail};
use sargon_original::rom::RomStore;

#[derive(Copy, Clone, Debug, clap::ValueEnum, PartialEq, Eq)]
pub(crate) enum TraceFormat {
    /// One event per line (docs/trace-format.md)
    Text,
    /// JSON Lines: one JSON object per event
    Jsonl,
    /// Event counts per kind and the SHA-256 of the text form
    Digest,
}

#[derive(clap::Args, Debug)]
pub(crate) struct TraceArgs {
    /// A FEN (quoted or as separate words), `startpos`, a board alone or an EPD line,
    /// then maybe `moves` and moves in UCI notation
    #[arg(required = true, num_args = 1..)]
    pub position: Vec<String>,
    /// Search depth in plies (Sargon's PLYMAX): 1-20 on the port, 1-6 on the emulator
    #[arg(long, short, default_value_t = 2, value_parser = super::parse_depth, allow_negative_numbers = true)]
    pub depth: u8,
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub core: CoreArgs,
    #[arg(long, value_enum, default_value_t = TraceFormat::Text)]
    pub format: TraceFormat,
}

pub(crate) fn run(store: &RomStore, args: TraceArgs) -> Result<()> {
    let spec = args.engine.spec(&args.core)?;
    spec.check_depth(args.depth)?;
    let setup = args.engine.setup(&super::position_text(&args.position))?;
    let mut engine = open_engine(store, &spec)?;
    engine.require(Capability::Trace, "sargon trace")?;
    let opts = args.engine.options(args.depth);
    // Events are written as they happen. A write that fails ends the command there and
    // then (`crate::streams`): a closed pipe (`sargon trace ... | head`) quietly, with 0.
    let mut out = io::BufWriter::new(crate::streams::Stdout);
    let mut digest = DigestBuilder::new();
    let format = args.format;
    // The forms say when the ROM is not trusted, before the events (docs/trace-format.md):
    // the text forms in a comment line, JSON Lines in a first object of its own.
    if let Some(rom) = engine.rom_id() {
        if let Some(note) = rom.unverified_note() {
            if format == TraceFormat::Jsonl {
                let line = serde_json::json!({
                    "event": "rom",
                    "name": rom.name,
                    "sha256": rom.sha256,
                    "verified": false,
                    "note": note,
                });
                writeln!(out, "{line}").context("writing the trace")?;
            } else {
                writeln!(out, "# {note}").context("writing the trace")?;
            }
        } else if !rom.allowed_differences.is_empty() {
            if format == TraceFormat::Jsonl {
                let line = serde_json::json!({
                    "event": "rom",
                    "name": rom.name,
                    "sha256": rom.sha256,
                    "verified": true,
                    "allowed_differences": rom.allowed_differences,
                });
                writeln!(out, "{line}").context("writing the trace")?;
            } else {
                writeln!(
                    out,
                    "# ROM `{}` differs from the known image only where no search runs or reads: {}",
                    rom.name,
                    rom.allowed_differences.join(", ")
                )
                .context("writing the trace")?;
            }
        }
    }
    let emit = |e: trace::Event| {
        // No error comes back from `streams::Stdout`: it ends the command instead.
        let _ = match format {
            TraceFormat::Text => writeln!(out, "{e}"),
            TraceFormat::Jsonl => writeln!(out, "{}", e.to_json()),
            TraceFormat::Digest => {
                digest.add(&e);
                Ok(())
            }
        };
    };
    // The events on the terminal are sign enough of life; a digest, or events going to a
    // file or a pipe, are not.
    let quiet_output = format == TraceFormat::Digest || !io::stdout().is_terminal();
    let mut ticker = SearchTicker::new(args.depth, quiet_output);
    let hooks = engine.capabilities().hooks;
    ticker.around(hooks, |extra| {
        record::search_streaming(engine.as_mut(), &setup, &opts, Detail::Full, extra, emit)
    })?;
    ticker.clear();
    if format == TraceFormat::Digest {
        writeln!(out, "{}", digest.finish())?;
    }
    out.flush().context("writing the trace")
}
