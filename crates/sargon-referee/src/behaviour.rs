//! The known Sargon's behaviour, and whether an engine has it.
//!
//! An image can assemble, pass the harness's checks and still be wrong: one opcode
//! changed in POINTS, and every score is off. What the project trusts is behaviour, so an
//! image is checked by replaying searches whose outcome is known and comparing event by
//! event. The known outcomes are `roms/behaviour.tsv`, one line per search: the golden
//! corpus (`tests/golden/corpus.txt`, every position at every depth it is recorded at)
//! the five models of "A Window into Sargon" (`sargon models`) and whole games ([`GAMES`]:
//! what a search leaves for the program's next move, which no single search shows), each
//! as its number of events and the SHA-256 of its replay's text form ([`StepDigest`]: a
//! search's trace, a game's traces and what each search left), with the result.
//! Digests, not traces: the file is small enough to be built into the program, and it
//! holds behaviour only. It is written from the known image by
//! `UPDATE_GOLDENFILES=1 cargo test --test it rom_verify::` ([`record_case`], [`table`]), never
//! by hand; the same test checks it against the golden files and the port.
//!
//! A digest says *that* a search differs, not where. For the first differing search
//! [`check`] replays it on the native port, which agrees with the original event by event
//! (`tests/it/golden.rs`), and on the engine under test, and names the first event where they
//! part.

mod game;

use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use sargon_core::engine::{Engine, SearchError, SearchOptions};
use sargon_core::position;
use sargon_core::position::{Book, PositionError};
use sargon_core::record;
use sargon_core::trace::Detail;
use sargon_engines::engines::OpenError;
use sargon_views::models;

pub use game::{Game, Step, StepDigest, GAMES, MAX_PLIES};

/// Why a case could not be replayed: its position, or the engine's search.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// The case's position does not read or cannot be set up.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// The engine's search failed (a runaway, a refused replay...).
    #[error(transparent)]
    Search(#[from] SearchError),
    /// A model's search failed or did not fit the model.
    #[error(transparent)]
    Model(#[from] models::ModelError),
}

/// Why [`record_case`] could not record a case: the case (its label, depth and position),
/// and as `source()` why its replay failed.
#[derive(Debug, thiserror::Error)]
#[error("recording {case}")]
pub struct RecordError {
    /// The case.
    pub case: String,
    /// Why its replay failed.
    #[source]
    pub cause: ReplayError,
}

/// Why [`replay_all`] or [`check`] did not run to the end.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    /// An engine could not be made for a worker.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// A case's replay failed ([`replay_all`]): the case (its label, depth and position),
    /// and as `source()` why.
    #[error("{case}")]
    Case {
        /// The case.
        case: String,
        /// Why its replay failed.
        #[source]
        cause: ReplayError,
    },
}

/// Why a behaviour table does not read: the line (from 1) and what is wrong with it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TableError {
    /// Not the eight fields of a line.
    #[error("line {line}: {fields} fields, expected 8")]
    Fields {
        /// The line.
        line: usize,
        /// Its fields.
        fields: usize,
    },
    /// A book column that is no book column.
    #[error("line {line}: `{field}` is not book, book1 or nobook")]
    Book {
        /// The line.
        line: usize,
        /// The column.
        field: String,
    },
    /// A model whose label is not `model-N`.
    #[error("line {0}: a model's label is model-N")]
    ModelLabel(usize),
    /// A kind neither `search`, `model` nor `game`.
    #[error("line {line}: `{kind}` is not search, model or game")]
    Kind {
        /// The line.
        line: usize,
        /// The kind column.
        kind: String,
    },
    /// A depth or an event count that is no number: the line, and as `source()` why.
    #[error("line {line}")]
    Number {
        /// The line.
        line: usize,
        /// Why the number does not read.
        #[source]
        cause: std::num::ParseIntError,
    },
}

/// The known behaviour, as committed.
pub(crate) const TABLE: &str = include_str!("../../../roms/behaviour.tsv");

/// Searches of this depth or less (and the models and games) make the quick check of
/// `rom import`.
pub(crate) const QUICK_MAX_DEPTH: u8 = 2;

/// What a case replays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replay {
    /// A search of a position (FEN or `startpos`), with or without the opening book.
    Search {
        /// A FEN or `startpos`.
        position: String,
        /// Whether the opening book answers.
        book: bool,
        /// The byte the book reads for its "random" choice (bit 0: 1.e4 or 1.d4).
        book_random: u8,
    },
    /// One of the five models of `sargon models` (its own position and depth).
    Model(u8),
    /// A whole game from a position (a FEN), Sargon on both sides at the case's depth as
    /// the level, each side's depth carried from its last search ([`GAMES`]).
    Game {
        /// The FEN the game starts from.
        position: String,
        /// The side that moved last then opens a next game in the same memory
        /// ([`Game::next_game`]).
        next_game: bool,
    },
}

/// One search of the known behaviour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The corpus label (`bench-2r1nrk1`), `model-N`, or a game's ([`GAMES`]).
    pub label: String,
    /// The search depth (a game's level).
    pub depth: u8,
    /// What is searched.
    pub replay: Replay,
    /// Events in the trace (a game's: in all its searches), the result included.
    pub events: u64,
    /// SHA-256 of the replay's text form ([`StepDigest`]).
    pub sha256: String,
    /// The last event (`result d4b6 : 7a`; a game's last search's), for people.
    pub result: String,
}

impl Case {
    /// Part of the quick check?
    ///
    /// ```
    /// use sargon_referee::behaviour::{known_cases, Case};
    /// assert!(known_cases().iter().any(|c| c.quick() && c.depth <= 2));
    /// assert!(!Case::unknown("deep", 5, "startpos", false).quick());
    /// assert!(Case::unknown("shallow", 2, "startpos", false).quick());
    /// ```
    pub fn quick(&self) -> bool {
        !matches!(self.replay, Replay::Search { .. }) || self.depth <= QUICK_MAX_DEPTH
    }

    /// The case for a person: `bench-2r1nrk1 at depth 2 (FEN, book)`.
    pub(crate) fn describe(&self) -> String {
        match &self.replay {
            Replay::Search {
                position,
                book,
                book_random,
            } => format!(
                "{} at depth {} ({position}, {})",
                self.label,
                self.depth,
                match (*book, *book_random) {
                    (false, _) => "no book".to_string(),
                    (true, 0) => "book".to_string(),
                    (true, r) => format!("book, random byte {r}"),
                }
            ),
            Replay::Model(n) => format!("model {n} of `sargon models` (depth {})", self.depth),
            Replay::Game {
                position,
                next_game,
            } => format!(
                "{} at depth {} (a game from {position}, each side in its own memory{})",
                self.label,
                self.depth,
                if *next_game {
                    ", then a next game's first move"
                } else {
                    ""
                }
            ),
        }
    }

    /// A search whose behaviour is not known (`sargon rom coverage` over an EPD file):
    /// replayed, never compared.
    ///
    /// ```
    /// use sargon_referee::behaviour::{Case, Replay};
    /// let case = Case::unknown("epd-3", 3, "startpos", true);
    /// assert_eq!(case.replay, Replay::Search { position: "startpos".into(), book: true, book_random: 0 });
    /// assert_eq!((case.events, case.sha256.as_str()), (0, "")); // nothing known to compare
    /// ```
    pub fn unknown(label: &str, depth: u8, position: &str, book: bool) -> Case {
        Case {
            label: label.to_string(),
            depth,
            replay: Replay::Search {
                position: position.to_string(),
                book,
                book_random: 0,
            },
            events: 0,
            sha256: String::new(),
            result: String::new(),
        }
    }

    /// The emulator's instruction budget for this case: far above what the known image
    /// needs (about 10,000 Z80 instructions per event in the corpus), so that only an
    /// image that runs away reaches it, and soon. For a case of unknown behaviour, the
    /// default budget of its depth.
    pub(crate) fn max_instructions(&self) -> u64 {
        if self.events == 0 {
            return SearchOptions::depth(self.depth).instruction_budget();
        }
        self.events
            .saturating_mul(100_000)
            .saturating_add(20_000_000)
    }

    /// Replay the case on `engine`, handing every step to `sink`.
    pub(crate) fn replay(
        &self,
        engine: &mut dyn Engine,
        sink: impl FnMut(Step),
    ) -> Result<(), ReplayError> {
        self.replay_within(engine, self.max_instructions(), sink)
    }

    fn replay_within(
        &self,
        engine: &mut dyn Engine,
        max_instructions: u64,
        mut sink: impl FnMut(Step),
    ) -> Result<(), ReplayError> {
        match &self.replay {
            Replay::Search {
                position,
                book,
                book_random,
            } => {
                let pos = position::parse_position(position)?;
                let setup = position::setup(&pos, Book::from(*book))?;
                let opts = SearchOptions {
                    max_instructions: Some(max_instructions),
                    book_random: *book_random,
                    ..SearchOptions::depth(self.depth)
                };
                record::search_streaming(engine, &setup, &opts, Detail::Full, &mut [], |e| {
                    sink(Step::Event(e))
                })?;
                Ok(())
            }
            Replay::Model(n) => Ok(models::trace_example(engine, *n, max_instructions, |e| {
                sink(Step::Event(e))
            })?),
            Replay::Game {
                position,
                next_game,
            } => game::play(
                engine,
                position,
                self.depth,
                *next_game,
                max_instructions,
                sink,
            ),
        }
    }

    /// All steps of the case on `engine`, and the error that cut the search short.
    pub(crate) fn steps(&self, engine: &mut dyn Engine) -> (Vec<Step>, Option<String>) {
        let mut events = Vec::new();
        let failed = self
            .replay(engine, |e| events.push(e))
            .err()
            .map(|e| sargon_core::causes::with_causes(&e));
        (events, failed)
    }
}

/// Record a case's known behaviour: replay it on `engine` (the known image).
///
/// ```
/// use sargon_referee::behaviour::{record_case, Replay};
///
/// let replay = Replay::Search { position: "startpos".into(), book: false, book_random: 0 };
/// let case = record_case(&mut sargon_port::Port::new(), "the start", 2, replay)?;
/// assert_eq!((case.label.as_str(), case.depth), ("the start", 2));
/// assert!(case.events > 0 && case.sha256.len() == 64);
/// // The same search recorded again is the same behaviour.
/// let again = record_case(&mut sargon_port::Port::new(), "the start", 2, case.replay.clone())?;
/// assert_eq!(again, case);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn record_case(
    engine: &mut dyn Engine,
    label: &str,
    depth: u8,
    replay: Replay,
) -> Result<Case, RecordError> {
    let mut case = Case {
        label: label.to_string(),
        depth,
        replay,
        events: 0,
        sha256: String::new(),
        result: String::new(),
    };
    let mut digest = StepDigest::default();
    let mut last = None;
    // The known image's own budget: the runaway guard of the depth.
    let budget = SearchOptions::depth(depth).instruction_budget();
    case.replay_within(engine, budget, |s| {
        digest.add(&s);
        if let Step::Event(e) = s {
            last = Some(e);
        }
    })
    .map_err(|cause| RecordError {
        case: case.describe(),
        cause,
    })?;
    case.events = digest.events();
    case.sha256 = digest.finish();
    case.result = last.map(|e| e.to_string()).unwrap_or_default();
    Ok(case)
}

const HEADER: &str = "\
# The known Sargon's behaviour: one search, model or whole game per line (see
# crates/sargon-referee/src/behaviour.rs; a game's digest covers its searches' traces and what
# each left for the next move; a game's book column is `book` when it goes on into a next
# game's first move, from the book). Written by `UPDATE_GOLDENFILES=1 cargo test --test it
# rom_verify::` from the known image; never edit.
# kind\tlabel\tdepth\tbook\tevents\tsha256\tresult\tposition
";

/// The book column of `roms/behaviour.tsv` and of `tests/golden/corpus.txt`: `nobook`,
/// `book` (the random byte 0: White opens 1.e4) or `book1` (the random byte 1: 1.d4).
pub(crate) fn book_field(book: bool, book_random: u8) -> String {
    match (book, book_random) {
        (false, _) => "nobook".into(),
        (true, 0) => "book".into(),
        (true, r) => format!("book{r}"),
    }
}

/// The book and random byte of a book column (see `book_field`).
///
/// ```
/// use sargon_referee::behaviour::parse_book_field;
/// assert_eq!(parse_book_field("nobook"), Some((false, 0)));
/// assert_eq!(parse_book_field("book"), Some((true, 0)));
/// assert_eq!(parse_book_field("book1"), Some((true, 1)));
/// assert_eq!(parse_book_field("books"), None);
/// ```
pub fn parse_book_field(field: &str) -> Option<(bool, u8)> {
    match field {
        "nobook" => Some((false, 0)),
        "book" => Some((true, 0)),
        _ => Some((true, field.strip_prefix("book")?.parse().ok()?)),
    }
}

/// The cases as `roms/behaviour.tsv` holds them.
///
/// ```
/// use sargon_referee::behaviour::{table, Case};
/// let text = table(&[Case::unknown("mine", 2, "startpos", false)]);
/// let line = text.lines().find(|l| !l.starts_with('#')).unwrap();
/// assert_eq!(line, "search\tmine\t2\tnobook\t0\t\t\tstartpos");
/// ```
pub fn table(cases: &[Case]) -> String {
    let mut out = String::from(HEADER);
    for c in cases {
        let (kind, book, position) = match &c.replay {
            Replay::Search {
                position,
                book,
                book_random,
            } => ("search", book_field(*book, *book_random), position.clone()),
            Replay::Model(_) => ("model", book_field(false, 0), models::REAL_FEN.to_string()),
            Replay::Game {
                position,
                next_game,
            } => ("game", book_field(*next_game, 0), position.clone()),
        };
        let _ = writeln!(
            out,
            "{kind}\t{}\t{}\t{}\t{}\t{}\t{}\t{position}",
            c.label, c.depth, book, c.events, c.sha256, c.result
        );
    }
    out
}

/// Read a behaviour table.
pub(crate) fn parse(text: &str) -> Result<Vec<Case>, TableError> {
    let mut cases = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let line = n + 1;
        if f.len() != 8 {
            return Err(TableError::Fields {
                line,
                fields: f.len(),
            });
        }
        let Some((book, book_random)) = parse_book_field(f[3]) else {
            return Err(TableError::Book {
                line,
                field: f[3].to_string(),
            });
        };
        let number = |cause| TableError::Number { line, cause };
        let replay = match f[0] {
            "search" => Replay::Search {
                position: f[7].to_string(),
                book,
                book_random,
            },
            "model" => Replay::Model(
                f[1].strip_prefix("model-")
                    .and_then(|k| k.parse().ok())
                    .ok_or(TableError::ModelLabel(line))?,
            ),
            "game" => Replay::Game {
                position: f[7].to_string(),
                next_game: book,
            },
            other => {
                return Err(TableError::Kind {
                    line,
                    kind: other.to_string(),
                })
            }
        };
        cases.push(Case {
            label: f[1].to_string(),
            depth: f[2].parse().map_err(number)?,
            replay,
            events: f[4].parse().map_err(number)?,
            sha256: f[5].to_string(),
            result: f[6].to_string(),
        });
    }
    Ok(cases)
}

/// The known behaviour built into the program.
///
/// ```
/// use sargon_referee::behaviour::{known_cases, table, Replay};
/// let cases = known_cases();
/// // The five models of "A Window into Sargon" are among them.
/// assert_eq!(cases.iter().filter(|c| matches!(c.replay, Replay::Model(_))).count(), 5);
/// assert!(cases.iter().all(|c| c.events > 0 && c.sha256.len() == 64));
/// // One line per case in the table, below its header.
/// assert_eq!(table(&cases).lines().filter(|l| !l.starts_with('#')).count(), cases.len());
/// ```
pub fn known_cases() -> Vec<Case> {
    parse(TABLE)
        .expect("roms/behaviour.tsv is written by the tool (tests/it/rom_verify/ checks it)")
}

/// Where an engine first parts from the known behaviour.
#[derive(Clone, Debug)]
pub struct Mismatch {
    /// The case that differs.
    pub case: Case,
    /// 1-based index of the first differing event (one past the shorter trace when one
    /// trace is the other's beginning); in a game, what each search left counts as one.
    pub event: usize,
    /// The known step there (the port's), `None` past the end of the known replay.
    pub expected: Option<Step>,
    /// The engine's step there, `None` past the end of its replay.
    pub found: Option<Step>,
    /// The engine's search failed (a runaway, a refused replay...).
    pub failure: Option<String>,
}

impl Mismatch {
    /// The mismatch in a few lines for people.
    ///
    /// ```
    /// use sargon_core::{Event, SMove};
    /// use sargon_referee::behaviour::{Case, Mismatch, Step};
    /// let m = Mismatch {
    ///     case: Case::unknown("mine", 1, "startpos", false),
    ///     event: 3,
    ///     expected: Some(Step::Event(Event::Created { path: vec![SMove::plain(35, 55)] })),
    ///     found: None,
    ///     failure: None,
    /// };
    /// let text = m.describe();
    /// assert!(text.starts_with("first difference: mine at depth 1 (startpos, no book), event #3"));
    /// assert!(text.ends_with("image: (trace ended)"));
    /// ```
    pub fn describe(&self) -> String {
        let show = |e: &Option<Step>| match e {
            Some(e) => e.to_string(),
            None => "(trace ended)".to_string(),
        };
        let mut out = format!(
            "first difference: {}, event #{} (known trace: {} events, {})\n  known: {}\n  image: {}",
            self.case.describe(),
            self.event,
            self.case.events,
            self.case.result,
            show(&self.expected),
            show(&self.found)
        );
        if let Some(f) = &self.failure {
            let _ = write!(out, "\n  the image's search failed: {f}");
        }
        out
    }
}

/// The outcome of replaying the known behaviour on an engine.
#[derive(Clone, Debug)]
pub struct Report {
    /// Cases replayed.
    pub searches: usize,
    /// Cases left out after the first that differs or fails.
    pub not_run: usize,
    /// A search failed (a runaway, a refused replay...): the check stopped there.
    pub failed: bool,
    /// The label (`label.dN`) of the first case that differs: the check stops there.
    pub differing: Option<String>,
    /// The first differing case, event by event.
    pub first: Option<Mismatch>,
}

impl Report {
    /// Did every case replayed behave as known?
    ///
    /// ```
    /// use sargon_referee::behaviour::Report;
    /// let mut report = Report { searches: 3, not_run: 0, failed: false, differing: None, first: None };
    /// assert!(report.alike());
    /// report.differing = Some("bench-2r1nrk1.d2".into());
    /// assert!(!report.alike());
    /// ```
    pub fn alike(&self) -> bool {
        self.differing.is_none()
    }
}

/// Makes the engines under test, one per worker thread.
pub(crate) type EngineFactory<'a> =
    dyn Fn() -> Result<Box<dyn Engine + Send>, OpenError> + Sync + 'a;

/// Replay every case on engines from `make` (`workers` threads, `progress` called per
/// case), comparing nothing: for engines that collect something as they run (coverage).
/// The first search that fails ends the run with its error.
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use sargon_referee::behaviour::{known_cases, replay_all};
///
/// let cases: Vec<_> = known_cases().into_iter().filter(|c| c.quick()).take(3).collect();
/// let done = AtomicUsize::new(0);
/// let make = || Ok(Box::new(sargon_port::Port::new()) as Box<dyn sargon_core::Engine + Send>);
/// replay_all(&cases, &make, 2, &|_| {
///     done.fetch_add(1, Ordering::Relaxed);
/// })?;
/// assert_eq!(done.into_inner(), cases.len());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn replay_all(
    cases: &[Case],
    make: &EngineFactory,
    workers: usize,
    progress: &(dyn Fn(&Case) + Sync),
) -> Result<(), RunError> {
    let next = AtomicUsize::new(0);
    let failure: Mutex<Option<RunError>> = Mutex::new(None);
    let workers = workers.clamp(1, cases.len().max(1));
    std::thread::scope(|scope| -> Result<(), RunError> {
        let mut handles = Vec::new();
        for _ in 0..workers {
            let mut engine = make()?;
            let (next, failure) = (&next, &failure);
            handles.push(scope.spawn(move || loop {
                if failure.lock().expect("no worker panics").is_some() {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(case) = cases.get(i) else { break };
                if let Err(cause) = case.replay(engine.as_mut(), |_| {}) {
                    let e = RunError::Case {
                        case: case.describe(),
                        cause,
                    };
                    failure.lock().expect("no worker panics").get_or_insert(e);
                    break;
                }
                progress(case);
            }));
        }
        for h in handles {
            h.join().expect("a replay does not panic");
        }
        Ok(())
    })?;
    match failure.into_inner().expect("no worker panics") {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Replay `cases` on engines from `make` and compare each with its known behaviour
/// (`workers` threads, `progress` called per case). The check stops at the first case that
/// differs (or fails): that is the verdict, and the rest would cost the whole replay. The
/// cases before it have all run, so the report is the same whatever the threads' timing:
/// the cases up to the first that differs, and the number not run.
///
/// ```
/// use sargon_referee::behaviour::{check, known_cases};
///
/// // The port behaves as the known Sargon in the quick cases.
/// let cases: Vec<_> = known_cases().into_iter().filter(|c| c.quick()).take(4).collect();
/// let make = || Ok(Box::new(sargon_port::Port::new()) as Box<dyn sargon_core::Engine + Send>);
/// let report = check(&cases, &make, 2, &|_| {})?;
/// assert_eq!(report.searches, cases.len());
/// assert!(report.alike() && report.first.is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check(
    cases: &[Case],
    make: &EngineFactory,
    workers: usize,
    progress: &(dyn Fn(&Case) + Sync),
) -> Result<Report, RunError> {
    let next = AtomicUsize::new(0);
    // A search that fails (most likely a runaway) ends the check: an image that runs away
    // once will run away again, each time at the cost of its whole budget.
    let failed = AtomicBool::new(false);
    // A case that differs (a failed one among them) ends it: no worker takes a new case
    // after it.
    let differs = AtomicBool::new(false);
    // Per case: does it match? (`None`: not run.)
    let matches: Mutex<Vec<Option<bool>>> = Mutex::new(vec![None; cases.len()]);
    let workers = workers.clamp(1, cases.len().max(1));
    std::thread::scope(|scope| -> Result<(), RunError> {
        let mut handles = Vec::new();
        for _ in 0..workers {
            let mut engine = make()?;
            let (next, matches, failed, differs) = (&next, &matches, &failed, &differs);
            handles.push(scope.spawn(move || loop {
                if differs.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(case) = cases.get(i) else { break };
                let mut digest = StepDigest::default();
                let ran = case.replay(engine.as_mut(), |s| digest.add(&s));
                if ran.is_err() {
                    failed.store(true, Ordering::Relaxed);
                }
                let same =
                    ran.is_ok() && digest.events() == case.events && digest.finish() == case.sha256;
                if !same {
                    differs.store(true, Ordering::Relaxed);
                }
                matches.lock().expect("no worker panics")[i] = Some(same);
                progress(case);
            }));
        }
        for h in handles {
            h.join().expect("a replay does not panic");
        }
        Ok(())
    })?;
    let mut matches = matches.into_inner().expect("no worker panics");
    // Cases are taken in order, so every case before the first that differs has run; the
    // ones after it that were under way when it was found are left out, as not run.
    if let Some(k) = matches.iter().position(|m| *m == Some(false)) {
        matches[k + 1..].fill(None);
    }
    let label = |c: &Case| match c.replay {
        Replay::Model(_) => c.label.clone(),
        Replay::Search { .. } | Replay::Game { .. } => format!("{}.d{}", c.label, c.depth),
    };
    let differing = matches.iter().position(|m| *m == Some(false));
    let first = match differing {
        None => None,
        Some(i) => Some(first_difference(&cases[i], make()?.as_mut())),
    };
    Ok(Report {
        searches: matches.iter().filter(|m| m.is_some()).count(),
        not_run: matches.iter().filter(|m| m.is_none()).count(),
        failed: failed.load(Ordering::Relaxed),
        differing: differing.map(|i| label(&cases[i])),
        first,
    })
}

/// Replay one case on the port and on `engine` and find the first event where they part.
pub(crate) fn first_difference(case: &Case, engine: &mut dyn Engine) -> Mismatch {
    let (expected, port_failed) = case.steps(&mut sargon_port::Port::new());
    let (found, failure) = case.steps(engine);
    let index = expected
        .iter()
        .zip(&found)
        .position(|(a, b)| a != b)
        .unwrap_or(expected.len().min(found.len()));
    let mut failure = failure;
    if let Some(f) = port_failed {
        // Not the image's fault: say so rather than blame it.
        failure = Some(format!("(the port's replay failed too: {f})"));
    } else if index == expected.len() && index == found.len() && failure.is_none() {
        failure = Some(
            "the engine agrees with the port here, but not with roms/behaviour.tsv: \
             the table is out of date"
                .to_string(),
        );
    }
    Mismatch {
        case: case.clone(),
        event: index + 1,
        expected: expected.get(index).cloned(),
        found: found.get(index).cloned(),
        failure,
    }
}

#[cfg(test)]
mod tests;
