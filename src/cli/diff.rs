//! `sargon diff`: run the original and the port on the same searches and compare their
//! traces event by event; stop at the first divergence.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};

use super::make_engine;
use sargon::base::engine::{EngineKind, SearchOptions};
use sargon::base::position::{self, BoardDiagram};
use sargon::original::rom::RomStore;
use sargon::tools::diff::{compare_search, Divergence};

#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// Positions: FENs or `startpos` (or use --epd)
    pub positions: Vec<String>,
    /// An EPD (or FEN-per-line) file of positions
    #[arg(long, conflicts_with = "positions")]
    pub epd: Option<PathBuf>,
    /// One depth
    #[arg(long, short, conflicts_with = "depths")]
    pub depth: Option<u8>,
    /// A range of depths, e.g. 1-4
    #[arg(long)]
    pub depths: Option<String>,
    /// The reference engine
    #[arg(long, default_value = "emulator", value_parser = |s: &str| s.parse::<EngineKind>())]
    pub left: EngineKind,
    /// The engine checked against it
    #[arg(long, default_value = "port", value_parser = |s: &str| s.parse::<EngineKind>())]
    pub right: EngineKind,
    /// ROM for the emulator
    #[arg(long)]
    pub rom: Option<String>,
    /// Do not play from the opening book in book positions
    #[arg(long)]
    pub no_book: bool,
}

/// Positions from an EPD file: the first four fields of each line (FEN if six fields).
fn read_positions(file: &PathBuf) -> Result<Vec<String>> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 4 {
            bail!(
                "{}:{}: not an EPD or FEN line: {line}",
                file.display(),
                i + 1
            );
        }
        let is_fen = fields.len() >= 6
            && fields[4].parse::<u32>().is_ok()
            && fields[5].parse::<u32>().is_ok();
        let fen = if is_fen {
            fields[..6].join(" ")
        } else {
            format!("{} 0 1", fields[..4].join(" "))
        };
        out.push(fen);
    }
    Ok(out)
}

fn parse_depths(args: &DiffArgs) -> Result<Vec<u8>> {
    if let Some(d) = args.depth {
        return Ok(vec![d]);
    }
    let Some(range) = &args.depths else {
        bail!("give --depth N or --depths A-B")
    };
    let (a, b) = range.split_once('-').unwrap_or((range, range));
    let (a, b): (u8, u8) = (
        a.trim()
            .parse()
            .with_context(|| format!("bad depth range `{range}`"))?,
        b.trim()
            .parse()
            .with_context(|| format!("bad depth range `{range}`"))?,
    );
    if a == 0 || a > b {
        bail!("bad depth range `{range}`: expected A-B with 1 <= A <= B");
    }
    Ok((a..=b).collect())
}

/// Run the comparison; returns whether everything agreed.
pub fn run(store: &RomStore, args: DiffArgs) -> Result<bool> {
    let fens = match &args.epd {
        Some(f) => read_positions(f)?,
        None if args.positions.is_empty() => {
            bail!("give positions (FEN or startpos) or --epd FILE")
        }
        None => args.positions.clone(),
    };
    let depths = parse_depths(&args)?;
    // Check every position before the long work starts.
    let mut setups = Vec::new();
    for fen in &fens {
        let pos = position::parse_position(fen).with_context(|| format!("position `{fen}`"))?;
        setups.push(position::setup(&pos, !args.no_book)?);
    }
    let mut left = make_engine(store, args.left, args.rom.as_deref())?;
    let mut right = make_engine(store, args.right, args.rom.as_deref())?;
    let total = setups.len() * depths.len();
    // The same progress display as batch analysis: on a terminal only.
    let progress = super::progress::Progress::new(total as u64, "searches");
    let (mut searches, mut events) = (0usize, 0u64);
    for (fen, setup) in fens.iter().zip(&setups) {
        for &depth in &depths {
            progress.set_message(format!("depth {depth} {fen:.50}"));
            let opts = SearchOptions::depth(depth);
            let cmp = compare_search(left.as_mut(), right.as_mut(), setup, &opts)
                .with_context(|| format!("searching {fen} at depth {depth}"))?;
            searches += 1;
            events += cmp.events;
            progress.inc();
            if let Some(d) = cmp.divergence {
                progress.finish();
                report(&args, fen, depth, &setup.position, &d);
                println!(
                    "positions: {}, searches: {searches}, events compared: {events}, divergences: 1",
                    fens.len()
                );
                return Ok(false);
            }
        }
    }
    progress.finish();
    println!(
        "positions: {}, searches: {searches}, events compared: {events}, divergences: 0",
        fens.len()
    );
    Ok(true)
}

fn report(args: &DiffArgs, fen: &str, depth: u8, root: &shakmaty::Chess, d: &Divergence) {
    let show = |e: &Option<sargon::base::trace::Event>| match e {
        Some(e) => e.to_string(),
        None => "(trace ended)".to_string(),
    };
    println!("DIVERGENCE in {fen} at depth {depth}, event #{}:", d.index);
    println!("  {:<8} {}", args.left.to_string(), show(&d.left));
    println!("  {:<8} {}", args.right.to_string(), show(&d.right));
    if let Some(path) = d.path() {
        let moves: Vec<String> = path.iter().map(|m| m.uci()).collect();
        println!(
            "  path:    {}",
            if moves.is_empty() {
                "(root)".to_string()
            } else {
                moves.join(" ")
            }
        );
    }
    let pos = d.position(root);
    println!("  board at the divergence: {}", position::fen_of(&pos));
    let board = position::board_of(&pos);
    for line in BoardDiagram(&board).to_string().lines() {
        println!("    {line}");
    }
}
