//! `sargon tree`: a picture of Sargon's search tree, from the trace of one search.

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::{bail, Context, Result};

use super::progress::SearchTicker;
use super::{open_engine, CoreArgs, EngineArgs};
use sargon_core::engine::Capability;
use sargon_core::outputs::{self, Files, Mode};
use sargon_core::position;
use sargon_core::position::Book;
use sargon_core::record;
use sargon_core::trace::{Detail, Event};
use sargon_original::rom::RomStore;
use sargon_views::tree::{self, DotLayout, TreeBuilder, View};

#[derive(Copy, Clone, Debug, clap::ValueEnum, PartialEq, Eq)]
pub(crate) enum TreeFormat {
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
pub(crate) struct TreeArgs {
    /// A FEN (quoted or as separate words), `startpos`, a board alone or an EPD line,
    /// then maybe `moves` and moves in UCI notation
    #[arg(required = true, num_args = 1..)]
    pub position: Vec<String>,
    /// Search depth in plies (Sargon's PLYMAX): 1-20 on the port, 1-6 on the emulator
    #[arg(long, short, default_value_t = 3, value_parser = super::parse_depth, allow_negative_numbers = true)]
    pub depth: u8,
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub core: CoreArgs,
    /// Output form [default: from the -o file's extension, else text]
    #[arg(long, value_enum)]
    pub format: Option<TreeFormat>,
    /// Show at most this many nodes (0: all): the PV, the root's moves, then the
    /// earliest-evaluated nodes
    #[arg(long, default_value_t = 200, value_name = "N", value_parser = super::numbers::max_nodes, allow_negative_numbers = true)]
    pub max_nodes: usize,
    /// Keep at most this many nodes in memory while the search runs: past it the deepest
    /// plies are dropped, and the picture says so
    #[arg(long, default_value_t = 200_000, value_name = "N", value_parser = super::numbers::keep_nodes, allow_negative_numbers = true)]
    pub keep_nodes: usize,
    /// Show nodes down to this ply only
    #[arg(long, value_name = "P", value_parser = super::numbers::ply, allow_negative_numbers = true)]
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

pub(crate) fn run(store: &RomStore, args: TreeArgs) -> Result<()> {
    let spec = args.engine.spec(&args.core)?;
    spec.check_depth(args.depth)?;
    Files::new()
        .store(store.dir())
        .output("-o", args.output.as_deref(), Mode::Whole)
        .check()?;
    let format = format_of(&args);
    if format == TreeFormat::Png && args.output.is_none() {
        bail!("--format png needs -o FILE");
    }
    if matches!(format, TreeFormat::Svg | TreeFormat::Png)
        && super::graphviz::graphviz_version().is_none()
    {
        // Say so before a long search.
        super::graphviz::render_with_graphviz("", "svg")?;
    }
    let pos = super::read_position(&super::position_text(&args.position))?;
    let mut setup = position::setup(&pos, Book::from(!args.engine.no_book))?;
    if setup.plays_from_book() {
        eprintln!("note: Sargon would play this position from its book; searching without the book to draw a tree");
        setup = position::setup(&pos, Book::Off)?;
    }
    let mut engine = open_engine(store, &spec)?;
    engine.require(Capability::Trace, "a tree of the search")?;
    let opts = args.engine.options(args.depth);
    // The tree is built as the events come, never holding more than --keep-nodes nodes:
    // a deep search creates tens of millions.
    let mut builder = TreeBuilder::new(Some(args.keep_nodes));
    let (mut created, mut evaluations) = (0u64, 0u64);
    let mut ticker = SearchTicker::new(args.depth, true);
    let hooks = engine.capabilities().hooks;
    ticker.around(hooks, |extra| {
        record::search_streaming(engine.as_mut(), &setup, &opts, Detail::Full, extra, |e| {
            match e {
                Event::Created { .. } => created += 1,
                Event::AlphaBeta { .. } => evaluations += 1,
                _ => {}
            }
            builder.add(&e);
        })
    })?;
    ticker.clear();
    let rom = engine
        .rom_id()
        .map(|r| {
            let unverified = if r.verified { "" } else { " NOT VERIFIED" };
            format!(", ROM {}{unverified}", r.name)
        })
        .unwrap_or_default();
    let title = format!(
        "Sargon's search of {} to depth {} ({} engine{rom}): {created} nodes, {evaluations} evaluations",
        position::fen_of(&pos),
        args.depth,
        engine.id(),
    );
    let t = builder.finish(&pos, title);
    let max_nodes = (args.max_nodes > 0).then_some(args.max_nodes);
    let view = View::select(&t, max_nodes, args.ply);
    let bytes: Vec<u8> = match format {
        TreeFormat::Text => tree::to_text(&t, &view).into_bytes(),
        TreeFormat::Dot => tree::to_dot(&t, &view, DotLayout::LeftToRight).into_bytes(),
        TreeFormat::Svg => {
            super::graphviz::render_svg(&tree::to_dot(&t, &view, DotLayout::LeftToRight))?
                .into_bytes()
        }
        TreeFormat::Png => super::graphviz::render_with_graphviz(
            &tree::to_dot(&t, &view, DotLayout::LeftToRight),
            "png",
        )?,
    };
    match &args.output {
        Some(path) => {
            outputs::write_whole(path, &bytes)?;
            eprintln!("{}: {}", path.display(), tree::summary(&t, &view));
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
