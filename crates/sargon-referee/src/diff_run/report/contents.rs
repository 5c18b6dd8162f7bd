//! What a report holds: coverage, consistency, the counts per depth and the findings.

use std::collections::BTreeMap;

use serde::Serialize;

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
    ///
    /// ```
    /// use sargon_referee::diff_run::report::DepthPlan;
    /// let plan = DepthPlan::every(&[1, 2], 100);
    /// assert_eq!(plan, [DepthPlan { depth: 1, positions: 100 }, DepthPlan { depth: 2, positions: 100 }]);
    /// ```
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
    /// The divergences grouped into likely causes, the largest first
    /// ([`super::causes::causes`]).
    pub causes: Vec<Cause>,
    /// The searches that failed.
    pub errors: Vec<Finding>,
    /// Incomplete last lines found in the files (searches in flight when a shard stopped).
    pub incomplete_lines: usize,
    /// Why the report is not `ok`, one sentence each.
    pub problems: Vec<String>,
    /// True when there are no problems.
    pub ok: bool,
}

/// One likely cause: the divergences whose first differing event has one key.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cause {
    /// The kind of the original's (left) event: `created`, `eval`, `alpha_beta`,
    /// `best_test`, `best`, `ascend`, `result`; `end` when the left trace had ended.
    pub event: String,
    /// The hook point where that event is recorded (`points.end`); none for the result,
    /// which is made from the search's outcome, and for the end of the trace.
    pub hook_point: Option<String>,
    /// The routine of the original where the event arises (`POINTS`).
    pub routine: String,
    /// The field that differs: `score`, `two_above`, `negated`, `one_above`, `cutoff`,
    /// `accepted`, `moves`, `best`, `path`, `ply`, or `event` (the right side's event is
    /// of another kind, or its trace ended).
    pub field: String,
    /// How it differs, as the key has it: `higher on the right`, `true on the left, false
    /// on the right`, `right trace ended`...
    pub change: String,
    /// Divergences with this cause.
    pub searches: usize,
    /// Distinct positions among them.
    pub positions: usize,
    /// For a score: the smallest and largest difference, right minus left, in score units
    /// (8 to a pawn).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deltas: Option<(i16, i16)>,
    /// The plies (path lengths) of the differing events.
    pub plies: Vec<usize>,
    /// The first divergence of the group (by position, then depth): the worked example.
    pub example: Finding,
    /// The board at the example's divergence (FEN), when its path can be played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
}
