//! `sargon tree`: a picture of Sargon's search tree, from the trace of one search.

use std::fs;
use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::{bail, Context, Result};

use super::{make_engine, EngineArgs};
use sargon::base::position;
use sargon::base::trace::Detail;
use sargon::original::rom::RomStore;
use sargon::tools::record;
use sargon::tools::tree::{self, DotLayout, SearchTree, View};

#[derive(Copy, Clone, Debug, clap::ValueEnum, PartialEq, Eq)]
pub enum TreeFormat {
    /// An indented text tree
    Text,
    /// Graphviz DOT
    Dot,
    /// SVG, made by Graphviz's `dot` (must be installed)
    Svg,
    /// PNG, made by Graphviz's `dot` (needs -o)
    Png,
}

#[derive(clap::Args, Debug)]
pub struct TreeArgs {
    /// A FEN, or `startpos`
    pub position: String,
    /// Search depth in plies (Sargon's PLYMAX)
    #[arg(long, short, default_value_t = 3)]
    pub depth: u8,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Output form [default: from the -o file's extension, else text]
    #[arg(long, value_enum)]
    pub format: Option<TreeFormat>,
    /// Show at most this many nodes (0: all): the PV, the root's moves, then the
    /// earliest-evaluated nodes
    #[arg(long, default_value_t = 200, value_name = "N")]
    pub max_nodes: usize,
    /// Show nodes down to this ply only
    #[arg(long, value_name = "P")]
    pub ply: Option<usize>,
    /// Write to this file instead of stdout
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

fn format_of(args: &TreeArgs) -> TreeFormat {
    if let Some(f) = args.format {
        return f;
    }
    let ext = args
        .output
        .as_ref()
        .and_then(|p| p.extension())
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match ext.as_deref() {
        Some("svg") => TreeFormat::Svg,
        Some("dot" | "gv") => TreeFormat::Dot,
        Some("png") => TreeFormat::Png,
        _ => TreeFormat::Text,
    }
}

pub fn run(store: &RomStore, args: TreeArgs) -> Result<()> {
    let format = format_of(&args);
    if format == TreeFormat::Png && args.output.is_none() {
        bail!("--format png needs -o FILE");
    }
    if matches!(format, TreeFormat::Svg | TreeFormat::Png) && tree::graphviz_version().is_none() {
        // Say so before a long search.
        tree::render_with_graphviz("", "svg")?;
    }
    let pos = position::parse_position(&args.position)?;
    let mut setup = position::setup(&pos, !args.engine.no_book)?;
    if setup.plays_from_book() {
        eprintln!("note: Sargon would play this position from its book; searching without the book to draw a tree");
        setup = position::setup(&pos, false)?;
    }
    let mut engine = make_engine(store, args.engine.engine, args.engine.rom.as_deref())?;
    let opts = args.engine.options(args.depth);
    let events = record::search(engine.as_mut(), &setup, &opts, Detail::Full, &mut [])?.events;
    let rom = engine
        .rom_id()
        .map(|r| {
            let unverified = if r.verified { "" } else { " NOT VERIFIED" };
            format!(", ROM {}{unverified}", r.name)
        })
        .unwrap_or_default();
    let title = format!(
        "Sargon's search of {} to depth {} ({} engine{rom}): {} nodes, {} evaluations",
        position::fen_of(&pos),
        args.depth,
        engine.kind(),
        events.iter().filter(|e| e.kind() == "created").count(),
        events.iter().filter(|e| e.kind() == "alpha_beta").count(),
    );
    let t = SearchTree::from_trace(&pos, &events, title);
    let max_nodes = (args.max_nodes > 0).then_some(args.max_nodes);
    let view = View::select(&t, max_nodes, args.ply);
    let bytes: Vec<u8> = match format {
        TreeFormat::Text => tree::to_text(&t, &view).into_bytes(),
        TreeFormat::Dot => tree::to_dot(&t, &view, DotLayout::LeftToRight).into_bytes(),
        TreeFormat::Svg => {
            tree::render_svg(&tree::to_dot(&t, &view, DotLayout::LeftToRight))?.into_bytes()
        }
        TreeFormat::Png => {
            tree::render_with_graphviz(&tree::to_dot(&t, &view, DotLayout::LeftToRight), "png")?
        }
    };
    match &args.output {
        Some(path) => {
            fs::write(path, &bytes).with_context(|| format!("writing {}", path.display()))?;
            eprintln!("{}: {}", path.display(), view.summary());
        }
        None => {
            let mut out = io::stdout().lock();
            match out.write_all(&bytes).and_then(|_| out.flush()) {
                Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                    return Err(e).context("writing the tree")
                }
                _ => {}
            }
        }
    }
    Ok(())
}
