//! `sargon analyze`: Sargon's move, PV and score for one position, or for every position
//! of an EPD file (`--epd`, one CSV or JSON Lines row per position, see [`sargon::tools::batch`]).

use std::fs;
use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::{bail, Context, Result};

use super::progress::Progress;
use super::{make_engine, EngineArgs};
use sargon::base::position;
use sargon::original::rom::RomStore;
use sargon::tools::analysis::{self, Analysis};
use sargon::tools::batch::{self, BatchRow};

/// Output forms: text and json for one position, csv and jsonl for `--epd`.
#[derive(Copy, Clone, Debug, clap::ValueEnum, PartialEq, Eq)]
pub enum AnalyzeFormat {
    /// For people (one position)
    Text,
    /// One JSON object (one position)
    Json,
    /// One row per position, with a header (--epd)
    Csv,
    /// One JSON object per line and position (--epd)
    Jsonl,
}

#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["position", "epd"])))]
pub struct AnalyzeArgs {
    /// A FEN, or `startpos`
    pub position: Option<String>,
    /// Analyse every position of an EPD file instead (bm/am operations are scored)
    #[arg(long, value_name = "FILE", conflicts_with = "position")]
    pub epd: Option<PathBuf>,
    /// Search depth in plies (Sargon's PLYMAX)
    #[arg(long, short, default_value_t = 3)]
    pub depth: u8,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Output form [default: text for one position, csv for --epd]
    #[arg(long, value_enum)]
    pub format: Option<AnalyzeFormat>,
    /// Worker threads for --epd, each with its own engine (default: one per core)
    #[arg(long, short, value_name = "N")]
    pub jobs: Option<usize>,
}

pub fn run(store: &RomStore, args: AnalyzeArgs) -> Result<()> {
    if let Some(path) = &args.epd {
        return run_epd(store, path, &args);
    }
    let position = args
        .position
        .as_deref()
        .expect("clap requires a position or --epd");
    let format = args.format.unwrap_or(AnalyzeFormat::Text);
    if matches!(format, AnalyzeFormat::Csv | AnalyzeFormat::Jsonl) {
        bail!("--format csv and jsonl are for --epd; one position is text or json");
    }
    let setup = args.engine.setup(position)?;
    let mut engine = make_engine(store, args.engine.engine, args.engine.rom.as_deref())?;
    let opts = args.engine.options(args.depth);
    let (a, _) = analysis::analyse(engine.as_mut(), &setup, &opts)?;
    match format {
        AnalyzeFormat::Json => println!("{}", serde_json::to_string_pretty(&a)?),
        _ => print!("{}", render_text(&a)),
    }
    Ok(())
}

/// `--epd`: every position, spread over worker threads, rows in file order on stdout, the
/// score on stderr.
fn run_epd(store: &RomStore, path: &PathBuf, args: &AnalyzeArgs) -> Result<()> {
    let format = args.format.unwrap_or(AnalyzeFormat::Csv);
    if matches!(format, AnalyzeFormat::Text | AnalyzeFormat::Json) {
        bail!("with --epd the output is --format csv or jsonl");
    }
    let text = fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let entries = batch::parse_epd(&text).map_err(|errors| {
        let lines: Vec<String> = errors.iter().take(20).map(|e| e.to_string()).collect();
        let more = errors.len().saturating_sub(20);
        let more = if more > 0 {
            format!("\n... and {more} more")
        } else {
            String::new()
        };
        anyhow::anyhow!("{}: bad EPD\n{}{more}", path.display(), lines.join("\n"))
    })?;
    let jobs = batch::workers(args.jobs, entries.len());
    let mut engines = Vec::with_capacity(jobs);
    for _ in 0..jobs {
        let engine = make_engine(store, args.engine.engine, args.engine.rom.as_deref())?;
        // Check the depth once, before any work.
        if args.depth == 0 || args.depth > engine.max_depth() {
            bail!(
                "depth {} is outside the {} engine's range 1..={}",
                args.depth,
                args.engine.engine,
                engine.max_depth()
            );
        }
        engines.push(engine);
    }
    let opts = args.engine.options(args.depth);
    let book = !args.engine.no_book;
    let progress = Progress::new(entries.len() as u64, "positions");
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if format == AnalyzeFormat::Csv {
        writeln!(out, "{}", BatchRow::CSV_HEADER)?;
    }
    let (mut solved, mut targets, mut failed) = (0usize, 0usize, 0usize);
    let result = batch::run_ordered(
        &entries,
        engines,
        |engine, _, entry| {
            let row = batch::analyse_entry(engine.as_mut(), entry, &opts, book);
            progress.inc();
            row
        },
        |_, row: BatchRow| -> io::Result<()> {
            if let Some(s) = row.solved {
                targets += 1;
                solved += usize::from(s);
                progress.set_message(format!("solved {solved}/{targets}"));
            }
            if let Some(e) = &row.error {
                failed += 1;
                progress.println(format!("{}: {e}", row.id));
            }
            match format {
                AnalyzeFormat::Csv => writeln!(out, "{}", row.to_csv())?,
                _ => writeln!(out, "{}", row.to_jsonl())?,
            }
            // Rows appear as they are ready, for a reader at the other end of a pipe.
            out.flush()
        },
    );
    progress.finish();
    match result {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
        r => r.context("writing the results")?,
    }
    out.flush()?;
    let failures = if failed > 0 {
        format!(" ({failed} could not be analysed)")
    } else {
        String::new()
    };
    eprintln!("solved {solved} / {targets}{failures}");
    Ok(())
}

/// The text form of an analysis.
pub fn render_text(a: &Analysis) -> String {
    let mut out = String::new();
    let mut line = |s: String| {
        out.push_str(&s);
        out.push('\n');
    };
    line(format!("Position   {}", a.fen));
    let rom = a
        .rom
        .as_ref()
        .map(|r| format!(" (ROM {r})"))
        .unwrap_or_default();
    line(format!("Engine     {}{rom}, depth {}", a.engine, a.depth));
    match (&a.best_san, &a.best_uci) {
        (Some(san), Some(uci)) => {
            let book = if a.from_book {
                "  (from the opening book)"
            } else {
                ""
            };
            line(format!("Best move  {san} ({uci}){book}"));
        }
        _ => line("Best move  none: no legal move (checkmate or stalemate)".to_string()),
    }
    if !a.pv_san.is_empty() && !a.from_book {
        let pos = position::parse_position(&a.fen).expect("our own FEN");
        line(format!(
            "PV         {}",
            sargon::tools::pv::numbered_line(&pos, &a.pv_san)
        ));
    }
    if !a.from_book && !a.no_legal_move {
        let mate = if a.mate { "  mate found" } else { "" };
        line(format!(
            "Score      {:+.2} pawns for the side to move, {:+} cp for White (Sargon byte {:#04x}){mate}",
            a.score_pawns, a.score_cp, a.sargon_score
        ));
    }
    if let (Some(n), Some(t), Some(trs), Some(z80a)) = (
        a.z80_instructions,
        a.t_states,
        a.trs80_seconds,
        a.z80a_4mhz_seconds,
    ) {
        // The documented T-states (Zilog's manual); iz80's own count, a few per cent lower,
        // is in the JSON form (docs/history.md says why they differ).
        line(format!(
            "Z80        {n} instructions, {t} T-states = {} on a TRS-80 Model I, {} on a 4 MHz Z80",
            super::human_duration(trs),
            super::human_duration(z80a)
        ));
    }
    match a.z80_mips {
        Some(m) => line(format!(
            "Time       {:.3} s ({m:.1} M Z80 instructions/s)",
            a.wall_ms / 1000.0
        )),
        None => line(format!("Time       {:.3} s", a.wall_ms / 1000.0)),
    }
    out
}
