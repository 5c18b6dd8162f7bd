//! The results file: one JSON line per search, written as each search completes, after a
//! first line with the run's plan ([`RunPlan`]; files made before it have none).
//!
//! A line is written with a single `write` call on a file opened for appending and then
//! synced, so a run killed at any moment (SIGKILL, a node lost, a pre-empted job) leaves
//! every finished search on disk and at most one incomplete last line: the search in
//! flight. [`ResultsFile::resume`] cuts that line off and appends after the last complete
//! one, so a rerun does neither lose nor repeat a search.
//!
//! The fields are described in `docs/scale-out.md`.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use sargon_core::input::echo;
use sargon_core::outputs::OutputError;
use sargon_core::text_file::{NotUtf8, TextFileError};
use serde::{Deserialize, Serialize};

use super::header::{HeaderLine, RunPlan};

/// What a search found.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Both traces equal to the end.
    Agree,
    /// The traces differ: see [`SearchRecord::divergence`].
    Diverge,
    /// An engine could not do the search: see [`SearchRecord::error`].
    Error,
}

/// One engine's side of a search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineRecord {
    /// `emulator`, `port`, or another person's port: `exec:COMMAND`, `uci:COMMAND`.
    pub engine: String,
    /// CPU time of the engine's thread, in microseconds (`None` for a program of another
    /// person's, which runs in a process of its own).
    pub cpu_us: Option<u64>,
    /// Z80 instructions executed (the emulator, when its search ran to the end).
    pub z80_instructions: Option<u64>,
    /// The trace was read from the cache of the original's traces (`cpu_us` is then the
    /// time to read it); absent in files made before the cache, and when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cached: bool,
    /// The Z80 core the emulator ran this search on, `iz80` or `z80emu`. Absent for the
    /// port and other people's ports, for a trace read from the cache (it was recorded on
    /// whichever core ran it: the cores agree on Sargon's code), and in files made before
    /// this field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core: Option<String>,
}

/// Where the two traces first differ.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DivergenceRecord {
    /// 0-based index of the first differing event.
    pub event: u64,
    /// The left engine's event there, as in `sargon trace --format jsonl` (`null`: its
    /// trace had ended).
    pub left: Option<serde_json::Value>,
    /// The right engine's event there.
    pub right: Option<serde_json::Value>,
    /// The moves (UCI) from the root to the node where the engines parted, when the events
    /// concern a node.
    pub path: Option<Vec<String>>,
}

/// One line of the results file: one search on both engines.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchRecord {
    /// 0-based index of the position in the input (among its position lines).
    pub position: usize,
    /// The position as read from the input.
    pub fen: String,
    /// The search depth.
    pub depth: u8,
    /// The first engine's result.
    pub left: EngineRecord,
    /// The second engine's result.
    pub right: EngineRecord,
    /// Whether Sargon's opening book was allowed (it answers some opening positions
    /// without a search).
    pub book: bool,
    /// The version of the `sargon` program that ran the search.
    pub sargon_version: String,
    /// The git commit it was built from (`unknown` outside a checkout).
    pub git_commit: String,
    /// The ROM the emulator ran (`null` when neither engine is the emulator).
    pub rom: Option<String>,
    /// SHA-256 of that ROM's image.
    pub rom_sha256: Option<String>,
    /// `false` when that ROM did not behave as the known Sargon (stored with
    /// `rom import --accept-different`); absent without a ROM and in older files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rom_verified: Option<bool>,
    /// The shard of the run that made the record, `K/N`.
    pub shard: String,
    /// Whether the engines agreed, diverged or could not search.
    pub verdict: Verdict,
    /// Events compared and found equal.
    pub events: u64,
    /// Where the traces first differ (verdict `diverge`).
    pub divergence: Option<DivergenceRecord>,
    /// Why the search could not be done (verdict `error`).
    pub error: Option<String>,
    /// Wall-clock time of the comparison, in microseconds.
    pub wall_us: u64,
}

impl SearchRecord {
    /// The search the record is about: (position index, depth).
    ///
    /// ```
    /// # use sargon_engines::engines::Side;
    /// # use sargon_referee::diff_run::{self, InputPosition, RunIdentity, RunSettings, Shard};
    /// # let positions = vec![InputPosition::new(0, "startpos", false)?];
    /// # let identity = RunIdentity {
    /// #     left: "port".into(), right: "port".into(), rom: None, book: false,
    /// #     shard: "0/1".parse::<Shard>()?,
    /// # };
    /// # let searches = diff_run::plan(&positions, identity.shard, &[1, 2], &Default::default());
    /// # let mut left = Side::Engine(Box::new(sargon_port::Port::new()));
    /// # let mut right = Side::Engine(Box::new(sargon_port::Port::new()));
    /// let dir = tempfile::tempdir()?;
    /// let path = dir.path().join("results.jsonl");
    /// # let plan = sargon_referee::diff_run::RunPlan { epd_sha256: None, positions: 2, depths: vec![1, 2], first: None, shard: "0/1".into() };
    /// let mut out = diff_run::record::ResultsFile::create(&path, &plan)?;
    /// diff_run::run(&mut left, &mut right, &searches, &identity, RunSettings::default(), Some(&mut out), &mut ())?;
    /// let read = diff_run::record::read_results(&path)?;
    /// let keys: Vec<_> = read.records.iter().map(|r| r.key()).collect();
    /// assert_eq!(keys, [(0, 1), (0, 2)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn key(&self) -> (usize, u8) {
        (self.position, self.depth)
    }

    /// The record as one line of the results file, with its newline.
    ///
    /// ```
    /// # use sargon_engines::engines::Side;
    /// # use sargon_referee::diff_run::{self, InputPosition, RunIdentity, RunSettings, Shard};
    /// # let positions = vec![InputPosition::new(0, "startpos", false)?];
    /// # let identity = RunIdentity {
    /// #     left: "port".into(), right: "port".into(), rom: None, book: false,
    /// #     shard: "0/1".parse::<Shard>()?,
    /// # };
    /// # let searches = diff_run::plan(&positions, identity.shard, &[1, 2], &Default::default());
    /// # let mut left = Side::Engine(Box::new(sargon_port::Port::new()));
    /// # let mut right = Side::Engine(Box::new(sargon_port::Port::new()));
    /// let dir = tempfile::tempdir()?;
    /// let path = dir.path().join("results.jsonl");
    /// # let plan = sargon_referee::diff_run::RunPlan { epd_sha256: None, positions: 2, depths: vec![1, 2], first: None, shard: "0/1".into() };
    /// let mut out = diff_run::record::ResultsFile::create(&path, &plan)?;
    /// diff_run::run(&mut left, &mut right, &searches, &identity, RunSettings::default(), Some(&mut out), &mut ())?;
    /// let read = diff_run::record::read_results(&path)?;
    /// // The file is the records' lines, one after another.
    /// let lines: String = read.records.iter().map(|r| r.to_line()).collect();
    /// assert!(std::fs::read_to_string(&path)?.ends_with(&lines));
    /// assert!(lines.ends_with('\n') && lines.contains("\"verdict\":\"agree\""));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_line(&self) -> String {
        let mut line = serde_json::to_string(self).expect("plain data serialises");
        line.push('\n');
        line
    }
}

/// Why a results file cannot be read, started, resumed or written. Each names the file;
/// the OS's, the reader's or the JSON parser's words are its `source()`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ResultsError {
    /// The file could not be read.
    #[error("cannot read {}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The OS's words.
        #[source]
        cause: std::io::Error,
    },
    /// The file is not text (UTF-16, a line not UTF-8).
    #[error("{}", .path.display())]
    Text {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        #[source]
        cause: TextFileError,
    },
    /// A complete line that is not a search record.
    #[error("{}:{line}: not a `sargon diff` search record", .path.display())]
    Record {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// The JSON parser's words.
        #[source]
        cause: serde_json::Error,
    },
    /// The file could not be opened and locked for the run.
    #[error(transparent)]
    Open(#[from] OutputError),
    /// A new run's file that already has results.
    #[error("{} already has results: add --resume to go on with that run, or remove it", echo(&.path.display().to_string()))]
    HasResults {
        /// The file.
        path: PathBuf,
    },
    /// The incomplete last line of a resumed file could not be cut off.
    #[error("cannot cut the incomplete line off {}", .path.display())]
    Cut {
        /// The file.
        path: PathBuf,
        /// The OS's words.
        #[source]
        cause: std::io::Error,
    },
    /// A record could not be written.
    #[error("cannot write to {}", .path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The OS's words.
        #[source]
        cause: std::io::Error,
    },
}

/// The complete records of a results file.
#[derive(Clone, Debug, Default)]
pub struct ResultsRead {
    /// The run's plan, from the file's first line (`None` in files made before it).
    pub plan: Option<RunPlan>,
    /// The complete lines' records, in file order.
    pub records: Vec<SearchRecord>,
    /// Bytes after the last newline: an incomplete line left by a run that was killed
    /// while writing it (0 when the file ends cleanly).
    pub incomplete_tail: u64,
}

/// Read a results file's complete lines. An incomplete last line is tolerated (and
/// counted); a complete line that is not a record is an error naming the line.
///
/// ```
/// use sargon_referee::diff_run::record::read_results;
///
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("results.jsonl");
/// std::fs::write(&path, "")?;
/// let read = read_results(&path)?;
/// assert!(read.records.is_empty() && read.incomplete_tail == 0);
/// std::fs::write(&path, "not a record\n")?;
/// let e = read_results(&path).unwrap_err();
/// assert!(e.to_string().ends_with(":1: not a `sargon diff` search record"), "{e}");
/// // A killed run's incomplete last line is counted, not an error.
/// std::fs::write(&path, "{\"position\":0,")?;
/// assert_eq!(read_results(&path)?.incomplete_tail, 14);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_results(path: &Path) -> Result<ResultsRead, ResultsError> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|cause| ResultsError::Read {
            path: path.to_path_buf(),
            cause,
        })?;
    parse_results(&bytes, path)
}

fn parse_results(bytes: &[u8], path: &Path) -> Result<ResultsRead, ResultsError> {
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    // Read as every person's text file is (a byte-order mark dropped, the line that is not
    // UTF-8 named).
    let text = sargon_core::text_file::decode(&bytes[..complete], NotUtf8::Refuse, "JSON")
        .map_err(|cause| ResultsError::Text {
            path: path.to_path_buf(),
            cause,
        })?
        .text;
    let mut records = Vec::new();
    let mut plan = None;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        // The plan, on the first line only.
        if records.is_empty()
            && plan.is_none()
            && let Ok(header) = serde_json::from_str::<HeaderLine>(line)
        {
            plan = Some(header.plan);
            continue;
        }
        let record: SearchRecord =
            serde_json::from_str(line).map_err(|cause| ResultsError::Record {
                path: path.to_path_buf(),
                line: i + 1,
                cause,
            })?;
        records.push(record);
    }
    Ok(ResultsRead {
        plan,
        records,
        incomplete_tail: (bytes.len() - complete) as u64,
    })
}

/// A results file open for appending records.
#[derive(Debug)]
pub struct ResultsFile {
    file: File,
    path: PathBuf,
    /// The plan line, written with the first record (so that a run that fails before its
    /// first search leaves the file empty, and removed: see
    /// [`sargon_core::outputs::removing_an_empty_new_results_file`]).
    plan_line: Option<String>,
}

/// What [`ResultsFile::resume`] found in the file.
#[derive(Clone, Debug, Default)]
pub struct Resumed {
    /// The plan the file was started with (`None`: a file made before plans were written,
    /// or one this resume started, with the plan given).
    pub plan: Option<RunPlan>,
    /// The records of the earlier runs.
    pub records: Vec<SearchRecord>,
    /// Bytes of an incomplete last line that were cut off.
    pub cut_bytes: u64,
}

#[cfg(test)]
impl Resumed {
    /// The searches already done: (position index, depth).
    fn done(&self) -> std::collections::HashSet<(usize, u8)> {
        self.records.iter().map(SearchRecord::key).collect()
    }
}

impl ResultsFile {
    /// Start a new results file with `plan` as its first line (written with the first
    /// record). An existing file with
    /// results is refused: appending a second run to it would record searches twice. The
    /// file is locked for the run ([`sargon_core::outputs::open_results`]): a second run
    /// writing to it is refused.
    ///
    /// ```
    /// use sargon_referee::diff_run::record::ResultsFile;
    ///
    /// let dir = tempfile::tempdir()?;
    /// let path = dir.path().join("results.jsonl");
    /// # let plan = sargon_referee::diff_run::RunPlan { epd_sha256: None, positions: 2, depths: vec![1, 2], first: None, shard: "0/1".into() };
    /// let first = ResultsFile::create(&path, &plan)?;
    /// // While a run holds it, a second run is refused.
    /// let e = ResultsFile::create(&path, &plan).unwrap_err();
    /// assert!(e.to_string().contains("being written by another run"), "{e}");
    /// drop(first);
    /// // A file with results is never appended to by a new run.
    /// std::fs::write(&path, "{}\n")?;
    /// assert!(ResultsFile::create(&path, &plan).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn create(path: &Path, plan: &RunPlan) -> Result<ResultsFile, ResultsError> {
        let file = sargon_core::outputs::open_results(path)?;
        if file.metadata().is_ok_and(|meta| meta.len() > 0) {
            return Err(ResultsError::HasResults {
                path: path.to_path_buf(),
            });
        }
        Ok(ResultsFile {
            file,
            path: path.to_path_buf(),
            plan_line: Some(plan.to_line()),
        })
    }

    /// Go on with a results file (or start it with `plan`, written with the first record,
    /// if there is none, or it is empty): read its plan and records and cut off an incomplete last line left by a
    /// killed run, so that new lines start cleanly. Whether the file's plan is this run's
    /// is for the caller to check ([`check_plan`](super::check_plan)).
    ///
    /// ```
    /// use sargon_referee::diff_run::record::ResultsFile;
    ///
    /// let dir = tempfile::tempdir()?;
    /// let path = dir.path().join("results.jsonl");
    /// // No file yet: the run starts it.
    /// # let plan = sargon_referee::diff_run::RunPlan { epd_sha256: None, positions: 2, depths: vec![1, 2], first: None, shard: "0/1".into() };
    /// let (_, resumed) = ResultsFile::resume(&path, &plan)?;
    /// assert!(resumed.records.is_empty());
    /// // An incomplete last line left by a killed run is cut off.
    /// std::fs::write(&path, "{\"position\":0,")?;
    /// let (_, resumed) = ResultsFile::resume(&path, &plan)?;
    /// assert_eq!(resumed.cut_bytes, 14);
    /// assert_eq!(std::fs::read_to_string(&path)?, "");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resume(path: &Path, plan: &RunPlan) -> Result<(ResultsFile, Resumed), ResultsError> {
        // Locked before it is read: what another run appends meanwhile would be missed.
        let mut file = sargon_core::outputs::open_results(path)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|cause| ResultsError::Read {
                path: path.to_path_buf(),
                cause,
            })?;
        let read = parse_results(&bytes, path)?;
        if read.incomplete_tail > 0 {
            let keep = bytes.len() as u64 - read.incomplete_tail;
            file.set_len(keep)
                .and_then(|_| file.sync_all())
                .map_err(|cause| ResultsError::Cut {
                    path: path.to_path_buf(),
                    cause,
                })?;
        }
        let started = read.plan.is_none() && read.records.is_empty();
        let resumed = Resumed {
            plan: read.plan,
            records: read.records,
            cut_bytes: read.incomplete_tail,
        };
        let file = ResultsFile {
            file,
            path: path.to_path_buf(),
            plan_line: started.then(|| plan.to_line()),
        };
        Ok((file, resumed))
    }

    /// Append one record: one write of the whole line, then a sync, so that the line is
    /// on disk before the next search starts.
    /// The first record comes after the plan line, in the same write.
    pub(crate) fn append(&mut self, record: &SearchRecord) -> Result<(), ResultsError> {
        let line = match self.plan_line.take() {
            Some(plan) => plan + &record.to_line(),
            None => record.to_line(),
        };
        self.file
            .write_all(line.as_bytes())
            .and_then(|_| self.file.sync_data())
            .map_err(|cause| ResultsError::Write {
                path: self.path.clone(),
                cause,
            })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A plan for tests.
    pub(crate) fn plan() -> RunPlan {
        RunPlan {
            epd_sha256: None,
            positions: 3,
            depths: vec![1],
            first: None,
            shard: "0/1".into(),
        }
    }

    /// A record for tests: an agreement of the emulator and the port.
    pub(crate) fn record(position: usize, depth: u8) -> SearchRecord {
        SearchRecord {
            position,
            fen: format!("fen {position}"),
            depth,
            left: EngineRecord {
                engine: "emulator".into(),
                cpu_us: Some(2000),
                z80_instructions: Some(1000),
                cached: false,
                core: Some("iz80".into()),
            },
            right: EngineRecord {
                engine: "port".into(),
                cpu_us: Some(10),
                z80_instructions: None,
                cached: false,
                core: None,
            },
            book: true,
            sargon_version: "0.1.0".into(),
            git_commit: "abc1234".into(),
            rom: Some("sargon".into()),
            rom_sha256: Some("aa".repeat(32)),
            rom_verified: Some(true),
            shard: "0/1".into(),
            verdict: Verdict::Agree,
            events: 100,
            divergence: None,
            error: None,
            wall_us: 2500,
        }
    }

    #[test]
    fn records_round_trip_through_one_line() {
        let r = record(3, 2);
        let line = r.to_line();
        assert!(line.ends_with('\n') && line.matches('\n').count() == 1);
        assert_eq!(serde_json::from_str::<SearchRecord>(&line).unwrap(), r);
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["verdict"], "agree");
        assert_eq!(v["left"]["engine"], "emulator");
    }

    #[test]
    fn a_killed_runs_incomplete_line_is_cut_and_the_rest_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.jsonl");
        let mut f = ResultsFile::create(&path, &plan()).unwrap();
        f.append(&record(0, 1)).unwrap();
        f.append(&record(1, 1)).unwrap();
        drop(f);
        // A second plain run would record the searches twice.
        let e = ResultsFile::create(&path, &plan()).unwrap_err().to_string();
        assert!(e.contains("--resume"), "{e}");
        // Killed in the middle of the third line.
        let half = &record(2, 1).to_line()[..40];
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(half.as_bytes())
            .unwrap();
        let read = read_results(&path).unwrap();
        assert_eq!(read.records.len(), 2);
        assert_eq!(read.incomplete_tail, 40);
        let (mut f, resumed) = ResultsFile::resume(&path, &plan()).unwrap();
        assert_eq!(resumed.cut_bytes, 40);
        assert_eq!(
            resumed.done(),
            [(0, 1), (1, 1)]
                .into_iter()
                .collect::<std::collections::HashSet<_>>()
        );
        f.append(&record(2, 1)).unwrap();
        let read = read_results(&path).unwrap();
        assert_eq!(read.incomplete_tail, 0);
        assert_eq!(read.records, vec![record(0, 1), record(1, 1), record(2, 1)]);
        // Resuming a file that does not exist yet starts it.
        let new = dir.path().join("new.jsonl");
        let (_, resumed) = ResultsFile::resume(&new, &plan()).unwrap();
        assert!(resumed.records.is_empty() && resumed.plan.is_none());
        // ... empty until its first record, which comes after the plan line; the next
        // resume reads that plan.
        let (mut f, _) = ResultsFile::resume(&new, &plan()).unwrap();
        assert_eq!(std::fs::read_to_string(&new).unwrap(), "");
        f.append(&record(0, 1)).unwrap();
        drop(f);
        assert_eq!(read_results(&new).unwrap().plan, Some(plan()));
        let (_, resumed) = ResultsFile::resume(&new, &plan()).unwrap();
        assert_eq!(resumed.plan, Some(plan()));
        assert_eq!(std::fs::read_to_string(&new).unwrap().lines().count(), 2);
    }

    #[test]
    fn a_damaged_complete_line_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.jsonl");
        let good = record(0, 1).to_line();
        std::fs::write(&path, format!("{good}{{\"position\": 1}}\n{good}")).unwrap();
        let e = read_results(&path).unwrap_err();
        assert!(matches!(e, ResultsError::Record { line: 2, .. }), "{e:?}");
        let e = sargon_core::causes::with_causes(&e);
        assert!(
            e.contains("out.jsonl:2: not a `sargon diff` search record: "),
            "{e}"
        );
        assert!(ResultsFile::resume(&path, &plan()).is_err());
    }
}
