//! The report as text ([`Report::to_text`]) and the summary line that ends a run.

use std::fmt::Write as _;

use super::contents::{Cause, DepthPlan, Report};
use crate::diff_run::Tally;

/// How many items of a long list the text report shows.
pub(super) const SHOWN: usize = 10;

/// A side's name in a column or beside its event: `exec` and `uci` for another person's
/// program, whose whole command is in the consistency section.
pub(super) fn side_label(engine: &str) -> &str {
    if engine.starts_with("exec:") {
        "exec"
    } else if engine.starts_with("uci:") {
        "uci"
    } else {
        engine
    }
}

pub(super) use super::words::plural;

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
    ///
    /// ```
    /// use sargon_referee::diff_run::report::{build, DepthPlan};
    ///
    /// let fens = vec!["startpos".to_string()];
    /// let text = build(&fens, &DepthPlan::every(&[1, 2], 1), &[], 0).to_text();
    /// assert!(text.starts_with("coverage: "));
    /// assert!(text.contains("2 searches expected, 0 recorded"));
    /// ```
    pub fn to_text(&self) -> String {
        self.to_text_looking(&|_| Vec::new())
    }

    /// The report for people, with the lines `look` gives under each likely cause: where
    /// to look (the original's listing at the hook point, the port's function), which
    /// the command has when a ROM is imported.
    ///
    /// ```
    /// use sargon_referee::diff_run::report::{build, DepthPlan};
    /// use sargon_referee::diff_run::{DivergenceRecord, SearchRecord, Verdict};
    /// use serde_json::json;
    /// # let line = r#"{"position":0,"fen":"startpos","depth":1,"left":{"engine":"port","cpu_us":1,"z80_instructions":null},"right":{"engine":"port","cpu_us":1,"z80_instructions":null},"book":false,"sargon_version":"0","git_commit":"0","rom":null,"rom_sha256":null,"shard":"0/1","verdict":"agree","events":9,"divergence":null,"error":null,"wall_us":1}"#;
    /// # let agreed: SearchRecord = serde_json::from_str(line)?;
    /// // `agreed`: a record of position 0 at depth 1 whose engines agreed; this one did not.
    /// let eval = |score: u8| json!({"event": "eval", "ply": 1, "path": ["e2e4"], "score": score});
    /// let divergence = DivergenceRecord { event: 5, left: Some(eval(0x80)), right: Some(eval(0x88)), path: Some(vec!["e2e4".into()]) };
    /// let parted = SearchRecord { verdict: Verdict::Diverge, divergence: Some(divergence), ..agreed };
    /// let report = build(&["startpos".into()], &DepthPlan::every(&[1], 1), &[parted], 0);
    /// let text = report.to_text_looking(&|c| vec![format!("look at {}", c.hook_point.as_deref().unwrap_or("?"))]);
    /// assert!(text.contains("   look at points.end\n"));
    /// assert!(!report.to_text().contains("look at"));
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn to_text_looking(&self, look: &dyn Fn(&Cause) -> Vec<String>) -> String {
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
        let event = super::causes::readable;
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
        s.push_str(&super::causes::causes_text(
            &self.causes,
            (&left_name, &right_name),
            look,
        ));
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
///
/// ```
/// use sargon_referee::diff_run::{report::summary_line, Tally};
/// let tally = Tally { searches: 4, events: 1234, divergences: 1, errors: 0 };
/// assert_eq!(summary_line(2, &tally), "positions: 2, searches: 4, events compared: 1234, divergences: 1");
/// let failed = Tally { errors: 2, ..tally };
/// assert!(summary_line(2, &failed).ends_with(", errors: 2"));
/// ```
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
