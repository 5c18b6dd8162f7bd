//! Judging a run's records: [`build`] checks coverage and consistency, counts, and lists the problems.

use std::collections::{BTreeMap, BTreeSet};

use super::contents::{
    Comparison, Consistency, Coverage, DepthPlan, DepthRow, Duplicate, FenMismatch, Finding,
    Program, Report, RomImage, SearchKey, Summary, Unexpected,
};
use super::text::plural;
use crate::diff_run::record::{SearchRecord, Verdict};
use crate::diff_run::Tally;

/// Judge the records of a run that should hold every position of `fens` (the input, in
/// order) at each depth of `plan` over the positions it names. `incomplete_lines` is what
/// reading the files found.
///
/// ```
/// use sargon_referee::diff_run::report::{build, DepthPlan};
///
/// // Two positions at depth 1, and no records: two searches missing, and the report fails.
/// let fens = vec!["startpos".to_string(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1".to_string()];
/// let report = build(&fens, &DepthPlan::every(&[1], fens.len()), &[], 0);
/// assert_eq!((report.coverage.expected_searches, report.coverage.missing.len()), (2, 2));
/// assert!(!report.ok && !report.problems.is_empty());
/// ```
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
        .filter(|&(_, &n)| n > 1)
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

    let finding = Finding::of;
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
        causes: super::causes::causes(&divergences),
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

impl Finding {
    /// What a record says of its divergence or error.
    pub(crate) fn of(r: &SearchRecord) -> Finding {
        Finding {
            position: r.position,
            fen: r.fen.clone(),
            depth: r.depth,
            event: r.divergence.as_ref().map(|d| d.event),
            left: r.divergence.as_ref().and_then(|d| d.left.clone()),
            right: r.divergence.as_ref().and_then(|d| d.right.clone()),
            path: r.divergence.as_ref().and_then(|d| d.path.clone()),
            error: r.error.clone(),
        }
    }
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
    ///
    /// ```
    /// use sargon_referee::diff_run::report::{build, DepthPlan};
    ///
    /// let fens = vec!["startpos".to_string()];
    /// let mut report = build(&fens, &DepthPlan::every(&[1], 1), &[], 0);
    /// let problems = report.problems.clone();
    /// report.allow_unverified(); // no search ran on an unverified ROM: nothing to accept
    /// assert_eq!(report.problems, problems);
    /// assert!(!report.ok); // the missing search still fails it
    /// ```
    pub fn allow_unverified(&mut self) {
        let problem = unverified_problem(self.summary.unverified);
        self.problems.retain(|p| *p != problem);
        self.ok = self.problems.is_empty();
    }
}
