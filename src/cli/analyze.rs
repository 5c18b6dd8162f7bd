//! `sargon analyze`: Sargon's move, PV and score for one position, or for every position
//! of an EPD file (`--epd`, one CSV or JSON Lines row per position, or the EPD line written
//! back with the results as operations; see [`sargon_chess::batch`]).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::progress::{Progress, SearchTicker};
use super::{open_engine, CoreArgs, EngineArgs};
use sargon_chess::batch::{self, BatchRow};
use sargon_core::position;
use sargon_engines::engines::EngineSpec;
use sargon_original::rom::RomStore;
use sargon_views::analysis::{self, Analysis, GameEnd};

/// Output forms: text and json for one position, csv and jsonl for `--epd`.
#[derive(Copy, Clone, Debug, clap::ValueEnum, PartialEq, Eq)]
pub(crate) enum AnalyzeFormat {
    /// For people (one position)
    Text,
    /// One JSON object (one position)
    Json,
    /// One row per position, with a header (--epd)
    Csv,
    /// One JSON object per line and position (--epd)
    Jsonl,
    /// Every position written back with acd, acn, acs, ce, pm and pv added (--epd)
    Epd,
}

#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["position", "epd"])))]
pub(crate) struct AnalyzeArgs {
    /// A FEN (quoted or as separate words), `startpos`, a board alone or an EPD line,
    /// then maybe `moves` and moves in UCI notation
    #[arg(num_args = 1..)]
    pub position: Vec<String>,
    /// Analyse every position of an EPD file instead (bm/am operations are scored)
    #[arg(long, value_name = "FILE", conflicts_with = "position")]
    pub epd: Option<PathBuf>,
    /// Search depth in plies (Sargon's PLYMAX): 1-20 on the port, 1-6 on the emulator
    #[arg(long, short, default_value_t = 3, value_parser = super::parse_depth, allow_negative_numbers = true)]
    pub depth: u8,
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub core: CoreArgs,
    /// Output form [default: text for one position, csv for --epd]
    #[arg(long, value_enum)]
    pub format: Option<AnalyzeFormat>,
    /// Worker threads for --epd, each with its own engine (default: one per core)
    #[arg(long, short, value_name = "N", value_parser = super::numbers::jobs, allow_negative_numbers = true)]
    pub jobs: Option<usize>,
}

pub(crate) fn run(store: &RomStore, args: AnalyzeArgs) -> Result<()> {
    // The arguments, before any work.
    let spec = args.engine.spec(&args.core)?;
    spec.check_depth(args.depth)?;
    if let Some(path) = &args.epd {
        return run_epd(store, path, &args, &spec);
    }
    let format = args.format.unwrap_or(AnalyzeFormat::Text);
    if matches!(
        format,
        AnalyzeFormat::Csv | AnalyzeFormat::Jsonl | AnalyzeFormat::Epd
    ) {
        bail!("--format csv, jsonl and epd are for --epd; one position is text or json");
    }
    if args.jobs.is_some() {
        bail!("--jobs is for --epd; one position is one search");
    }
    let setup = args.engine.setup(&super::position_text(&args.position))?;
    let mut engine = open_engine(store, &spec)?;
    let opts = args.engine.options(args.depth);
    let mut ticker = SearchTicker::new(args.depth, true);
    let hooks = engine.capabilities().hooks;
    let (a, _) = ticker.around(hooks, |extra| {
        analysis::analyse_with(engine.as_mut(), &setup, &opts, extra)
    })?;
    ticker.clear();
    match format {
        AnalyzeFormat::Json => println!("{}", serde_json::to_string_pretty(&a)?),
        _ => print!("{}", render_text(&a)),
    }
    Ok(())
}

/// `--epd`: every position, spread over worker threads, rows (or EPD lines) in file order on
/// stdout, the score on stderr.
fn run_epd(store: &RomStore, path: &Path, args: &AnalyzeArgs, spec: &EngineSpec) -> Result<()> {
    let format = args.format.unwrap_or(AnalyzeFormat::Csv);
    if matches!(format, AnalyzeFormat::Text | AnalyzeFormat::Json) {
        bail!("with --epd the output is --format csv, jsonl or epd");
    }
    let text =
        super::text::read_chess(path).with_context(|| format!("reading {}", super::shown(path)))?;
    let entries = batch::parse_epd(&text).map_err(|errors| {
        if let [one] = &errors[..] {
            return anyhow::anyhow!("{}: bad EPD, {one}", super::shown(path));
        }
        let lines: Vec<String> = errors.iter().take(20).map(|e| e.to_string()).collect();
        let more = errors.len().saturating_sub(20);
        let more = if more > 0 {
            format!("\n... and {more} more")
        } else {
            String::new()
        };
        anyhow::anyhow!(
            "{}: bad EPD\n{}{more}",
            super::shown(path),
            lines.join("\n")
        )
    })?;
    if entries.is_empty() {
        bail!(
            "{}: no positions (only empty lines and # comments)",
            super::shown(path)
        );
    }
    let jobs = super::numbers::workers(args.jobs, entries.len());
    let mut engines = Vec::with_capacity(jobs);
    for _ in 0..jobs {
        engines.push(open_engine(store, spec)?);
    }
    let opts = args.engine.options(args.depth);
    let book = !args.engine.no_book;
    // EPD's `acn` is the count of nodes created, which only the full trace has.
    let count_nodes = format == AnalyzeFormat::Epd;
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
            let row = batch::analyse_entry(engine.as_mut(), entry, &opts, book, count_nodes);
            progress.inc();
            row
        },
        |index, row: BatchRow| -> io::Result<()> {
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
                AnalyzeFormat::Epd => {
                    let entry = &entries[index];
                    writeln!(out, "{}", batch::epd_line(entry, &row.epd_ops(entry)))?
                }
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
pub(crate) fn render_text(a: &Analysis) -> String {
    let mut out = String::new();
    let mut line = |s: String| {
        out.push_str(&s);
        out.push('\n');
    };
    line(format!("Position   {}", a.fen));
    let rom = match (&a.rom, a.rom_verified) {
        (Some(r), Some(false)) => {
            format!(" (ROM {r}, NOT VERIFIED: it is not the known Sargon image)")
        }
        (Some(r), _) if !a.rom_allowed_differences.is_empty() => format!(
            " (ROM {r}, differs from the known image only where no search runs or reads: {})",
            a.rom_allowed_differences.join(", ")
        ),
        (Some(r), _) => format!(" (ROM {r})"),
        (None, _) => String::new(),
    };
    let core = match &a.core {
        Some(core) => format!(" on {core}"),
        None => String::new(),
    };
    line(format!(
        "Engine     {}{core}{rom}, depth {}",
        a.engine, a.depth
    ));
    match (&a.best_san, &a.best_uci) {
        (Some(san), Some(uci)) => {
            let book = if a.from_book {
                "  (from the opening book)"
            } else {
                ""
            };
            line(format!("Best move  {san} ({uci}){book}"));
        }
        _ => line(match a.result {
            Some(GameEnd::Checkmate) => {
                "Best move  none: checkmate, the side to move has lost".to_string()
            }
            Some(GameEnd::Stalemate) => {
                "Best move  none: stalemate, the side to move has no legal move (a draw)"
                    .to_string()
            }
            None => "Best move  none: Sargon chose no move".to_string(),
        }),
    }
    if !a.pv_san.is_empty() && !a.from_book {
        let pos = position::parse_position(&a.fen).expect("our own FEN");
        line(format!(
            "PV         {}",
            sargon_core::pv::numbered_line(&pos, &a.pv_san)
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
