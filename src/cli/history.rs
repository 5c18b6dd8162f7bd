//! `sargon history`: Sargon's speed on the machines of 1978.

use std::path::PathBuf;

use anyhow::{Context, Result};

use super::Format;
use sargon::original::emu::Emulator;
use sargon::original::history::{self, LevelProgress};
use sargon::original::rom::RomStore;

#[derive(clap::Subcommand, Debug)]
pub enum HistoryCommand {
    /// Run levels 1..=N over a position set (book off) and compare the estimated TRS-80
    /// time per move with the original manual's
    Levels(LevelsArgs),
}

#[derive(clap::Args, Debug)]
pub struct LevelsArgs {
    /// Positions: one FEN (or `startpos`) per line, `#` comments (default: a built-in set
    /// of 12)
    #[arg(long)]
    pub positions: Option<PathBuf>,
    /// The highest level to run (1-6; at levels 5 and 6 a position can take many minutes)
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=6))]
    pub max_level: u8,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also draw the comparison as an SVG plot into this file
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Also save the full report (every search's figures) as JSON into this file
    #[arg(long, value_name = "FILE.json")]
    pub save: Option<PathBuf>,
    /// Run nothing: print the table (and draw the plot) of a report saved with `--save`
    #[arg(long, value_name = "FILE.json", conflicts_with_all = ["positions", "save"])]
    pub load: Option<PathBuf>,
    /// ROM to run (default: the only one imported, or `sargon`)
    #[arg(long)]
    pub rom: Option<String>,
    /// No progress lines on stderr
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(store: &RomStore, command: HistoryCommand) -> Result<()> {
    match command {
        HistoryCommand::Levels(args) => levels(store, args),
    }
}

fn levels(store: &RomStore, args: LevelsArgs) -> Result<()> {
    let positions: Vec<String> = match &args.positions {
        Some(p) => history::parse_positions(
            &std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?,
        ),
        None => history::default_positions()
            .into_iter()
            .map(String::from)
            .collect(),
    };
    let report = match &args.load {
        Some(path) => serde_json::from_str(
            &std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?,
        )
        .with_context(|| format!("{} is no saved level report", path.display()))?,
        None => run_levels(store, &args, &positions)?,
    };
    if let Some(path) = &args.save {
        std::fs::write(path, serde_json::to_string_pretty(&report)? + "\n")
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(path) = &args.plot {
        std::fs::write(path, history::svg_plot(&report))
            .with_context(|| format!("writing {}", path.display()))?;
        if !args.quiet {
            eprintln!("plot written to {}", path.display());
        }
    }
    match args.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&report)?),
        Format::Text => {
            println!(
                "Sargon's levels on a TRS-80 Model I (1.774 MHz) and a 4 MHz Z80, estimated from \
                 the documented T-states of its search (ROM {}, {} positions, book off), beside \
                 the original manual's average time per move:\n",
                report.rom,
                report.positions.len()
            );
            print!("{}", history::render_table(&report));
        }
    }
    Ok(())
}

fn run_levels(
    store: &RomStore,
    args: &LevelsArgs,
    positions: &[String],
) -> Result<history::LevelsReport> {
    let rom = store.load(args.rom.as_deref())?;
    let mut emu = Emulator::new(rom).context("the imported ROM cannot be used")?;
    let quiet = args.quiet;
    let mut progress = |p: &LevelProgress| {
        if quiet {
            return;
        }
        match &p.done {
            None => eprint!(
                "level {}/{}  position {:>2}/{} ... ",
                p.level, p.max_level, p.position, p.positions
            ),
            Some(m) => eprintln!(
                "{:>7} on a TRS-80, {:.1} s here  (elapsed {})",
                history::duration(m.trs80_seconds),
                m.wall_seconds,
                super::human_duration(p.elapsed)
            ),
        }
    };
    Ok(history::run_levels(
        &mut emu,
        positions,
        args.max_level,
        &mut progress,
    )?)
}
