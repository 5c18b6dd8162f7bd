//! `sargon emulator`: checks of the emulator itself, apart from Sargon's chess.
//!
//! `sargon emulator crosscheck` runs searches of the original on iz80 and on a second,
//! independent Z80 core in lock-step ([`sargon_original::emu::lockstep`]) and reports the
//! instructions compared and the first disagreement. Its positions are the golden corpus
//! (`label | depths | book | FEN` lines, each with its own depths and book) or an EPD file.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use anyhow::{bail, Context, Result};

use super::progress::Progress;
use sargon_core::position::Book;
use sargon_core::position::{self, parse_position};
use sargon_engines::engines::EngineSpec;
use sargon_original::emu::lockstep::{flag_names, Crosscheck, CycleMismatch, Options, SearchCheck};
use sargon_original::rom::RomStore;

#[derive(clap::Subcommand, Debug)]
pub(crate) enum EmulatorCommand {
    /// Run searches on iz80 and on a second Z80 core (z80emu) in lock-step, comparing
    /// every instruction: registers, flags, memory writes, and T-states against the
    /// documented table
    Crosscheck(CrosscheckArgs),
}

#[derive(clap::Args, Debug)]
pub(crate) struct CrosscheckArgs {
    /// The positions: the golden corpus format (`label | depths | book | FEN`) or an EPD
    /// file (default: tests/golden/corpus.txt, run from the repository)
    pub positions: Option<PathBuf>,
    /// Depths A-B: for the corpus, only its depths within the range; for an EPD file, the
    /// depths searched (default 1-2)
    #[arg(long)]
    pub depths: Option<String>,
    /// For an EPD file: search book positions instead of playing from the book
    #[arg(long)]
    pub no_book: bool,
    /// Compare the undocumented flag bits 5 and 3 too (by default only S Z H P/V N C are
    /// compared, and where bits 5 and 3 part is listed)
    #[arg(long)]
    pub undocumented_flags: bool,
    /// After each search, run it again on each core alone and time both
    #[arg(long)]
    pub time_cores: bool,
    /// Searches run at once (each on its own pair of cores)
    #[arg(long, default_value_t = 1, value_parser = super::numbers::jobs, allow_negative_numbers = true)]
    pub jobs: usize,
    /// ROM to run (default: the only one imported, or `sargon`)
    #[arg(long)]
    pub rom: Option<String>,
}

/// One search to check.
struct Job {
    label: String,
    fen: String,
    depth: u8,
    book: bool,
    book_random: u8,
}

const DEFAULT_POSITIONS: &str = "tests/golden/corpus.txt";

pub(crate) fn run(store: &RomStore, command: EmulatorCommand) -> Result<bool> {
    match command {
        EmulatorCommand::Crosscheck(args) => crosscheck(store, args),
    }
}

/// Read the golden corpus format or EPD into searches.
fn plan(args: &CrosscheckArgs) -> Result<Vec<Job>> {
    let path = args
        .positions
        .clone()
        .unwrap_or_else(|| PathBuf::from(DEFAULT_POSITIONS));
    let text = super::text::read_chess(&path).with_context(|| {
        if args.positions.is_none() {
            format!("cannot read the default positions {DEFAULT_POSITIONS} (run from the repository, or name an EPD file)")
        } else {
            format!("cannot read {}", super::shown(&path))
        }
    })?;
    let range = match &args.depths {
        Some(r) => Some(super::diff::parse_depth_range(r)?),
        None => None,
    };
    if let Some(r) = &range {
        for &d in r {
            EngineSpec::EMULATOR.check_depth(d)?;
        }
    }
    let corpus = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|l| l.split('|').count() == 4);
    let jobs = if corpus {
        corpus_jobs(&text, range.as_deref(), &path)?
    } else {
        let depths = range.unwrap_or_else(|| vec![1, 2]);
        let fens = super::diff::epd_positions(&path, &text)?;
        let mut jobs = Vec::new();
        for (i, fen) in fens.iter().enumerate() {
            for &depth in &depths {
                jobs.push(Job {
                    label: format!("#{}", i + 1),
                    fen: fen.clone(),
                    depth,
                    book: !args.no_book,
                    book_random: 0,
                });
            }
        }
        jobs
    };
    if jobs.is_empty() {
        bail!("no searches: no position has a depth in the range");
    }
    Ok(jobs)
}

/// The golden corpus's lines (`label | depths | book | FEN`), each depth a search.
fn corpus_jobs(text: &str, range: Option<&[u8]>, path: &Path) -> Result<Vec<Job>> {
    let mut jobs = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: &str| {
            anyhow::anyhow!(
                "{} line {}: {why}: {}",
                super::shown(path),
                i + 1,
                sargon_core::input::echo(line)
            )
        };
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        if f.len() != 4 {
            return Err(bad("expected label | depths | book | FEN"));
        }
        let (book, book_random) = match f[2] {
            "nobook" => (false, 0),
            "book" => (true, 0),
            other => match other.strip_prefix("book").and_then(|r| r.parse().ok()) {
                Some(r) => (true, r),
                None => return Err(bad("the book is `book`, `bookN` or `nobook`")),
            },
        };
        for d in f[1].split(',') {
            let depth: u8 = d.trim().parse().map_err(|_| bad("bad depth"))?;
            EngineSpec::EMULATOR
                .check_depth(depth)
                .map_err(|e| bad(&e.to_string()))?;
            if range.is_some_and(|r| !r.contains(&depth)) {
                continue;
            }
            jobs.push(Job {
                label: f[0].to_string(),
                fen: f[3].to_string(),
                depth,
                book,
                book_random,
            });
        }
    }
    Ok(jobs)
}

/// What the searches add up to.
#[derive(Default)]
struct Totals {
    searches: usize,
    instructions: u64,
    table_t_states: u64,
    second_t_states: u64,
    iz80_t_states: u64,
    cycle_mismatches: Vec<CycleMismatch>,
    undocumented_flags: Vec<CycleMismatch>,
    iz80_instructions: u64,
    iz80_seconds: f64,
    second_instructions: u64,
    second_seconds: f64,
}

impl Totals {
    fn add(&mut self, c: &SearchCheck) {
        self.searches += 1;
        self.instructions += c.instructions;
        self.table_t_states += c.table_t_states;
        self.second_t_states += c.second_t_states;
        self.iz80_t_states += c.iz80_t_states;
        merge(&mut self.cycle_mismatches, &c.cycle_mismatches);
        merge(&mut self.undocumented_flags, &c.undocumented_flags);
        if let Some(s) = &c.speed {
            self.iz80_instructions += s.iz80_instructions;
            self.iz80_seconds += s.iz80_seconds;
            self.second_instructions += s.second_instructions;
            self.second_seconds += s.second_seconds;
        }
    }
}

/// Add one search's tallies (per address and pair of values) to the run's.
fn merge(into: &mut Vec<CycleMismatch>, from: &[CycleMismatch]) {
    for m in from {
        match into
            .iter_mut()
            .find(|x| (x.pc, x.table, x.second) == (m.pc, m.table, m.second))
        {
            Some(x) => x.count += m.count,
            None => into.push(m.clone()),
        }
    }
}

fn crosscheck(store: &RomStore, args: CrosscheckArgs) -> Result<bool> {
    let jobs = plan(&args)?;
    let rom = store.load(args.rom.as_deref())?;
    if let Some(why) = rom.unverified_reason() {
        eprintln!("warning: ROM `{}` is not verified: {why}", rom.meta.name);
    }
    let options = Options {
        undocumented_flags: args.undocumented_flags,
        time_cores: args.time_cores,
        fault: None,
    };
    let started = std::time::Instant::now();
    let progress = Progress::new(jobs.len() as u64, "searches");
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let results: Mutex<Vec<Option<SearchCheck>>> = Mutex::new(vec![None; jobs.len()]);
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..super::numbers::workers(Some(args.jobs), jobs.len()) {
            let (jobs, next, stop, results, failure, progress) =
                (&jobs, &next, &stop, &results, &failure, &progress);
            let rom = rom.clone();
            let options = options.clone();
            scope.spawn(move || {
                let work = || -> Result<()> {
                    let mut cc =
                        Crosscheck::new(rom, options).context("the imported ROM cannot be used")?;
                    while !stop.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(i) else { break };
                        let pos = parse_position(&job.fen)
                            .with_context(|| format!("{}: bad position", job.label))?;
                        let setup = position::setup(&pos, Book::from(job.book))?;
                        let t = std::time::Instant::now();
                        let check = cc
                            .search(&setup, job.depth, job.book_random)
                            .with_context(|| format!("{} depth {}", job.label, job.depth))?;
                        let verdict = if check.disagreement.is_some() {
                            stop.store(true, Ordering::Relaxed);
                            "DISAGREE"
                        } else {
                            "agree"
                        };
                        let t_states = if check.cycle_mismatches.is_empty() {
                            "T-states as the table".to_string()
                        } else {
                            let n: u64 = check.cycle_mismatches.iter().map(|m| m.count).sum();
                            format!("{} instructions' T-states differ from the table", group(n))
                        };
                        progress.println(format!(
                            "{} d{}: {} instructions, {verdict}, {t_states} ({:.1} s)",
                            job.label,
                            job.depth,
                            group(check.instructions),
                            t.elapsed().as_secs_f64()
                        ));
                        results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(check);
                        progress.inc();
                    }
                    Ok(())
                };
                if let Err(e) = work() {
                    stop.store(true, Ordering::Relaxed);
                    failure
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .get_or_insert(e);
                }
            });
        }
    });
    progress.finish();
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut totals = Totals::default();
    let mut first = None;
    for (job, check) in jobs.iter().zip(&results) {
        let Some(check) = check else { continue };
        totals.add(check);
        if first.is_none()
            && let Some(d) = &check.disagreement
        {
            first = Some((job, d));
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{} of {} searches, {} instructions compared in {:.1} s ({:.1} M instructions/s in lock-step)",
        totals.searches,
        jobs.len(),
        group(totals.instructions),
        seconds,
        totals.instructions as f64 / seconds / 1e6
    );
    println!(
        "T-states: documented table {}, z80emu {}, iz80 {}",
        group(totals.table_t_states),
        group(totals.second_t_states),
        group(totals.iz80_t_states)
    );
    if totals.cycle_mismatches.is_empty() {
        println!("the documented T-state table and z80emu agree on every instruction");
    } else {
        println!("instructions whose T-states differ (table vs z80emu):");
        totals.cycle_mismatches.sort_by_key(|m| m.pc);
        for m in &totals.cycle_mismatches {
            println!(
                "  {:04x} {:<12} {:<20} table {:>2}, z80emu {:>2}, {} times",
                m.pc,
                m.place,
                m.instruction,
                m.table,
                m.second,
                group(m.count)
            );
        }
    }
    if !args.undocumented_flags {
        if totals.undocumented_flags.is_empty() {
            println!("flag bits 5 and 3 (masked) never parted");
        } else {
            println!("instructions where flag bits 5 and 3 (masked) parted (iz80 vs z80emu):");
            totals.undocumented_flags.sort_by_key(|m| m.pc);
            for m in &totals.undocumented_flags {
                println!(
                    "  {:04x} {:<12} {:<20} iz80 [{}], z80emu [{}], {} times",
                    m.pc,
                    m.place,
                    m.instruction,
                    flag_names(m.table as u8),
                    flag_names(m.second as u8),
                    group(m.count)
                );
            }
        }
    }
    if args.time_cores && totals.iz80_seconds > 0.0 && totals.second_seconds > 0.0 {
        println!(
            "each core alone on the same FNDMOV calls: iz80 {} instructions in {:.2} s ({:.1} M/s), z80emu {} in {:.2} s ({:.1} M/s)",
            group(totals.iz80_instructions),
            totals.iz80_seconds,
            totals.iz80_instructions as f64 / totals.iz80_seconds / 1e6,
            group(totals.second_instructions),
            totals.second_seconds,
            totals.second_instructions as f64 / totals.second_seconds / 1e6,
        );
    }
    match first {
        None => {
            println!("0 disagreements");
            Ok(true)
        }
        Some((job, d)) => {
            println!(
                "first disagreement: {} depth {} ({}):\n{d}",
                job.label, job.depth, job.fen
            );
            Ok(false)
        }
    }
}

/// 1234567 as 1,234,567.
fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
