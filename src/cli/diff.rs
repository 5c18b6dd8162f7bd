//! `sargon diff`: run the original and the port on the same searches and compare their
//! traces event by event; stop at the first divergence (or, with `--keep-going`, record
//! them all). Long runs split into shards, write a results file and resume after a kill;
//! `sargon diff report` puts the shards' files together. The work is done by
//! [`sargon_referee::diff_run`]; this module parses arguments and prints.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::progress::Progress;
use super::Format;
use super::{parse_engine, spec_with, CoreArgs};
use sargon_core::engine::{Capability, RomId};
use sargon_core::position::{self, BoardDiagram};
use sargon_engines::engines::{self, EngineSpec, OpenOptions, Side};
use sargon_engines::external;
use sargon_original::rom::RomStore;
use sargon_referee::diff::{AnswerDifference, Difference, Divergence};
use sargon_referee::diff_run::{
    self, report, InputPosition, Observer, ResultsFile, RunIdentity, RunPlan, RunSettings, Search,
    SearchRecord, Shard, Tally, Verdict,
};
use sargon_referee::trace_cache::TraceCache;

#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub(crate) struct DiffArgs {
    #[command(subcommand)]
    pub command: Option<DiffCommand>,
    /// Positions: FENs or `startpos` (or use --epd)
    pub positions: Vec<String>,
    /// An EPD (or FEN-per-line) file of positions
    #[arg(long, conflicts_with = "positions")]
    pub epd: Option<PathBuf>,
    /// One depth
    #[arg(long, short, conflicts_with = "depths", value_parser = super::parse_depth, allow_negative_numbers = true)]
    pub depth: Option<u8>,
    /// A range of depths, e.g. 1-4
    #[arg(long)]
    pub depths: Option<String>,
    /// The reference engine: any engine --right takes
    #[arg(long, default_value = "emulator", value_parser = parse_engine)]
    pub left: EngineSpec,
    /// What is checked against it: `port`, `emulator`, `exec:COMMAND` (another port that
    /// prints its trace, run through `sh -c` once per search) or `uci:COMMAND` (a UCI
    /// engine: best move and score only); see docs/checking-your-port.md
    #[arg(long, default_value = "port", value_parser = parse_engine)]
    pub right: EngineSpec,
    /// Give up on an `exec:` or `uci:` search after this many seconds of waiting for it
    #[arg(long, value_name = "SECONDS", default_value_t = external::DEFAULT_TIMEOUT.as_secs_f64(), value_parser = super::numbers::timeout, allow_negative_numbers = true)]
    pub exec_timeout: f64,
    /// ROM for the emulator
    #[arg(long)]
    pub rom: Option<String>,
    #[command(flatten)]
    pub core: CoreArgs,
    /// Do not play from the opening book in book positions
    #[arg(long)]
    pub no_book: bool,
    /// Search only the first N positions of the input (their indices stay those of the
    /// input, so a deeper run over part of a file reports with the rest)
    #[arg(long, value_name = "N", value_parser = super::numbers::positions, allow_negative_numbers = true)]
    pub first: Option<usize>,
    /// Run shard K of N only (K from 0): positions K, K+N, K+2N, ... of the input
    #[arg(
        long,
        value_name = "K/N",
        conflicts_with = "shard_from_env",
        allow_hyphen_values = true
    )]
    pub shard: Option<Shard>,
    /// Take the shard from a batch scheduler: a Slurm job array (SLURM_ARRAY_TASK_ID with
    /// SLURM_ARRAY_TASK_COUNT or _MIN/_MAX) or a Kubernetes indexed Job
    /// (JOB_COMPLETION_INDEX, with --shards N)
    #[arg(long)]
    pub shard_from_env: bool,
    /// The number of shards, with --shard-from-env (needed for Kubernetes)
    #[arg(long, value_name = "N", requires = "shard_from_env", value_parser = super::numbers::shards, allow_negative_numbers = true)]
    pub shards: Option<usize>,
    /// Append one JSON line per search to this file as each search completes
    #[arg(long, value_name = "FILE.jsonl")]
    pub out: Option<PathBuf>,
    /// Go on with the run recorded in --out: skip the searches it has (after a kill)
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Record every divergence and go on (the exit status is still 1 at the end)
    #[arg(long)]
    pub keep_going: bool,
    /// Compare all of Sargon's data (variables, tables, board, move list, pointers as
    /// offsets) at every point where an event arises, not only the events
    #[arg(long, conflicts_with_all = ["out", "resume", "shard", "shard_from_env"])]
    pub state: bool,
    /// Search the original every time: neither read its traces from the cache nor keep
    /// them there
    #[arg(long)]
    pub no_cache: bool,
    /// Where the original's traces are kept between runs, so that a rerun costs only the
    /// other side (default: $SARGON_CACHE, else $XDG_CACHE_HOME/sargon/traces, else
    /// ~/.cache/sargon/traces); the cache writes only in its subdirectory
    /// sargon-trace-cache and leaves other files alone; `sargon cache clear` empties it
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Keep the cache under this many megabytes (the least recently used traces go first)
    #[arg(long, value_name = "MB", default_value_t = sargon_referee::trace_cache::DEFAULT_LIMIT / 1_000_000, value_parser = super::numbers::megabytes, allow_negative_numbers = true)]
    pub cache_limit: u64,
    /// With --state: also leave out these cells or areas by name (e.g. `VALM`, `MLIST`),
    /// besides the defaults of docs/port.md; `--state-skip none` compares everything
    #[arg(long, value_delimiter = ',', requires = "state")]
    pub state_skip: Vec<String>,
}

#[derive(clap::Subcommand, Debug)]
pub(crate) enum DiffCommand {
    /// Put a run's results files (one per shard) together: coverage, consistency, counts
    /// by depth and every divergence; exits 1 on a divergence, a gap or a mixed run
    Report(ReportArgs),
}

#[derive(clap::Args, Debug)]
pub(crate) struct ReportArgs {
    /// The run's positions: the file given to `sargon diff --epd` (needed, with --depths,
    /// only for results files without the plan line that `sargon diff` now writes first)
    #[arg(long, requires = "depths")]
    pub epd: Option<PathBuf>,
    /// The run's depths, e.g. 1-4 (or one depth); `A-B:N` for depths run on the first N
    /// positions only (`diff --first N`). Repeat for each part: `--depths 1-4 --depths 5:200`
    #[arg(long, requires = "epd")]
    pub depths: Vec<String>,
    /// The results files (`--out`) of the run's shards
    #[arg(required = true, value_name = "RESULTS")]
    pub results: Vec<PathBuf>,
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Accept searches run on a ROM that is not verified (they are still counted)
    #[arg(long)]
    pub allow_unverified: bool,
}

pub(super) fn read_epd(file: &Path) -> Result<Vec<String>> {
    let text = super::text::read_chess(file)
        .with_context(|| format!("cannot read {}", super::shown(file)))?;
    epd_positions(file, &text)
}

/// The positions of `text`, the EPD file `file` already read (once: a second read would
/// say its Latin-1 note twice).
pub(super) fn epd_positions(file: &Path, text: &str) -> Result<Vec<String>> {
    let fens = diff_run::read_positions(text).with_context(|| super::shown(file))?;
    if fens.is_empty() {
        bail!(
            "{}: no positions (only empty lines and # comments)",
            super::shown(file)
        );
    }
    Ok(fens)
}

/// `A-B` (or `A`) as the depths A to B.
pub(super) fn parse_depth_range(range: &str) -> Result<Vec<u8>> {
    let (a, b) = range.split_once('-').unwrap_or((range, range));
    let bad = |why: String| {
        anyhow::anyhow!(
            "bad depth range `{}`: {why}",
            sargon_core::input::echo(range)
        )
    };
    let (a, b) = (
        super::parse_depth(a).map_err(bad)?,
        super::parse_depth(b).map_err(bad)?,
    );
    if a > b {
        return Err(bad("expected A-B with A <= B".to_string()));
    }
    Ok((a..=b).collect())
}

/// The report's `--depths` values: `A-B` over every position, `A-B:N` over the first N.
fn parse_plan(parts: &[String], positions: usize) -> Result<Vec<report::DepthPlan>> {
    let mut plan: Vec<report::DepthPlan> = Vec::new();
    for part in parts {
        let (range, count) = match part.split_once(':') {
            None => (part.as_str(), positions),
            Some((range, n)) => {
                let n = sargon_core::input::whole_number(n, 1, positions as u64).map_err(|e| {
                    anyhow::anyhow!(
                        "bad --depths `{}`: N is the positions searched, {e}",
                        sargon_core::input::echo(part)
                    )
                })? as usize;
                (range, n)
            }
        };
        for depth in parse_depth_range(range)? {
            if plan.iter().any(|p| p.depth == depth) {
                bail!("depth {depth} is given twice in --depths");
            }
            plan.push(report::DepthPlan {
                depth,
                positions: count,
            });
        }
    }
    plan.sort_by_key(|p| p.depth);
    Ok(plan)
}

fn parse_depths(args: &DiffArgs) -> Result<Vec<u8>> {
    match (args.depth, &args.depths) {
        (Some(d), _) => Ok(vec![d]),
        (None, Some(range)) => parse_depth_range(range),
        (None, None) => bail!("give --depth N or --depths A-B"),
    }
}

fn shard_of(args: &DiffArgs) -> Result<Shard> {
    if args.shard_from_env {
        Ok(Shard::from_env(
            |name| std::env::var(name).ok(),
            args.shards,
        )?)
    } else {
        Ok(args.shard.unwrap_or(Shard::ALL))
    }
}

/// The two sides of the comparison, opened, and the ROM when one is the emulator.
fn open_sides(store: &RomStore, args: &DiffArgs) -> Result<(Side, Side, Option<RomId>)> {
    let emulator = args.left.is_emulator() || args.right.is_emulator();
    if !emulator && args.core.core.is_some() {
        args.core
            .core(false, "neither side is the emulator (--left, --right)")?;
    }
    if let (false, Some(rom)) = (emulator, &args.rom) {
        bail!(
            "--rom {} names a ROM for the emulator, and neither side is the emulator (--left, --right)",
            sargon_core::input::echo(rom)
        );
    }
    let options = OpenOptions {
        timeout: std::time::Duration::from_secs_f64(args.exec_timeout),
        ..super::open_options(store)
    };
    let open = |spec: &EngineSpec, which: &str| -> Result<Side> {
        let rom = args.rom.as_deref().filter(|_| spec.is_emulator());
        let spec = spec_with(spec, rom, &none_unless(args, spec))?;
        let (side, warning) =
            engines::open_side(&spec, &options).with_context(|| format!("{which} {spec}"))?;
        super::say_warning(warning);
        Ok(side)
    };
    let left = open(&args.left, "--left")?;
    let right = open(&args.right, "--right")?;
    let rom = left.engine().rom_id().or(right.engine().rom_id()).cloned();
    Ok((left, right, rom))
}

/// `--core` for a side that is the emulator; nothing for the other (checked once, above).
fn none_unless(args: &DiffArgs, spec: &EngineSpec) -> CoreArgs {
    CoreArgs {
        core: args.core.core.filter(|_| spec.is_emulator()),
    }
}

/// Run the comparison or the report; returns whether everything agreed (and, for a
/// report, whether the run is complete and consistent).
pub(crate) fn run(store: &RomStore, args: DiffArgs) -> Result<bool> {
    match &args.command {
        Some(DiffCommand::Report(report_args)) => run_report(store, report_args),
        None => {
            sargon_core::outputs::removing_an_empty_new_results_file(args.out.as_deref(), || {
                run_diff(store, &args)
            })
        }
    }
}

fn run_diff(store: &RomStore, args: &DiffArgs) -> Result<bool> {
    // Everything is checked before the first search: a job that would fail should fail
    // at once, not hours into a run.
    sargon_core::outputs::Files::new()
        .input("--epd", args.epd.as_deref())
        .store(store.dir())
        .output(
            "--out",
            args.out.as_deref(),
            sargon_core::outputs::Mode::Results,
        )
        .check()?;
    let fens = match &args.epd {
        Some(f) => read_epd(f)?,
        None if args.positions.is_empty() => {
            bail!("give positions (FEN or startpos) or --epd FILE")
        }
        None => args.positions.clone(),
    };
    let depths = parse_depths(args)?;
    let shard = shard_of(args)?;
    // What the results file's first line says the run is, for `diff report` and --resume.
    let plan = RunPlan {
        epd_sha256: match &args.epd {
            Some(f) => Some(RunPlan::sha256_of(
                &std::fs::read(f).with_context(|| format!("cannot read {}", super::shown(f)))?,
            )),
            None => None,
        },
        positions: fens.len(),
        depths: depths.clone(),
        first: args.first,
        shard: shard.to_string(),
    };
    let skip = super::diff_state::skip_list(&args.state_skip)?;
    let book = !args.no_book;
    let fens = match args.first {
        Some(n) if n > fens.len() => bail!(
            "--first {n}: the input has only {}",
            if fens.len() == 1 {
                "1 position".to_string()
            } else {
                format!("{} positions", fens.len())
            }
        ),
        Some(n) => &fens[..n],
        None => &fens[..],
    };
    let positions = fens
        .iter()
        .enumerate()
        .map(|(i, fen)| InputPosition::new(i, fen, book))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    let (mut left, mut right, rom) = open_sides(store, args)?;
    diff_run::check_depths(&[left.engine(), right.engine()], &depths)?;
    if args.state {
        for side in [&left, &right] {
            side.engine().require(
                Capability::State,
                "diff --state (it compares two engines' memories)",
            )?;
        }
        if let Some(note) = rom.as_ref().and_then(|r| r.unverified_note()) {
            println!("{note}");
        }
        return super::diff_state::run(
            left.engine_mut(),
            right.engine_mut(),
            &positions,
            &depths,
            skip,
        );
    }
    let unverified = rom.as_ref().and_then(|r| r.unverified_note());
    if let Some(note) = &unverified {
        println!("{note}");
    }
    let identity = RunIdentity {
        left: left.engine().id(),
        right: right.engine().id(),
        rom,
        book,
        shard,
    };

    let (mut out, earlier) = match &args.out {
        None => (None, Vec::new()),
        Some(path) if args.resume => {
            let (file, resumed) = ResultsFile::resume(path, &plan)?;
            diff_run::check_plan(&plan, resumed.plan.as_ref())
                .and_then(|()| diff_run::check_resumable(&identity, &positions, &resumed.records))
                .with_context(|| format!("cannot resume {}", super::shown(path)))?;
            if resumed.cut_bytes > 0 {
                eprintln!(
                    "{}: cut off an incomplete last line ({} bytes): the search in flight when \
                     the run stopped",
                    path.display(),
                    resumed.cut_bytes
                );
            }
            (Some(file), resumed.records)
        }
        Some(path) => (Some(ResultsFile::create(path, &plan)?), Vec::new()),
    };
    // A search that ended in an error (a port that failed or timed out, perhaps fixed
    // since) is done again: its new record supersedes the error's in the report.
    let (earlier, _) = diff_run::without_retried_errors(earlier);
    let retried = earlier
        .iter()
        .filter(|r| r.verdict == Verdict::Error)
        .count();
    let earlier: Vec<SearchRecord> = earlier
        .into_iter()
        .filter(|r| r.verdict != Verdict::Error)
        .collect();
    let done = earlier.iter().map(SearchRecord::key).collect();
    let searches = diff_run::plan(&positions, shard, &depths, &done);
    let shard_positions = shard.indices(positions.len()).count();
    if !earlier.is_empty() || retried > 0 {
        eprintln!(
            "resuming: {} searches already recorded, {} to do{}",
            earlier.len(),
            searches.len(),
            match retried {
                0 => String::new(),
                n => format!(" ({n} of them ended in an error before and are tried again)"),
            }
        );
    }

    // The original's traces are cached; the port's (which changes with every build) and
    // other people's programs' never are.
    // Only traces are cached: a comparison of answers (a `uci:` side) keeps none.
    let traces = [&left, &right]
        .iter()
        .all(|side| side.engine().capabilities().has(Capability::Trace));
    let cache = match (args.no_cache, left.engine().rom_id()) {
        (false, Some(_)) if traces => Some(TraceCache::open(
            super::cache::dir(args.cache_dir.as_ref())?,
            args.cache_limit.saturating_mul(1_000_000),
        )?),
        _ => None,
    };
    if let Some(cache) = &cache {
        say_write_failure(cache, None);
    }
    if let (Some(_), Some(core)) = (&cache, left.engine().core()) {
        eprintln!(
            "note: the original runs on {core} for the searches not in the cache of its traces; \
             those read from there were made on whichever core ran them (the cores agree on \
             Sargon's code); --no-cache runs every search on {core}"
        );
    }
    let progress = Progress::new(searches.len() as u64, "searches");
    // An emulator on a core other than the default says so where it is named.
    let mut printer = Printer {
        progress: &progress,
        cache: cache.as_ref(),
        left: column_name(&args.left, &left),
        right: column_name(&args.right, &right),
        records: Vec::new(),
    };
    let outcome = diff_run::run(
        &mut left,
        &mut right,
        &searches,
        &identity,
        RunSettings {
            keep_going: args.keep_going,
            cache: cache.as_ref(),
        },
        out.as_mut(),
        &mut printer,
    )?;
    progress.finish();
    let mut tally = Tally::of(&earlier);
    tally.searches += outcome.tally.searches;
    tally.events += outcome.tally.events;
    tally.divergences += outcome.tally.divergences;
    tally.errors += outcome.tally.errors;
    if outcome.left_undone > 0 {
        eprintln!(
            "stopped at the first {}: {} searches not run (--keep-going runs them all)",
            if outcome.tally.errors > 0 {
                "error"
            } else {
                "divergence"
            },
            outcome.left_undone
        );
    }
    if args.keep_going {
        // The run's divergences (a resumed file's included), grouped into likely causes.
        let mut records = earlier;
        records.append(&mut printer.records);
        let causes = report::causes_of_records(&records);
        let places = super::diff_causes::Places::for_causes(store, &causes);
        print!(
            "{}",
            report::causes_text(&causes, (&printer.left, &printer.right), &|c| places
                .lines(c))
        );
    }
    println!("{}", report::summary_line(shard_positions, &tally));
    if let Some(cache) = &cache {
        eprintln!("{}", cache_line(cache));
    }
    if let Some(note) = unverified {
        // Again under the summary, where a reader of the result looks.
        println!("{note}");
    }
    Ok(tally.all_agree())
}

/// How a side is named in the lines and columns of a run: `exec` and `uci` for another
/// person's port (its command is in the summary), else the engine's name with its core
/// when it is not the default one.
fn column_name(spec: &EngineSpec, side: &Side) -> String {
    match spec {
        EngineSpec::Exec(_) => "exec".to_string(),
        EngineSpec::Uci(_) => "uci".to_string(),
        _ => side.engine().id_on_core(),
    }
}

/// Say, once in a run, that the cache of the original's traces cannot be written, and why
/// (the first time it could not: on opening, or at a search it could not keep).
fn say_write_failure(cache: &TraceCache, progress: Option<&Progress>) {
    let Some(why) = cache.unsaid_write_failure() else {
        return;
    };
    let say = || {
        eprintln!(
            "warning: the cache of the original's traces cannot be written, so the searches \
             are not kept for the next run: {why}"
        )
    };
    match progress {
        Some(progress) => progress.suspend(say),
        None => say(),
    }
}

/// What the cache of the original's traces did in this run, in one line.
fn cache_line(cache: &TraceCache) -> String {
    let c = cache.counts();
    let mut line = format!(
        "the original's traces: {} read from the cache, {} searched and kept",
        c.hits, c.stored
    );
    if c.unkept > 0 {
        line += &format!(
            ", {} searched but not kept, as the cache cannot be written",
            c.unkept
        );
    }
    if c.corrupt > 0 {
        line += &format!(", {} damaged entries removed and searched again", c.corrupt);
    }
    if c.evicted > 0 {
        line += &format!(
            ", {} old entries removed to stay under {}",
            c.evicted,
            super::cache::mb(cache.limit())
        );
    }
    line + &format!(" ({})", super::shown(cache.dir()))
}

/// Shows a run as it goes: the progress bar, and every divergence or error in full.
struct Printer<'a> {
    progress: &'a Progress,
    /// Said to have failed to write as soon as it fails.
    cache: Option<&'a TraceCache>,
    left: String,
    right: String,
    /// The run's records, for the likely causes at its end.
    records: Vec<SearchRecord>,
}

impl Observer for Printer<'_> {
    fn starting(&mut self, search: &Search) {
        self.progress.set_message(format!(
            "depth {} #{} {:.50}",
            search.depth, search.position.index, search.position.fen
        ));
    }

    fn finished(
        &mut self,
        search: &Search,
        record: &SearchRecord,
        difference: Option<&Difference>,
    ) {
        self.progress.inc();
        if record.verdict == Verdict::Diverge {
            self.records.push(record.clone());
        }
        if let Some(cache) = self.cache {
            say_write_failure(cache, Some(self.progress));
        }
        match (record.verdict, difference) {
            (Verdict::Diverge, Some(Difference::Trace(d))) => {
                self.progress.suspend(|| self.show(search, d))
            }
            (Verdict::Diverge, Some(Difference::Answer(a))) => {
                self.progress.suspend(|| self.show_answers(search, a))
            }
            (Verdict::Error, _) => self.progress.println(format!(
                "ERROR in position {} ({}) at depth {}: {}",
                search.position.index,
                search.position.fen,
                search.depth,
                record.error.as_deref().unwrap_or("")
            )),
            _ => {}
        }
    }
}

impl Printer<'_> {
    fn show_answers(&self, search: &Search, a: &AnswerDifference) {
        println!(
            "DIFFERENT ANSWER in position {} ({}) at depth {}:",
            search.position.index, search.position.fen, search.depth
        );
        println!("  {:<8} {}", self.left, a.left);
        println!(
            "  {:<8} {}",
            self.right,
            sargon_core::input::echo(&a.right.to_string())
        );
    }

    fn show(&self, search: &Search, d: &Divergence) {
        let show = |e: &Option<sargon_core::trace::Event>| match e {
            Some(e) => e.readable(),
            None => "(trace ended)".to_string(),
        };
        println!(
            "DIVERGENCE in position {} ({}) at depth {}, event #{}:",
            search.position.index, search.position.fen, search.depth, d.index
        );
        println!("  {:<8} {}", self.left, show(&d.left));
        println!("  {:<8} {}", self.right, show(&d.right));
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
        let pos = d.position(&search.position.setup.position);
        println!("  board at the divergence: {}", position::fen_of(&pos));
        let board = position::board_of(&pos);
        for line in BoardDiagram(&board).to_string().lines() {
            println!("    {line}");
        }
    }
}

fn run_report(store: &RomStore, args: &ReportArgs) -> Result<bool> {
    // The input first, when it is given: what is wrong with it is said before the results.
    let input = match &args.epd {
        Some(epd) => Some((epd, read_epd(epd)?)),
        None => None,
    };
    let mut records = Vec::new();
    let mut plans = Vec::new();
    let mut unplanned = None;
    let mut incomplete = 0;
    for path in &args.results {
        let read = diff_run::read_results(path)?;
        match read.plan {
            Some(plan) => plans.push(plan),
            None => unplanned = unplanned.or(Some(path)),
        }
        if read.incomplete_tail > 0 {
            incomplete += 1;
            eprintln!(
                "{}: ignored an incomplete last line ({} bytes)",
                path.display(),
                read.incomplete_tail
            );
        }
        records.extend(read.records);
    }
    let (records, retried) = diff_run::without_retried_errors(records);
    if retried > 0 {
        eprintln!("{retried} error records left out: their searches were tried again (--resume)");
    }
    let (fens, plan) = match input {
        Some((epd, fens)) => {
            // The file named must be the one the plans name.
            let sha = RunPlan::sha256_of(
                &std::fs::read(epd)
                    .with_context(|| format!("cannot read {}", super::shown(epd)))?,
            );
            if let Some(other) = plans
                .iter()
                .find_map(|p| p.epd_sha256.as_ref().filter(|s| **s != sha))
            {
                bail!(
                    "--epd {} is not the file the run searched: its SHA-256 is {sha}, the results \
                     files' plan names {other}",
                    super::shown(epd)
                );
            }
            let plan = parse_plan(&args.depths, fens.len())?;
            (fens, plan)
        }
        None => {
            if let Some(path) = unplanned {
                bail!(
                    "{} has no plan line (it was made by an older sargon): give the run's \
                     --epd and --depths",
                    super::shown(path)
                );
            }
            let (positions, plan) = diff_run::header::merge(&plans)?;
            // The positions as the records name them (each index is checked against the
            // others with it); an index no record has is only counted as missing.
            let mut fens = vec![String::new(); positions];
            for r in &records {
                if let Some(fen) = fens.get_mut(r.position).filter(|f| f.is_empty()) {
                    *fen = r.fen.clone();
                }
            }
            (fens, plan)
        }
    };
    let mut report = report::build(&fens, &plan, &records, incomplete);
    if args.allow_unverified {
        report.allow_unverified();
    }
    match args.format {
        Format::Text => {
            let places = super::diff_causes::Places::for_causes(store, &report.causes);
            print!("{}", report.to_text_looking(&|c| places.lines(c)))
        }
        Format::Json => println!("{}", serde_json::to_string_pretty(&report)?),
    }
    Ok(report.ok)
}
