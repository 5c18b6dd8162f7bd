//! Long `sargon diff` runs: thousands of searches split into shards that run on separate
//! cores or machines, each appending its results to a JSON Lines file as every search
//! completes, each resumable after a kill, and a report that puts the shards' files
//! together and checks that they cover the whole run exactly once.
//!
//! [`crate::diff`] compares one search; this module decides which searches a shard runs
//! ([`shard`], [`plan`]), runs and records them ([`run`], [`record`]) and judges a whole
//! run from its files ([`report`]). The command line (`sargon diff`) only parses
//! arguments and prints.

use std::collections::HashSet;
use std::time::Instant;

use crate::cost::EngineCost;
use crate::diff::{
    compare_answers, compare_search_cached, CompareError, Difference, SearchComparison,
};
use crate::trace_cache::TraceCache;
use sargon_core::engine::{Capability, Engine, RomId, SearchError, SearchOptions};
use sargon_core::position::Book;
use sargon_core::position::{self, Setup};
use sargon_core::trace::Event;
use sargon_engines::engines::Side;

mod errors;
pub mod header;
pub mod record;
pub mod report;
pub mod shard;

pub use errors::{InputPositionError, PositionsError, ResumeError};
pub use header::{PlanError, RunPlan};
pub use record::{
    read_results, DivergenceRecord, EngineRecord, ResultsError, ResultsFile, ResultsRead, Resumed,
    SearchRecord, Verdict,
};
pub use shard::{Shard, ShardError, MAX_SHARDS};

/// The version of this program, recorded with every search.
pub(crate) const SARGON_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The git commit this program was built from (see `build.rs`), recorded with every search.
pub(crate) const GIT_COMMIT: &str = match option_env!("SARGON_GIT_COMMIT") {
    Some(commit) => commit,
    None => "unknown",
};

/// The positions of an EPD (or FEN-per-line) text, as FENs: the first four fields of each
/// line, with the move counters when the line has them (six fields) or `0 1`. Empty lines
/// and `#` comments are skipped; a position's index is its place among the others. Each is
/// checked here, so that a bad one is named by its line and quoted as written.
///
/// ```
/// use sargon_referee::diff_run::read_positions;
///
/// let epd = "# a comment\n4k3/8/8/8/8/8/8/4K3 b - - bm Kd7;\nstartpos moves e2e4\n";
/// let fens = read_positions(epd)?;
/// assert_eq!(fens[0], "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
/// assert_eq!(fens[1], "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
/// assert!(read_positions("8/8 w\n").is_err());
/// # Ok::<(), sargon_referee::diff_run::PositionsError>(())
/// ```
pub fn read_positions(text: &str) -> Result<Vec<String>, PositionsError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(position) = sargon_chess::batch::played_line(line) {
            // `startpos moves ...`, `<FEN> moves ...`: the position the moves reach.
            let position = position.map_err(|cause| PositionsError::Position {
                line: i + 1,
                text: None,
                cause,
            })?;
            out.push(sargon_core::position::fen_of(&position));
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(PositionsError::NotAPosition {
                line: i + 1,
                text: line.to_string(),
            });
        }
        let is_fen = fields.len() >= 6
            && fields[4].parse::<u32>().is_ok()
            && fields[5].parse::<u32>().is_ok();
        let fen = if is_fen {
            fields[..6].join(" ")
        } else {
            format!("{} 0 1", fields[..4].join(" "))
        };
        position::parse_position(&fen)
            .and_then(|p| position::setup(&p, Book::Off))
            .map_err(|e| {
                let cause = e.quoting(line);
                PositionsError::Position {
                    line: i + 1,
                    text: (!cause.quotes_the_input()).then(|| line.to_string()),
                    cause,
                }
            })?;
        out.push(fen);
    }
    Ok(out)
}

/// One position of the input, checked and set up for Sargon.
#[derive(Clone, Debug)]
pub struct InputPosition {
    /// 0-based index in the input.
    pub index: usize,
    /// The position as read (recorded with each search, and matched by the report).
    pub fen: String,
    /// What the engines write into Sargon for it.
    pub setup: Setup,
}

impl InputPosition {
    /// Parse a FEN (or `startpos`) and set it up, with or without the opening book.
    ///
    /// ```
    /// use sargon_referee::diff_run::InputPosition;
    ///
    /// let p = InputPosition::new(3, "startpos", true)?;
    /// assert_eq!((p.index, p.fen.as_str()), (3, "startpos"));
    /// let e = InputPosition::new(4, "8/8/8/8/8/8/8/8 w - - 0 1", false).unwrap_err();
    /// assert!(e.to_string().starts_with("position 4"), "{e}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(index: usize, fen: &str, book: bool) -> Result<InputPosition, InputPositionError> {
        // The position quoted once: by the error if it quotes it, else here.
        let named = |cause: position::PositionError| InputPositionError {
            index,
            text: (!cause.quotes_the_input()).then(|| fen.to_string()),
            cause,
        };
        let pos = position::parse_position(fen).map_err(named)?;
        let setup = position::setup(&pos, Book::from(book)).map_err(named)?;
        Ok(InputPosition {
            index,
            fen: fen.to_string(),
            setup,
        })
    }
}

/// One search of a run: a position at a depth.
#[derive(Copy, Clone, Debug)]
pub struct Search<'a> {
    /// The position.
    pub position: &'a InputPosition,
    /// The search depth.
    pub depth: u8,
}

/// The searches shard `shard` runs, in order: its positions (every N-th of the input), each
/// at every depth, less the searches in `done` (position index, depth).
///
/// ```
/// use std::collections::HashSet;
/// use sargon_core::{setup, Book};
/// use sargon_referee::diff_run::{plan, InputPosition, Shard};
///
/// let start = setup(&shakmaty::Chess::default(), Book::Off)?;
/// let positions: Vec<InputPosition> = (0..3)
///     .map(|index| InputPosition { index, fen: "startpos".into(), setup: start.clone() })
///     .collect();
/// let shard: Shard = "1/2".parse()?; // every second position, from the second
/// let done = HashSet::from([(1, 2)]); // position 1 at depth 2 is in the results already
/// let searches = plan(&positions, shard, &[1, 2], &done);
/// let planned: Vec<_> = searches.iter().map(|s| (s.position.index, s.depth)).collect();
/// assert_eq!(planned, [(1, 1)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn plan<'a>(
    positions: &'a [InputPosition],
    shard: Shard,
    depths: &[u8],
    done: &HashSet<(usize, u8)>,
) -> Vec<Search<'a>> {
    positions
        .iter()
        .filter(|p| shard.contains(p.index))
        .flat_map(|position| depths.iter().map(move |&depth| Search { position, depth }))
        .filter(|s| !done.contains(&(s.position.index, s.depth)))
        .collect()
}

/// Check every depth against every engine's range, before any search starts.
///
/// ```
/// use sargon_referee::diff_run::check_depths;
///
/// let port = sargon_port::Port::new();
/// assert!(check_depths(&[&port, &port], &[1, 5]).is_ok());
/// let e = check_depths(&[&port], &[1, 30]).unwrap_err();
/// assert!(e.to_string().contains("depth 30"), "{e}");
/// ```
pub fn check_depths(engines: &[&dyn Engine], depths: &[u8]) -> Result<(), SearchError> {
    for engine in engines {
        for &depth in depths {
            engine.check_depth(depth)?;
        }
    }
    Ok(())
}

/// What every record of a run says about how it was made.
#[derive(Clone, Debug)]
pub struct RunIdentity {
    /// The first engine compared, by its recorded name ([`Engine::id`]).
    pub left: String,
    /// What is compared with it, by its recorded name.
    pub right: String,
    /// The ROM, when an engine is the emulator.
    pub rom: Option<RomId>,
    /// Is Sargon's opening book allowed?
    pub book: bool,
    /// The part of the input this run does.
    pub shard: Shard,
}

impl RunIdentity {
    /// Can a results file made with `other` be continued with this identity? The program
    /// version may differ (a resumed run may be a rebuilt program); what is compared must
    /// not. Returns the first difference.
    pub(crate) fn conflicts_with(&self, record: &SearchRecord) -> Option<String> {
        let rom_sha = self.rom.as_ref().map(|r| r.sha256.as_str());
        if record.left.engine != self.left || record.right.engine != self.right {
            Some(format!(
                "it compares {} with {}, this run {} with {}",
                record.left.engine, record.right.engine, self.left, self.right
            ))
        } else if record.rom_sha256.as_deref() != rom_sha {
            Some(format!(
                "it was made with ROM image {}, this run uses {}",
                record.rom_sha256.as_deref().unwrap_or("(none)"),
                rom_sha.unwrap_or("(none)")
            ))
        } else if record.book != self.book {
            Some("it was made with the opening book switched the other way".into())
        } else if record.shard != self.shard.to_string() {
            Some(format!(
                "it holds shard {}, this run is shard {}",
                record.shard, self.shard
            ))
        } else {
            None
        }
    }
}

/// Check that a resumed file's plan (`None` in a file made before plans were written) is
/// this run's.
///
/// ```
/// use sargon_referee::diff_run::{check_plan, RunPlan};
/// let ours = RunPlan { epd_sha256: None, positions: 3, depths: vec![1, 2], first: None, shard: "0/1".into() };
/// assert!(check_plan(&ours, Some(&ours)).is_ok());
/// assert!(check_plan(&ours, None).is_ok()); // a file made before plans were written
/// let theirs = RunPlan { depths: vec![1], ..ours.clone() };
/// let e = check_plan(&ours, Some(&theirs)).unwrap_err();
/// assert!(e.to_string().contains("its depths are [1], these are [1, 2]"), "{e}");
/// ```
pub fn check_plan(ours: &RunPlan, theirs: Option<&RunPlan>) -> Result<(), ResumeError> {
    match theirs.and_then(|theirs| ours.differs_from(theirs)) {
        Some(why) => Err(ResumeError::OtherPlan(why)),
        None => Ok(()),
    }
}

/// Check that the records of an earlier run (read by [`ResultsFile::resume`]) can be
/// continued by this one: the same comparison, and the same position at each index.
///
/// ```
/// # use sargon_referee::diff_run::{check_resumable, InputPosition, RunIdentity, Shard};
/// # use sargon_referee::diff_run::record::ResultsFile;
/// # use sargon_engines::engines::Side;
/// # use sargon_referee::diff_run::{self, RunSettings};
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
/// let mut out = ResultsFile::create(&path, &plan)?;
/// diff_run::run(&mut left, &mut right, &searches, &identity, RunSettings::default(), Some(&mut out), &mut ())?;
/// drop(out);
/// let (_, resumed) = ResultsFile::resume(&path, &plan)?;
/// // The same positions continue the run; another position at index 0 does not.
/// check_resumable(&identity, &positions, &resumed.records)?;
/// let other = vec![InputPosition::new(0, "4k3/8/8/8/8/8/8/4K2R w K - 0 1", false)?];
/// let e = check_resumable(&identity, &other, &resumed.records).unwrap_err();
/// assert!(e.to_string().contains("4k3/8/8/8/8/8/8/4K2R"), "{e}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_resumable(
    identity: &RunIdentity,
    positions: &[InputPosition],
    records: &[SearchRecord],
) -> Result<(), ResumeError> {
    for r in records {
        if let Some(why) = identity.conflicts_with(r) {
            return Err(ResumeError::OtherRun(why));
        }
        match positions.get(r.position) {
            Some(p) if p.fen == r.fen => {}
            Some(p) => {
                return Err(ResumeError::OtherPosition {
                    index: r.position,
                    theirs: r.fen.clone(),
                    ours: p.fen.clone(),
                })
            }
            None => {
                return Err(ResumeError::PastTheInput {
                    index: r.position,
                    positions: positions.len(),
                })
            }
        }
    }
    Ok(())
}

/// The records that count, once `--resume` has retried the searches that ended in an
/// error: a search's error records are dropped when it has another record that is not an
/// error (the retry's), and when it has only errors, all but the last are. The others stay,
/// in order; how many were dropped is returned with them.
///
/// ```
/// use sargon_referee::diff_run::{without_retried_errors, SearchRecord, Verdict};
/// # let line = r#"{"position":0,"fen":"startpos","depth":1,"left":{"engine":"port","cpu_us":1,"z80_instructions":null},"right":{"engine":"port","cpu_us":1,"z80_instructions":null},"book":false,"sargon_version":"0","git_commit":"0","rom":null,"rom_sha256":null,"shard":"0/1","verdict":"agree","events":9,"divergence":null,"error":null,"wall_us":1}"#;
/// # let agreed: SearchRecord = serde_json::from_str(line)?;
/// // `agreed`: a record of position 0 at depth 1 whose engines agreed.
/// let failed = SearchRecord { verdict: Verdict::Error, error: Some("timed out".into()), ..agreed.clone() };
/// // Failed, then retried with success: the failure no longer counts.
/// assert_eq!(without_retried_errors(vec![failed.clone(), agreed.clone()]), (vec![agreed], 1));
/// // Failed twice: the last failure stands for the search.
/// assert_eq!(without_retried_errors(vec![failed.clone(), failed.clone()]), (vec![failed], 1));
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn without_retried_errors(records: Vec<SearchRecord>) -> (Vec<SearchRecord>, usize) {
    use std::collections::HashMap;
    // For each search: the index of the record that stands for it when it has only errors.
    let mut last_error: HashMap<(usize, u8), usize> = HashMap::new();
    let mut answered: HashSet<(usize, u8)> = HashSet::new();
    for (i, r) in records.iter().enumerate() {
        match r.verdict {
            Verdict::Error => {
                last_error.insert(r.key(), i);
            }
            _ => {
                answered.insert(r.key());
            }
        }
    }
    let before = records.len();
    let kept: Vec<SearchRecord> = records
        .into_iter()
        .enumerate()
        .filter(|(i, r)| {
            r.verdict != Verdict::Error
                || (!answered.contains(&r.key()) && last_error.get(&r.key()) == Some(i))
        })
        .map(|(_, r)| r)
        .collect();
    let dropped = before - kept.len();
    (kept, dropped)
}

/// Counts over records.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Records.
    pub searches: usize,
    /// Trace events compared.
    pub events: u64,
    /// Searches whose engines disagreed.
    pub divergences: usize,
    /// Searches that failed.
    pub errors: usize,
}

impl Tally {
    /// Count one record.
    pub(crate) fn add(&mut self, record: &SearchRecord) {
        self.searches += 1;
        self.events += record.events;
        match record.verdict {
            Verdict::Agree => {}
            Verdict::Diverge => self.divergences += 1,
            Verdict::Error => self.errors += 1,
        }
    }

    /// The counts over `records`.
    ///
    /// ```
    /// # use sargon_referee::diff_run::Tally;
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
    /// let outcome = diff_run::run(&mut left, &mut right, &searches, &identity, RunSettings::default(), Some(&mut out), &mut ())?;
    /// let read = diff_run::record::read_results(&path)?;
    /// let tally = Tally::of(&read.records);
    /// assert_eq!(tally, outcome.tally);
    /// assert_eq!((tally.searches, tally.divergences, tally.errors), (2, 0, 0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of<'a>(records: impl IntoIterator<Item = &'a SearchRecord>) -> Tally {
        let mut tally = Tally::default();
        for r in records {
            tally.add(r);
        }
        tally
    }

    /// Did every search agree?
    ///
    /// ```
    /// use sargon_referee::diff_run::Tally;
    /// let mut tally = Tally { searches: 10, events: 5_000, divergences: 0, errors: 0 };
    /// assert!(tally.all_agree());
    /// tally.errors = 1;
    /// assert!(!tally.all_agree());
    /// ```
    pub fn all_agree(&self) -> bool {
        self.divergences == 0 && self.errors == 0
    }
}

/// What the caller sees of a run as it goes (progress, printing).
pub trait Observer {
    /// A search is about to start.
    ///
    /// ```
    /// # use sargon_engines::engines::Side;
    /// # use sargon_referee::diff_run::{self, InputPosition, RunIdentity, RunSettings, Shard};
    /// use sargon_referee::diff::Difference;
    /// use sargon_referee::diff_run::{record::SearchRecord, Observer, Search};
    ///
    /// #[derive(Default)]
    /// struct Counting { started: usize, finished: Vec<(usize, u8)> }
    /// impl Observer for Counting {
    ///     fn starting(&mut self, _: &Search) { self.started += 1; }
    ///     fn finished(&mut self, _: &Search, r: &SearchRecord, _: Option<&Difference>) {
    ///         self.finished.push(r.key());
    ///     }
    /// }
    /// # let positions = vec![InputPosition::new(0, "startpos", false)?];
    /// # let identity = RunIdentity {
    /// #     left: "port".into(), right: "port".into(), rom: None, book: false,
    /// #     shard: "0/1".parse::<Shard>()?,
    /// # };
    /// # let searches = diff_run::plan(&positions, identity.shard, &[1, 2], &Default::default());
    /// # let mut left = Side::Engine(Box::new(sargon_port::Port::new()));
    /// # let mut right = Side::Engine(Box::new(sargon_port::Port::new()));
    /// let mut seen = Counting::default();
    /// diff_run::run(&mut left, &mut right, &searches, &identity, RunSettings::default(), None, &mut seen)?;
    /// assert_eq!(seen.started, 2);
    /// assert_eq!(seen.finished, [(0, 1), (0, 2)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn starting(&mut self, _search: &Search) {}
    /// A search finished and was recorded (`difference` with the full events or answers).
    ///
    /// ```
    /// # use sargon_engines::engines::Side;
    /// # use sargon_referee::diff_run::{self, InputPosition, RunIdentity, RunSettings, Shard};
    /// use sargon_referee::diff::Difference;
    /// use sargon_referee::diff_run::{record::SearchRecord, Observer, Search};
    ///
    /// #[derive(Default)]
    /// struct Counting { started: usize, finished: Vec<(usize, u8)> }
    /// impl Observer for Counting {
    ///     fn starting(&mut self, _: &Search) { self.started += 1; }
    ///     fn finished(&mut self, _: &Search, r: &SearchRecord, _: Option<&Difference>) {
    ///         self.finished.push(r.key());
    ///     }
    /// }
    /// # let positions = vec![InputPosition::new(0, "startpos", false)?];
    /// # let identity = RunIdentity {
    /// #     left: "port".into(), right: "port".into(), rom: None, book: false,
    /// #     shard: "0/1".parse::<Shard>()?,
    /// # };
    /// # let searches = diff_run::plan(&positions, identity.shard, &[1, 2], &Default::default());
    /// # let mut left = Side::Engine(Box::new(sargon_port::Port::new()));
    /// # let mut right = Side::Engine(Box::new(sargon_port::Port::new()));
    /// let mut seen = Counting::default();
    /// diff_run::run(&mut left, &mut right, &searches, &identity, RunSettings::default(), None, &mut seen)?;
    /// assert_eq!(seen.started, 2);
    /// assert_eq!(seen.finished, [(0, 1), (0, 2)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn finished(
        &mut self,
        _search: &Search,
        _record: &SearchRecord,
        _difference: Option<&Difference>,
    ) {
    }
}

/// An observer that watches nothing.
impl Observer for () {}

/// How a run ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RunOutcome {
    /// Counts over the searches done.
    pub tally: Tally,
    /// Searches left undone because the run stopped at a divergence or an error.
    pub left_undone: usize,
}

/// How a run goes on.
#[derive(Copy, Clone, Debug, Default)]
pub struct RunSettings<'a> {
    /// Do every search even after a divergence or an error (else the run stops there).
    pub keep_going: bool,
    /// Where the left engine's traces are kept between runs (only the emulator's are; see
    /// [`crate::trace_cache`]).
    pub cache: Option<&'a TraceCache>,
}

/// Run `searches` on both sides, writing each search's record to `out` as it completes.
/// Two sides with a trace are compared event by event; when a side has none (a UCI port),
/// their answers are compared, the best move and the score. Without `keep_going` the run
/// stops at the first divergence or error; with it, every search is done and recorded.
/// Only failing to write a record is an `Err`.
///
/// ```
/// use sargon_engines::engines::Side;
/// use sargon_port::Port;
/// use sargon_referee::diff_run::{self, record::ResultsFile, InputPosition, RunIdentity, RunSettings};
///
/// let positions = vec![
///     InputPosition::new(0, "startpos", false)?,
///     InputPosition::new(1, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", false)?,
/// ];
/// let identity = RunIdentity {
///     left: "port".into(),
///     right: "port".into(),
///     rom: None,
///     book: false,
///     shard: "0/1".parse()?,
/// };
/// let searches = diff_run::plan(&positions, identity.shard, &[1, 2], &Default::default());
/// let dir = tempfile::tempdir()?;
/// let plan = sargon_referee::diff_run::RunPlan { epd_sha256: None, positions: 2, depths: vec![1, 2], first: None, shard: "0/1".into() };
/// let mut out = ResultsFile::create(&dir.path().join("results.jsonl"), &plan)?;
/// let mut left = Side::Engine(Box::new(Port::new()));
/// let mut right = Side::Engine(Box::new(Port::new()));
/// let outcome = diff_run::run(
///     &mut left, &mut right, &searches, &identity,
///     RunSettings::default(), Some(&mut out), &mut (),
/// )?;
/// // The port agrees with itself, event by event, in all four searches.
/// assert_eq!(outcome.tally.searches, 4);
/// assert!(outcome.tally.all_agree() && outcome.tally.events > 0);
/// assert_eq!(outcome.left_undone, 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run(
    left: &mut Side,
    right: &mut Side,
    searches: &[Search],
    identity: &RunIdentity,
    settings: RunSettings,
    mut out: Option<&mut ResultsFile>,
    observer: &mut dyn Observer,
) -> Result<RunOutcome, ResultsError> {
    let RunSettings { keep_going, cache } = settings;
    let cores = (core_of(left.engine()), core_of(right.engine()));
    let traces = left.engine().capabilities().has(Capability::Trace)
        && right.engine().capabilities().has(Capability::Trace);
    let mut tally = Tally::default();
    for (done, search) in searches.iter().enumerate() {
        observer.starting(search);
        let opts = SearchOptions::depth(search.depth);
        let started = Instant::now();
        let setup = &search.position.setup;
        let result = if traces {
            compare_search_cached(left.engine_mut(), cache, right.engine_mut(), setup, &opts)
                .map(|c| c.map(Difference::Trace))
                .map_err(CompareError::from)
        } else {
            compare_answers(left, right, setup, &opts).map(|c| c.map(Difference::Answer))
        };
        let wall = started.elapsed();
        let (record, divergence) = make_record(
            search,
            identity,
            (cores.0.as_deref(), cores.1.as_deref()),
            result,
            wall.as_micros() as u64,
        );
        if let Some(out) = out.as_deref_mut() {
            out.append(&record)?;
        }
        tally.add(&record);
        observer.finished(search, &record, divergence.as_ref());
        if record.verdict != Verdict::Agree && !keep_going {
            return Ok(RunOutcome {
                tally,
                left_undone: searches.len() - done - 1,
            });
        }
    }
    Ok(RunOutcome {
        tally,
        left_undone: 0,
    })
}

/// The Z80 core an engine runs on, for the results file: the core of an engine with a
/// Z80 (`iz80` when [`Engine::core`] names none, the default), else `None`.
fn core_of(engine: &dyn Engine) -> Option<String> {
    engine
        .capabilities()
        .has(Capability::Z80)
        .then(|| engine.core().unwrap_or("iz80").to_string())
}

fn engine_record(name: String, cost: &EngineCost, core: Option<&str>) -> EngineRecord {
    EngineRecord {
        engine: name,
        cpu_us: cost.cpu.map(|d| d.as_micros() as u64),
        z80_instructions: cost.z80_instructions,
        cached: cost.cached,
        // A trace read from the cache was made on whichever core ran it then.
        core: core.filter(|_| !cost.cached).map(str::to_string),
    }
}

fn make_record(
    search: &Search,
    identity: &RunIdentity,
    (left_core, right_core): (Option<&str>, Option<&str>),
    result: Result<SearchComparison<Difference>, CompareError>,
    wall_us: u64,
) -> (SearchRecord, Option<Difference>) {
    let (cmp, error) = match result {
        Ok(cmp) => (Some(cmp), None),
        Err(e) => (None, Some(e.to_string())),
    };
    let no_cost = EngineCost::default();
    let divergence = cmp.as_ref().and_then(|c| c.divergence.clone());
    let verdict = match (&error, &divergence) {
        (Some(_), _) => Verdict::Error,
        (None, Some(_)) => Verdict::Diverge,
        (None, None) => Verdict::Agree,
    };
    let record = SearchRecord {
        position: search.position.index,
        fen: search.position.fen.clone(),
        depth: search.depth,
        left: engine_record(
            identity.left.to_string(),
            cmp.as_ref().map_or(&no_cost, |c| &c.left),
            left_core,
        ),
        right: engine_record(
            identity.right.to_string(),
            cmp.as_ref().map_or(&no_cost, |c| &c.right),
            right_core,
        ),
        book: identity.book,
        sargon_version: SARGON_VERSION.to_string(),
        git_commit: GIT_COMMIT.to_string(),
        rom: identity.rom.as_ref().map(|r| r.name.clone()),
        rom_sha256: identity.rom.as_ref().map(|r| r.sha256.clone()),
        rom_verified: identity.rom.as_ref().map(|r| r.verified),
        shard: identity.shard.to_string(),
        verdict,
        events: cmp.as_ref().map_or(0, |c| c.events),
        divergence: divergence.as_ref().map(|d| match d {
            Difference::Trace(d) => DivergenceRecord {
                event: d.index,
                left: d.left.as_ref().map(Event::to_json),
                right: d.right.as_ref().map(Event::to_json),
                path: d.path().map(|p| p.iter().map(|m| m.uci()).collect()),
            },
            Difference::Answer(a) => DivergenceRecord {
                event: 0,
                left: Some(a.left.to_json()),
                right: Some(a.right.to_json()),
                path: None,
            },
        }),
        error,
        wall_us,
    };
    (record, divergence)
}

#[cfg(test)]
mod tests;
