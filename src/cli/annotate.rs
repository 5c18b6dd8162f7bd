//! `sargon annotate`: Sargon's comments and variations on every move of the games of a PGN
//! file (see [`sargon_chess::annotate`]).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};

use super::progress::Progress;
use super::{open_engine, parse_engine, spec_with, CoreArgs};
use sargon_chess::{annotate, pgn};
use sargon_core::engine::SearchOptions;
use sargon_core::outputs::{self, Files, Mode};
use sargon_engines::engines::EngineSpec;
use sargon_original::rom::RomStore;

#[derive(clap::Args, Debug)]
pub(crate) struct AnnotateArgs {
    /// The PGN file of the games
    pub pgn: PathBuf,
    /// Search depth in plies for every position
    #[arg(long, short, default_value_t = 3, value_parser = super::parse_depth, allow_negative_numbers = true)]
    pub depth: u8,
    /// Which engine searches: `port`, `emulator`, `exec:COMMAND` or `uci:COMMAND`
    #[arg(long, default_value = "port", value_parser = parse_engine)]
    pub engine: EngineSpec,
    /// ROM to run with the emulator (default: the only one imported, or `sargon`)
    #[arg(long)]
    pub rom: Option<String>,
    #[command(flatten)]
    pub core: CoreArgs,
    /// Write the annotated games here (default: stdout, and the summaries go to stderr)
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

pub(crate) fn run(store: &RomStore, args: AnnotateArgs) -> Result<()> {
    let spec = spec_with(&args.engine, args.rom.as_deref(), &args.core)?;
    spec.check_depth(args.depth)?;
    Files::new()
        .input("the PGN file", Some(&args.pgn))
        .store(store.dir())
        .output("-o", args.output.as_deref(), Mode::Whole)
        .check()?;
    let text = super::text::read_chess(&args.pgn)
        .with_context(|| format!("reading {}", super::shown(&args.pgn)))?;
    let games = pgn::read_games(&text).with_context(|| super::shown(&args.pgn))?;
    if games.is_empty() {
        anyhow::bail!("{}: no games", super::shown(&args.pgn));
    }
    let mut engine = open_engine(store, &spec)?;
    let opts = SearchOptions::depth(args.depth);
    let positions: usize = games.iter().map(|g| g.moves.len() + 1).sum();
    let progress = Progress::new(positions as u64, "positions");
    // To a file, the games are kept and written whole at the end (through a temporary
    // file and a rename: an interrupted run leaves the old file as it was).
    let mut annotated = Vec::new();
    let mut out: Box<dyn Write> = match &args.output {
        Some(_) => Box::new(&mut annotated),
        None => Box::new(crate::streams::Stdout),
    };
    for (i, game) in games.iter().enumerate() {
        let a = annotate::annotate(engine.as_mut(), game, &opts, |_, _| progress.inc())?;
        out.write_all(a.to_pgn(game).as_bytes())?;
        out.flush()?;
        let summary = format!("game {} ({}): {}", i + 1, game.players(), a.summary(game));
        // The games on stdout: the summaries beside them on stderr; else on stdout.
        if args.output.is_some() {
            progress.suspend(|| println!("{summary}"));
        } else {
            progress.println(summary);
        }
    }
    drop(out);
    if let Some(path) = &args.output {
        outputs::write_whole(path, &annotated)?;
    }
    progress.finish();
    Ok(())
}
