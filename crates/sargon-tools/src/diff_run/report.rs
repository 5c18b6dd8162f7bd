//! The report over a run's results files: is every search of the run there exactly once,
//! were they all made alike, and what did they find.
//!
//! A run over many shards is only as good as its bookkeeping: a shard that never started,
//! one that ran twice, or one that ran on another ROM image would each make the summary
//! wrong without any divergence showing. So the report checks coverage (each position of
//! the input at each depth exactly once, matched by index *and* FEN) and consistency (one
//! ROM image, one pair of engines) before it counts, and fails on any gap.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::Serialize;

use super::record::{SearchRecord, Verdict};
use super::Tally;

/// How many items of a long list the text report shows.
const SHOWN: usize = 10;

/// One search: a position index at a depth.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct SearchKey {
    /// The position's index in the input.
    pub position: usize,
    /// The search depth.
    pub depth: u8,
}

/// How far a run goes at one depth: the first `positions` positions of its input.
///
/// A run may go deeper on part of its input only (every position to depth 4, the first
/// 200 to depth 5), since each depth costs several times the one before.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DepthPlan {
    /// The search depth.
    pub depth: u8,
    /// How many positions, from the start of the input, the run searches at this depth.
    pub positions: usize,
}

impl DepthPlan {
    /// Each of `depths` over all `positions` positions.
    pub fn every(depths: &[u8], positions: usize) -> Vec<DepthPlan> {
        depths
            .iter()
            .map(|&depth| DepthPlan { depth, positions })
            .collect()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
/// A search recorded more than once.
pub struct Duplicate {
    /// The position's index in the input.
    pub position: usize,
    /// The search depth.
    pub depth: u8,
    /// How many records it has.
    pub times: usize,
}

/// A record for a search the run does not have.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Unexpected {
    /// The position index in the record.
    pub position: usize,
    /// The depth in the record.
    pub depth: u8,
    /// Why it does not belong to the run.
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
/// Which of the expected searches the records cover.
pub struct Coverage {
    /// Positions in the input.
    pub positions: usize,
    /// The depths the run asked for, each over how many positions.
    pub plan: Vec<DepthPlan>,
    /// The searches the plan makes.
    pub expected_searches: usize,
    /// Expected searches with no record.
    pub missing: Vec<SearchKey>,
    /// Searches with more than one record.
    pub duplicated: Vec<Duplicate>,
    /// Records for searches the run does not have.
    pub unexpected: Vec<Unexpected>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
/// A ROM image the records name, and how many searches used it.
pub struct RomImage {
    /// The ROM's name (none when no engine was the emulator).
    pub rom: Option<String>,
    /// The ROM image's SHA-256.
    pub sha256: Option<String>,
    /// Searches run with it.
    pub searches: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
/// An engine pair and book setting the records compare, and how many searches.
pub struct Comparison {
    /// The left engine's name.
    pub left: String,
    /// The right engine's name.
    pub right: String,
    /// Whether the opening book was on.
    pub book: bool,
    /// Searches compared this way.
    pub searches: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
/// A program version that made records, and how many.
pub struct Program {
    /// The crate version.
    pub sargon_version: String,
    /// The git commit it was built from.
    pub git_commit: String,
    /// Searches it recorded.
    pub searches: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
/// A record whose FEN is not the input's FEN for its position index.
pub struct FenMismatch {
    /// The position index.
    pub position: usize,
    /// The search depth.
    pub depth: u8,
    /// The FEN in the input.
    pub input: String,
    /// The FEN in the record.
    pub recorded: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
/// Whether all records come from one setup: ROM, engines, program, inputs.
pub struct Consistency {
    /// The ROM images used (one entry without a ROM when no engine was the emulator).
    pub rom_images: Vec<RomImage>,
    /// The engine pairs and book settings compared.
    pub comparisons: Vec<Comparison>,
    /// The programs that made the records (listed; several are allowed).
    pub programs: Vec<Program>,
    /// Records whose FEN differs from the input's.
    pub fen_mismatches: Vec<FenMismatch>,
}

/// Counts and costs at one depth.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DepthRow {
    /// The search depth.
    pub depth: u8,
    /// Distinct positions searched at this depth.
    pub positions: usize,
    /// Records at this depth.
    pub searches: usize,
    /// Trace events compared.
    pub events: u64,
    /// Searches whose engines disagreed.
    pub divergences: usize,
    /// Searches that failed.
    pub errors: usize,
    /// CPU time of the left engine's threads, seconds.
    pub left_cpu_s: f64,
    /// CPU time of the right engine's threads, seconds.
    pub right_cpu_s: f64,
    /// Wall-clock time of the searches (one after another), seconds.
    pub wall_s: f64,
}

/// A side's name in a column or beside its event: `exec` and `uci` for another person's
/// program, whose whole command is in the consistency section.
fn side_label(engine: &str) -> &str {
    if engine.starts_with("exec:") {
        "exec"
    } else if engine.starts_with("uci:") {
        "uci"
    } else {
        engine
    }
}

/// A search whose engines disagreed, or could not search.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    /// The position's index in the input.
    pub position: usize,
    /// The position's FEN.
    pub fen: String,
    /// The search depth.
    pub depth: u8,
    /// The first differing event's index (divergences).
    pub event: Option<u64>,
    /// The left engine's event at the divergence (divergences).
    pub left: Option<serde_json::Value>,
    /// The right engine's event at the divergence (divergences).
    pub right: Option<serde_json::Value>,
    /// The search path (moves) at the divergence (divergences).
    pub path: Option<Vec<String>>,
    /// Why the search failed (errors).
    pub error: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
/// Totals over all records.
pub struct Summary {
    /// Distinct positions with at least one record.
    pub positions: usize,
    /// Records.
    pub searches: usize,
    /// Trace events compared.
    pub events: u64,
    /// Searches whose engines disagreed.
    pub divergences: usize,
    /// Searches that failed.
    pub errors: usize,
    /// Searches run on a ROM that is not verified (`rom_verified: false`): their "original"
    /// may not be Sargon's.
    pub unverified: usize,
    /// Searches whose left side was read from the cache of the original's traces: their
    /// left CPU time is the time to read them, not to search.
    pub cached: usize,
    /// How many engine runs of the original each Z80 core did (`iz80`, `z80emu`), both
    /// sides counted; a trace read from the cache counts for no core. Empty when no record
    /// names its core (the port against itself, files made before the field).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub cores: BTreeMap<String, usize>,
}

/// The whole report; `ok` when everything agreed and the run is complete and consistent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Totals.
    pub summary: Summary,
    /// Which expected searches were recorded.
    pub coverage: Coverage,
    /// Whether the records share one setup.
    pub consistency: Consistency,
    /// Counts and costs per depth.
    pub by_depth: Vec<DepthRow>,
    /// The searches whose engines disagreed.
    pub divergences: Vec<Finding>,
    /// The searches that failed.
    pub errors: Vec<Finding>,
    /// Incomplete last lines found in the files (searches in flight when a shard stopped).
    pub incomplete_lines: usize,
    /// Why the report is not `ok`, one sentence each.
    pub problems: Vec<String>,
    /// True when there are no problems.
    pub ok: bool,
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Judge the records of a run that should hold every position of `fens` (the input, in
/// order) at each depth of `plan` over the positions it names. `incomplete_lines` is what
/// reading the files found.
pub fn build(
    fens: &[String],
    plan: &[DepthPlan],
    records: &[SearchRecord],
    incomplete_lines: usize,
) -> Report {
    let planned = |depth: u8| {
        plan.iter()
            .filter(|p| p.depth == depth)
            .map(|p| p.positions.min(fens.len()))
            .max()
    };
    let tally = Tally::of(records);
    let mut seen: BTreeMap<SearchKey, usize> = BTreeMap::new();
    let mut unexpected = Vec::new();
    let mut fen_mismatches = Vec::new();
    for r in records {
        let key = SearchKey {
            position: r.position,
            depth: r.depth,
        };
        if r.position >= fens.len() {
            unexpected.push(Unexpected {
                position: r.position,
                depth: r.depth,
                reason: format!("the input has {} positions", fens.len()),
            });
            continue;
        }
        match planned(r.depth) {
            None => {
                unexpected.push(Unexpected {
                    position: r.position,
                    depth: r.depth,
                    reason: "a depth outside the run's".into(),
                });
                continue;
            }
            Some(n) if r.position >= n => {
                unexpected.push(Unexpected {
                    position: r.position,
                    depth: r.depth,
                    reason: format!("the run goes to depth {} on the first {n} only", r.depth),
                });
                continue;
            }
            Some(_) => {}
        }
        if r.fen != fens[r.position] {
            fen_mismatches.push(FenMismatch {
                position: r.position,
                depth: r.depth,
                input: fens[r.position].clone(),
                recorded: r.fen.clone(),
            });
        }
        *seen.entry(key).or_default() += 1;
    }
    let mut missing = Vec::new();
    for position in 0..fens.len() {
        for p in plan.iter().filter(|p| position < p.positions) {
            let key = SearchKey {
                position,
                depth: p.depth,
            };
            if !seen.contains_key(&key) {
                missing.push(key);
            }
        }
    }
    let duplicated: Vec<Duplicate> = seen
        .iter()
        .filter(|(_, &n)| n > 1)
        .map(|(k, &times)| Duplicate {
            position: k.position,
            depth: k.depth,
            times,
        })
        .collect();

    let rom_images = count_by(records, |r| (r.rom.clone(), r.rom_sha256.clone()))
        .into_iter()
        .map(|((rom, sha256), searches)| RomImage {
            rom,
            sha256,
            searches,
        })
        .collect();
    let comparisons = count_by(records, |r| {
        (r.left.engine.clone(), r.right.engine.clone(), r.book)
    })
    .into_iter()
    .map(|((left, right, book), searches)| Comparison {
        left,
        right,
        book,
        searches,
    })
    .collect();
    let programs = count_by(records, |r| {
        (r.sargon_version.clone(), r.git_commit.clone())
    })
    .into_iter()
    .map(|((sargon_version, git_commit), searches)| Program {
        sargon_version,
        git_commit,
        searches,
    })
    .collect();

    let mut depth_set: BTreeSet<u8> = plan.iter().map(|p| p.depth).collect();
    depth_set.extend(records.iter().map(|r| r.depth));
    let by_depth = depth_set
        .into_iter()
        .map(|depth| depth_row(depth, records.iter().filter(|r| r.depth == depth)))
        .collect();

    let finding = |r: &SearchRecord| Finding {
        position: r.position,
        fen: r.fen.clone(),
        depth: r.depth,
        event: r.divergence.as_ref().map(|d| d.event),
        left: r.divergence.as_ref().and_then(|d| d.left.clone()),
        right: r.divergence.as_ref().and_then(|d| d.right.clone()),
        path: r.divergence.as_ref().and_then(|d| d.path.clone()),
        error: r.error.clone(),
    };
    let mut divergences: Vec<Finding> = records
        .iter()
        .filter(|r| r.verdict == Verdict::Diverge)
        .map(finding)
        .collect();
    divergences.sort_by_key(|f| (f.position, f.depth));
    let mut errors: Vec<Finding> = records
        .iter()
        .filter(|r| r.verdict == Verdict::Error)
        .map(finding)
        .collect();
    errors.sort_by_key(|f| (f.position, f.depth));

    let mut report = Report {
        summary: Summary {
            positions: records
                .iter()
                .map(|r| r.position)
                .collect::<BTreeSet<_>>()
                .len(),
            searches: tally.searches,
            events: tally.events,
            divergences: tally.divergences,
            errors: tally.errors,
            unverified: records
                .iter()
                .filter(|r| r.rom_verified == Some(false))
                .count(),
            cached: records.iter().filter(|r| r.left.cached).count(),
            cores: records
                .iter()
                .flat_map(|r| [&r.left.core, &r.right.core])
                .flatten()
                .fold(BTreeMap::new(), |mut cores, core| {
                    *cores.entry(core.clone()).or_insert(0) += 1;
                    cores
                }),
        },
        coverage: Coverage {
            positions: fens.len(),
            plan: plan.to_vec(),
            expected_searches: plan.iter().map(|p| p.positions.min(fens.len())).sum(),
            missing,
            duplicated,
            unexpected,
        },
        consistency: Consistency {
            rom_images,
            comparisons,
            programs,
            fen_mismatches,
        },
        by_depth,
        divergences,
        errors,
        incomplete_lines,
        problems: Vec::new(),
        ok: false,
    };
    report.problems = problems(&report);
    report.ok = report.problems.is_empty();
    report
}

/// Records counted by a key, in the key's order.
fn count_by<K: Ord>(records: &[SearchRecord], key: impl Fn(&SearchRecord) -> K) -> Vec<(K, usize)> {
    let mut counts = BTreeMap::new();
    for r in records {
        *counts.entry(key(r)).or_insert(0) += 1;
    }
    counts.into_iter().collect()
}

fn depth_row<'a>(depth: u8, records: impl Iterator<Item = &'a SearchRecord>) -> DepthRow {
    let secs = |us: Option<u64>| us.unwrap_or(0) as f64 / 1e6;
    let mut row = DepthRow {
        depth,
        positions: 0,
        searches: 0,
        events: 0,
        divergences: 0,
        errors: 0,
        left_cpu_s: 0.0,
        right_cpu_s: 0.0,
        wall_s: 0.0,
    };
    let mut positions = BTreeSet::new();
    for r in records {
        positions.insert(r.position);
        row.searches += 1;
        row.events += r.events;
        row.divergences += usize::from(r.verdict == Verdict::Diverge);
        row.errors += usize::from(r.verdict == Verdict::Error);
        row.left_cpu_s += secs(r.left.cpu_us);
        row.right_cpu_s += secs(r.right.cpu_us);
        row.wall_s += secs(Some(r.wall_us));
    }
    row.positions = positions.len();
    row
}

fn problems(r: &Report) -> Vec<String> {
    let mut out = Vec::new();
    let c = &r.coverage;
    if !c.missing.is_empty() {
        out.push(format!(
            "{} missing",
            plural(c.missing.len(), "search", "searches")
        ));
    }
    if !c.duplicated.is_empty() {
        out.push(format!(
            "{} recorded more than once",
            plural(c.duplicated.len(), "search", "searches")
        ));
    }
    if !c.unexpected.is_empty() {
        out.push(format!(
            "{} not part of this run",
            plural(c.unexpected.len(), "record", "records")
        ));
    }
    let k = &r.consistency;
    if k.rom_images.len() > 1 {
        out.push(format!("{} ROM images mixed", k.rom_images.len()));
    }
    if k.comparisons.len() > 1 {
        out.push(format!(
            "{} different comparisons (engines or book) mixed",
            k.comparisons.len()
        ));
    }
    if !k.fen_mismatches.is_empty() {
        out.push(format!(
            "{} whose FEN differs from the input's",
            plural(k.fen_mismatches.len(), "record", "records")
        ));
    }
    if r.summary.divergences > 0 {
        out.push(plural(r.summary.divergences, "divergence", "divergences"));
    }
    if r.summary.errors > 0 {
        out.push(plural(r.summary.errors, "search error", "search errors"));
    }
    if r.summary.unverified > 0 {
        out.push(unverified_problem(r.summary.unverified));
    }
    out
}

fn unverified_problem(searches: usize) -> String {
    format!(
        "{} on a ROM that is not verified (sargon rom verify; --allow-unverified accepts them)",
        plural(searches, "search", "searches")
    )
}

impl Report {
    /// Accept searches run on an unverified ROM (`diff report --allow-unverified`): they
    /// are still counted, but no longer make the report fail.
    pub fn allow_unverified(&mut self) {
        let problem = unverified_problem(self.summary.unverified);
        self.problems.retain(|p| *p != problem);
        self.ok = self.problems.is_empty();
    }
}

/// A list in text, the first [`SHOWN`] items and how many more.
fn abbreviated<T>(items: &[T], show: impl Fn(&T) -> String) -> String {
    let mut text: Vec<String> = items.iter().take(SHOWN).map(show).collect();
    if items.len() > SHOWN {
        text.push(format!("... and {} more", items.len() - SHOWN));
    }
    text.join(", ")
}

/// `1-4`, `3` or `1,3,5`.
fn depth_list(depths: &[u8]) -> String {
    match depths {
        [] => "(none)".into(),
        [d] => d.to_string(),
        [first, .., last] if depths.windows(2).all(|w| w[1] == w[0] + 1) => {
            format!("{first}-{last}")
        }
        _ => depths
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(","),
    }
}

/// `1,000 positions at depths 1-4, the first 200 at depth 5`.
fn plan_text(positions: usize, plan: &[DepthPlan]) -> String {
    // Depths that share a position count are named together, in depth order.
    let mut groups: Vec<(usize, Vec<u8>)> = Vec::new();
    for p in plan {
        let n = p.positions.min(positions);
        match groups.last_mut() {
            Some((m, depths)) if *m == n => depths.push(p.depth),
            _ => groups.push((n, vec![p.depth])),
        }
    }
    let depths_text = |depths: &[u8]| {
        let word = if depths.len() == 1 { "depth" } else { "depths" };
        format!("{word} {}", depth_list(depths))
    };
    let mut parts = Vec::new();
    for (n, depths) in &groups {
        parts.push(if *n == positions {
            format!(
                "{} at {}",
                plural(positions, "position", "positions"),
                depths_text(depths)
            )
        } else {
            format!("the first {n} at {}", depths_text(depths))
        });
    }
    if parts.is_empty() || groups[0].0 != positions {
        parts.insert(0, plural(positions, "position", "positions"));
    }
    parts.join(", ")
}

impl Report {
    /// The summary line, as `sargon diff` prints it at the end of a run.
    pub(crate) fn summary_line(&self) -> String {
        summary_line(
            self.summary.positions,
            &Tally {
                searches: self.summary.searches,
                events: self.summary.events,
                divergences: self.summary.divergences,
                errors: self.summary.errors,
            },
        )
    }

    /// The names of the CPU-time columns: the engines' (`emulator`, `port`, `exec`, `uci`)
    /// when the run compared one pair.
    fn cpu_columns(&self) -> (String, String) {
        match self.consistency.comparisons.as_slice() {
            [c] if c.left != c.right => (
                format!("{} cpu", side_label(&c.left)),
                format!("{} cpu", side_label(&c.right)),
            ),
            [c] => (
                format!("{} cpu (left)", side_label(&c.left)),
                format!("{} cpu (right)", side_label(&c.right)),
            ),
            _ => ("left cpu".into(), "right cpu".into()),
        }
    }

    /// Is the right side's CPU time measured? Not for another person's program (`exec:`,
    /// `uci:`), which runs in a process of its own.
    fn right_cpu_measured(&self) -> bool {
        !self
            .consistency
            .comparisons
            .iter()
            .any(|c| side_label(&c.right) != c.right)
    }

    /// The report for people.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let c = &self.coverage;
        let _ = writeln!(
            s,
            "coverage: {}: {} expected, {} recorded",
            plan_text(c.positions, &c.plan),
            plural(c.expected_searches, "search", "searches"),
            self.summary.searches
        );
        let key = |position: usize, depth: u8| format!("position {position} depth {depth}");
        if c.missing.is_empty() && c.duplicated.is_empty() && c.unexpected.is_empty() {
            let _ = writeln!(s, "  every search exactly once");
        }
        if !c.missing.is_empty() {
            let _ = writeln!(
                s,
                "  missing ({}): {}",
                c.missing.len(),
                abbreviated(&c.missing, |k| key(k.position, k.depth))
            );
        }
        if !c.duplicated.is_empty() {
            let _ = writeln!(
                s,
                "  duplicated ({}): {}",
                c.duplicated.len(),
                abbreviated(&c.duplicated, |d| format!(
                    "{} ({} times)",
                    key(d.position, d.depth),
                    d.times
                ))
            );
        }
        if !c.unexpected.is_empty() {
            let _ = writeln!(
                s,
                "  not part of this run ({}): {}",
                c.unexpected.len(),
                abbreviated(&c.unexpected, |u| format!(
                    "{} ({})",
                    key(u.position, u.depth),
                    u.reason
                ))
            );
        }
        if self.incomplete_lines > 0 {
            let _ = writeln!(
                s,
                "  {} (searches in flight when a shard stopped) ignored",
                plural(
                    self.incomplete_lines,
                    "incomplete last line",
                    "incomplete last lines"
                )
            );
        }
        let k = &self.consistency;
        let _ = writeln!(s, "consistency:");
        for img in &k.rom_images {
            let _ = match (&img.rom, &img.sha256) {
                (Some(rom), Some(sha)) => writeln!(
                    s,
                    "  ROM image: {rom} {sha} ({})",
                    plural(img.searches, "search", "searches")
                ),
                _ => writeln!(
                    s,
                    "  ROM image: none, the emulator did not run ({})",
                    plural(img.searches, "search", "searches")
                ),
            };
        }
        if self.summary.unverified > 0 {
            let _ = writeln!(
                s,
                "  NOT VERIFIED: {} ran on a ROM that is not the known Sargon image",
                plural(self.summary.unverified, "search", "searches")
            );
        }
        for cmp in &k.comparisons {
            let _ = writeln!(
                s,
                "  compared: {} with {}, opening book {} ({})",
                cmp.left,
                cmp.right,
                if cmp.book { "on" } else { "off" },
                plural(cmp.searches, "search", "searches")
            );
        }
        for p in &k.programs {
            let _ = writeln!(
                s,
                "  program: sargon {} commit {} ({})",
                p.sargon_version,
                p.git_commit,
                plural(p.searches, "search", "searches")
            );
        }
        if !k.fen_mismatches.is_empty() {
            let _ = writeln!(
                s,
                "  FEN differs from the input's ({}): {}",
                k.fen_mismatches.len(),
                abbreviated(&k.fen_mismatches, |m| format!(
                    "{}: recorded `{}`, input `{}`",
                    key(m.position, m.depth),
                    m.recorded,
                    m.input
                ))
            );
        }
        let _ = writeln!(s, "{}", self.summary_line());
        let _ = writeln!(s);
        let (left_cpu, right_cpu) = self.cpu_columns();
        let _ = writeln!(
            s,
            "{:>5} {:>9} {:>9} {:>14} {:>11} {:>14} {:>14}",
            "depth", "positions", "searches", "events", "divergences", left_cpu, right_cpu
        );
        for row in &self.by_depth {
            let _ = writeln!(
                s,
                "{:>5} {:>9} {:>9} {:>14} {:>11} {:>14} {:>14}",
                row.depth,
                row.positions,
                row.searches,
                row.events,
                row.divergences,
                format!("{:.2} s", row.left_cpu_s),
                if self.right_cpu_measured() {
                    format!("{:.2} s", row.right_cpu_s)
                } else {
                    "-".to_string()
                }
            );
        }
        if self.summary.cached > 0 {
            let _ = writeln!(
                s,
                "{} read from the cache of the original's traces: their left CPU time is the \
                 time to read them",
                plural(self.summary.cached, "search", "searches")
            );
        }
        // The default core goes unsaid, as in the engines' names; another one is named.
        if self.summary.cores.keys().any(|core| core != "iz80") {
            let cores: Vec<String> = self
                .summary
                .cores
                .iter()
                .map(|(core, n)| format!("{core} in {}", plural(*n, "search", "searches")))
                .collect();
            let _ = writeln!(s, "the original ran on {}", cores.join(", "));
        }
        let (left_name, right_name) = match k.comparisons.as_slice() {
            [c] => (
                side_label(&c.left).to_string(),
                side_label(&c.right).to_string(),
            ),
            _ => ("left".into(), "right".into()),
        };
        let event = |e: &Option<serde_json::Value>| match e {
            Some(v) => v.to_string(),
            None => "(trace ended)".into(),
        };
        for d in &self.divergences {
            let _ = writeln!(
                s,
                "\nDIVERGENCE in position {} ({}) at depth {}, event #{}:",
                d.position,
                d.fen,
                d.depth,
                d.event.unwrap_or(0)
            );
            let _ = writeln!(s, "  {left_name:<8} {}", event(&d.left));
            let _ = writeln!(s, "  {right_name:<8} {}", event(&d.right));
            if let Some(path) = &d.path {
                let _ = writeln!(
                    s,
                    "  path:    {}",
                    if path.is_empty() {
                        "(root)".into()
                    } else {
                        path.join(" ")
                    }
                );
            }
        }
        for e in &self.errors {
            let _ = writeln!(
                s,
                "\nERROR in position {} ({}) at depth {}: {}",
                e.position,
                e.fen,
                e.depth,
                e.error.as_deref().unwrap_or("")
            );
        }
        let _ = writeln!(s);
        if self.ok {
            let _ = writeln!(s, "report: OK");
        } else {
            let _ = writeln!(s, "report: FAILED: {}", self.problems.join("; "));
        }
        s
    }
}

/// `positions: P, searches: S, events compared: E, divergences: D`, the line that ends a
/// run and a report (errors, rare, are added when there are any).
pub fn summary_line(positions: usize, tally: &Tally) -> String {
    let mut line = format!(
        "positions: {positions}, searches: {}, events compared: {}, divergences: {}",
        tally.searches, tally.events, tally.divergences
    );
    if tally.errors > 0 {
        let _ = write!(line, ", errors: {}", tally.errors);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff_run::record::tests::record;
    use crate::diff_run::record::DivergenceRecord;

    fn fens(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("fen {i}")).collect()
    }

    /// Every position of `n` at depths 1 and 2.
    fn complete(n: usize) -> Vec<SearchRecord> {
        (0..n).flat_map(|p| [1, 2].map(|d| record(p, d))).collect()
    }

    #[test]
    fn a_deeper_run_over_the_first_positions_is_covered_by_its_plan() {
        let plan = [
            DepthPlan {
                depth: 1,
                positions: 6,
            },
            DepthPlan {
                depth: 2,
                positions: 6,
            },
            DepthPlan {
                depth: 3,
                positions: 2,
            },
        ];
        let mut records = complete(6);
        records.extend([record(0, 3), record(1, 3)]);
        let report = build(&fens(6), &plan, &records, 0);
        assert!(report.ok, "{:?}", report.problems);
        assert_eq!(report.coverage.expected_searches, 14);
        assert!(report
            .to_text()
            .starts_with("coverage: 6 positions at depths 1-2, the first 2 at depth 3: 14"));

        // Depth 3 on a position past the first two is not part of the run; one of the
        // first two missing at depth 3 is a gap.
        records.pop();
        records.push(record(4, 3));
        let report = build(&fens(6), &plan, &records, 0);
        assert!(!report.ok);
        assert_eq!(
            report.coverage.missing,
            [SearchKey {
                position: 1,
                depth: 3
            }]
        );
        assert_eq!(report.coverage.unexpected.len(), 1);
        assert_eq!(report.coverage.unexpected[0].position, 4);
    }

    #[test]
    fn a_complete_consistent_run_is_ok() {
        let report = build(&fens(5), &DepthPlan::every(&[1, 2], 5), &complete(5), 0);
        assert_eq!(report.summary.unverified, 0);
        assert!(report.ok, "{:?}", report.problems);
        assert_eq!(
            report.summary_line(),
            "positions: 5, searches: 10, events compared: 1000, divergences: 0"
        );
        assert_eq!(report.by_depth.len(), 2);
        assert_eq!(report.by_depth[0].searches, 5);
        assert!((report.by_depth[0].left_cpu_s - 0.01).abs() < 1e-9);
        let text = report.to_text();
        assert!(text.contains("every search exactly once"), "{text}");
        assert!(text.contains("emulator cpu"), "{text}");
        assert!(text.ends_with("report: OK\n"), "{text}");
    }

    #[test]
    fn searches_read_from_the_trace_cache_are_counted_and_said() {
        let mut records = complete(3);
        assert!(!build(&fens(3), &DepthPlan::every(&[1, 2], 3), &records, 0)
            .to_text()
            .contains("cache"));
        records[0].left.cached = true;
        records[4].left.cached = true;
        let report = build(&fens(3), &DepthPlan::every(&[1, 2], 3), &records, 0);
        assert_eq!(report.summary.cached, 2);
        assert!(report.ok, "a cached search is as good as a searched one");
        let text = report.to_text();
        assert!(
            text.contains("2 searches read from the cache of the original's traces"),
            "{text}"
        );
    }

    #[test]
    fn the_cores_are_counted_and_another_than_iz80_is_named() {
        let mut records = complete(3);
        let text = |records: &[SearchRecord]| {
            build(&fens(3), &DepthPlan::every(&[1, 2], 3), records, 0).to_text()
        };
        assert!(!text(&records).contains("ran on"));
        // The default core is counted but goes unsaid.
        for r in &mut records {
            r.left.core = Some("iz80".into());
        }
        let report = build(&fens(3), &DepthPlan::every(&[1, 2], 3), &records, 0);
        assert_eq!(
            report.summary.cores,
            BTreeMap::from([("iz80".to_string(), 6)])
        );
        assert!(!text(&records).contains("ran on"));
        records[1].left.core = Some("z80emu".into());
        records[2].left.core = Some("z80emu".into());
        let report = build(&fens(3), &DepthPlan::every(&[1, 2], 3), &records, 0);
        assert_eq!(
            report.summary.cores,
            BTreeMap::from([("iz80".to_string(), 4), ("z80emu".to_string(), 2)])
        );
        assert!(report.ok);
        assert!(
            text(&records).contains("the original ran on iz80 in 4 searches, z80emu in 2 searches"),
            "{}",
            text(&records)
        );
    }

    #[test]
    fn searches_on_an_unverified_rom_fail_the_report_unless_allowed() {
        let mut records = complete(3);
        for r in &mut records {
            r.rom_verified = Some(false);
        }
        let mut report = build(&fens(3), &DepthPlan::every(&[1, 2], 3), &records, 0);
        assert_eq!(report.summary.unverified, 6);
        assert!(!report.ok);
        assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
        assert!(
            report.problems[0].contains("not verified"),
            "{:?}",
            report.problems
        );
        let text = report.to_text();
        assert!(
            text.contains("NOT VERIFIED: 6 searches ran on a ROM"),
            "{text}"
        );
        assert!(!text.ends_with("report: OK\n"), "{text}");
        report.allow_unverified();
        assert!(report.ok, "{:?}", report.problems);
        assert!(report.to_text().contains("NOT VERIFIED: 6 searches"));
    }

    #[test]
    fn gaps_and_duplicates_are_listed_and_fail() {
        let mut records = complete(30);
        records.retain(|r| r.position % 2 == 0 || r.depth == 1);
        records.push(record(4, 2));
        let report = build(&fens(30), &DepthPlan::every(&[1, 2], 30), &records, 1);
        assert!(!report.ok);
        assert_eq!(report.coverage.missing.len(), 15);
        assert_eq!(
            report.coverage.missing[0],
            SearchKey {
                position: 1,
                depth: 2
            }
        );
        assert_eq!(
            report.coverage.duplicated,
            vec![Duplicate {
                position: 4,
                depth: 2,
                times: 2
            }]
        );
        assert_eq!(
            report.problems,
            ["15 searches missing", "1 search recorded more than once"]
        );
        let text = report.to_text();
        assert!(
            text.contains("missing (15): position 1 depth 2, position 3 depth 2"),
            "{text}"
        );
        assert!(text.contains("... and 5 more"), "{text}");
        assert!(
            text.contains("duplicated (1): position 4 depth 2 (2 times)"),
            "{text}"
        );
        assert!(text.contains("1 incomplete last line"), "{text}");
        assert!(text.contains("report: FAILED"), "{text}");
    }

    #[test]
    fn mixed_rom_images_and_wrong_positions_fail() {
        let mut records = complete(3);
        records[1].rom_sha256 = Some("bb".repeat(32));
        records[2].fen = "another".into();
        records.push(record(3, 1));
        records.push(record(0, 5));
        let report = build(&fens(3), &DepthPlan::every(&[1, 2], 3), &records, 0);
        assert_eq!(report.consistency.rom_images.len(), 2);
        assert_eq!(report.consistency.fen_mismatches.len(), 1);
        assert_eq!(report.coverage.unexpected.len(), 2);
        assert_eq!(
            report.problems,
            [
                "2 records not part of this run",
                "2 ROM images mixed",
                "1 record whose FEN differs from the input's"
            ]
        );
        let text = report.to_text();
        assert!(
            text.contains(&format!("ROM image: sargon {}", "bb".repeat(32))),
            "{text}"
        );
    }

    #[test]
    fn divergences_are_listed_with_their_first_event() {
        let mut records = complete(2);
        records[3].verdict = Verdict::Diverge;
        records[3].divergence = Some(DivergenceRecord {
            event: 42,
            left: Some(serde_json::json!({"event": "eval", "score": 1})),
            right: Some(serde_json::json!({"event": "eval", "score": 2})),
            path: Some(vec!["e2e4".into()]),
        });
        let report = build(&fens(2), &DepthPlan::every(&[1, 2], 2), &records, 0);
        assert!(!report.ok);
        assert_eq!(report.problems, ["1 divergence"]);
        assert_eq!(report.divergences.len(), 1);
        assert_eq!(report.by_depth[1].divergences, 1);
        let text = report.to_text();
        assert!(
            text.contains("DIVERGENCE in position 1 (fen 1) at depth 2, event #42:"),
            "{text}"
        );
        assert!(text.contains("path:    e2e4"), "{text}");
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["divergences"][0]["event"], 42);
        assert_eq!(json["summary"]["divergences"], 1);
    }
}
