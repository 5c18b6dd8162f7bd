//! The differential runner: two engines, the same search, event by event.
//!
//! Both engines run at once on two threads. The first engine's trace recorder sends its
//! events through a bounded channel; the second engine's recorder takes them one by one and
//! compares them with its own as they are produced. Memory stays bounded however deep the
//! search (a depth-5 trace has millions of events), and the first divergence stops both
//! searches at once (but an original's search that the trace cache keeps, which runs to
//! its end: see [`crate::trace_cache`]).
//!
//! Each engine's thread also measures its own CPU time (the clock of the thread, not of
//! the process: the two engines run at once, and a wall clock would charge each with the
//! other's work and with whatever else the machine runs), so that a long run can say where
//! its time went.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

use shakmaty::{Chess, Position};

use sargon_core::engine::{Engine, SearchError, SearchOptions};
use sargon_core::position::Setup;
use sargon_core::record;
use sargon_core::trace::{self, Detail, Event};

use crate::cost::{cpu_timed, EngineCost};
use sargon_engines::engines::Side;
// The UCI port's answer is defined beside the UCI engine that gives it; it is named here
// too, where two answers are compared.
use crate::trace_cache::{left_search, LeftRun, TraceCache};
pub use sargon_engines::external::Answer;
use sargon_engines::uci_client::{ClientError, EngineScore};

/// Events in flight between the two engines.
pub(crate) const CHANNEL_DEPTH: usize = 1 << 14;

/// Events the left side sends at once: one wake-up of the comparing thread per batch
/// rather than per event, which was most of the cost of comparing with a cached original
/// (docs/checking-your-port.md, "The referee's own speed").
const BATCH: usize = 1024;

/// The left side's events as they arrive, in batches.
struct LeftEvents {
    rx: mpsc::Receiver<Vec<Event>>,
    pending: std::vec::IntoIter<Event>,
}

impl LeftEvents {
    /// The next event, `None` once the left side has ended (or stopped).
    fn next(&mut self) -> Option<Event> {
        loop {
            if let Some(event) = self.pending.next() {
                return Some(event);
            }
            self.pending = self.rx.recv().ok()?.into_iter();
        }
    }
}

/// Where two traces first differ.
#[derive(Clone, Debug)]
pub struct Divergence {
    /// 0-based index of the first differing event.
    pub index: u64,
    /// The first engine's event there (`None`: its trace had ended).
    pub left: Option<Event>,
    /// The second engine's event there (`None`: its trace had ended).
    pub right: Option<Event>,
}

impl Divergence {
    /// The path of the node where the engines parted, from whichever event has one.
    ///
    /// ```
    /// use sargon_core::{Event, SMove};
    /// use sargon_referee::diff::Divergence;
    ///
    /// let e2e4 = SMove::plain(35, 55);
    /// let d = Divergence { index: 7, left: Some(Event::Created { path: vec![e2e4] }), right: None };
    /// assert_eq!(d.path(), Some(&vec![e2e4]));
    /// assert_eq!(Divergence { index: 0, left: None, right: None }.path(), None);
    /// ```
    pub fn path(&self) -> Option<&trace::Path> {
        self.left
            .as_ref()
            .and_then(Event::path)
            .or_else(|| self.right.as_ref().and_then(Event::path))
    }

    /// The chess position at the divergence: the root with the path's moves played (as far
    /// as they are legal).
    ///
    /// ```
    /// use sargon_core::{position::fen_of, Event, SMove};
    /// use sargon_referee::diff::Divergence;
    ///
    /// let path = vec![SMove::plain(35, 55), SMove::plain(85, 65)]; // 1.e4 e5
    /// let d = Divergence { index: 0, left: None, right: Some(Event::Created { path }) };
    /// let at = d.position(&shakmaty::Chess::default());
    /// assert_eq!(fen_of(&at), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    /// ```
    pub fn position(&self, root: &Chess) -> Chess {
        let mut pos = root.clone();
        for m in self.path().map(|p| p.as_slice()).unwrap_or(&[]) {
            match m.to_chess(&pos) {
                Some(mv) => pos.play_unchecked(mv),
                None => break,
            }
        }
        pos
    }
}

/// How two sides of a comparison differ: in their traces, or (for a UCI port, which has
/// none to show) in their answers.
#[derive(Clone, Debug)]
pub enum Difference {
    /// The traces part at an event.
    Trace(Divergence),
    /// The best moves or the scores differ.
    Answer(AnswerDifference),
}

/// The left engine's answer and the UCI port's, when they differ.
#[derive(Clone, Debug)]
pub struct AnswerDifference {
    /// The left engine's, as `sargon uci` would give it.
    pub left: Answer,
    /// The port's.
    pub right: Answer,
}

/// Why a search could not be compared.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum CompareError {
    /// An engine could not search (an `exec:` port's failure among them).
    #[error(transparent)]
    Search(#[from] SearchError),
    /// A `uci:` port failed. Its cause is in the message and not also a `source()` (with
    /// `#[from]` an error line printed with `{:#}` said it twice).
    #[error("uci: {0}")]
    Uci(ClientError),
}

impl From<ClientError> for CompareError {
    fn from(e: ClientError) -> Self {
        CompareError::Uci(e)
    }
}

/// What comparing one search found: `D` says where the sides differ, a [`Divergence`] for
/// two traces, an [`AnswerDifference`] for two UCI answers, a [`Difference`] for either.
#[derive(Clone, Debug)]
pub(crate) struct SearchComparison<D = Divergence> {
    /// Events compared and found equal.
    pub events: u64,
    /// Where the sides first differ, if they do.
    pub divergence: Option<D>,
    /// What the first engine's search cost.
    pub left: EngineCost,
    /// What the second engine's search cost.
    pub right: EngineCost,
}

impl<D> SearchComparison<D> {
    /// The same comparison with its difference said another way.
    pub(crate) fn map<E>(self, f: impl FnOnce(D) -> E) -> SearchComparison<E> {
        SearchComparison {
            events: self.events,
            divergence: self.divergence.map(f),
            left: self.left,
            right: self.right,
        }
    }
}

/// Two engines' traces of one search, compared.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// Events that agreed.
    pub events: u64,
    /// Where the traces first differ, if they do.
    pub divergence: Option<Divergence>,
}

/// Run the same search on both engines at once and compare their traces event by event,
/// in bounded memory; a divergence stops both. A stop flag in `opts` stops the comparison
/// from outside ([`SearchError::Stopped`]).
///
/// ```
/// use sargon_core::engine::{Capabilities, Engine, SearchError, SearchOptions, SearchOutcome};
/// use sargon_core::hooks::{FnHook, Hook, HookEvent, HookPoint, Hooks};
/// use sargon_core::{setup, Book, Detail, Event, Score, Setup};
/// use sargon_port::Port;
/// use sargon_referee::diff::compare;
///
/// let start = setup(&shakmaty::Chess::default(), Book::Off)?;
/// let opts = SearchOptions::depth(2);
/// // The port against itself: the same trace, event for event.
/// let same = compare(&mut Port::new(), &mut Port::new(), &start, &opts)?;
/// assert!(same.divergence.is_none() && same.events > 100);
///
/// /// The port with every score nudged by one step: a port with a bug.
/// struct Nudged(Port);
/// impl Engine for Nudged {
///     fn id(&self) -> String { "nudged".into() }
///     fn max_depth(&self) -> u8 { self.0.max_depth() }
///     fn capabilities(&self) -> Capabilities { self.0.capabilities() }
///     fn search(&mut self, s: &Setup, o: &SearchOptions, h: &mut Hooks)
///         -> Result<SearchOutcome, SearchError> {
///         self.0.search(s, o, h)
///     }
///     fn trace(&mut self, s: &Setup, o: &SearchOptions, d: Detail, _: &mut [&mut dyn Hook],
///         sink: &mut dyn FnMut(Event)) -> Result<SearchOutcome, SearchError> {
///         let mut nudge = FnHook::new(&[HookPoint::PointsEnd], |e| {
///             if let HookEvent::PointsEnd(v) = e {
///                 v.set_score(Score(v.score().0.wrapping_add(1)));
///             }
///         });
///         self.0.trace(s, o, d, &mut [&mut nudge], sink)
///     }
/// }
/// let parted = compare(&mut Port::new(), &mut Nudged(Port::new()), &start, &opts)?;
/// let d = parted.divergence.expect("the nudged port parts");
/// // The first score differs, by the one step.
/// match (d.left, d.right) {
///     (Some(Event::Eval { score: a, .. }), Some(Event::Eval { score: b, .. })) => {
///         assert_eq!(b.0, a.0.wrapping_add(1))
///     }
///     other => panic!("not two scores: {other:?}"),
/// }
/// assert_eq!(parted.events, d.index);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn compare(
    left: &mut (dyn Engine + Send),
    right: &mut (dyn Engine + Send),
    setup: &Setup,
    opts: &SearchOptions,
) -> Result<Comparison, SearchError> {
    let Some(external) = opts.stop.clone() else {
        let result = compare_search(left, right, setup, opts)?;
        return Ok(Comparison {
            events: result.events,
            divergence: result.divergence,
        });
    };
    // compare_search stops both engines with a flag of its own at a divergence; a stop
    // from outside reaches them through a watcher, and the comparison is then unfinished,
    // whatever it saw (an engine stopped mid-trace looks like a shorter trace).
    let done = AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        let inner = Arc::new(AtomicBool::new(false));
        let watched = inner.clone();
        let (external, done) = (&external, &done);
        scope.spawn(move || {
            while !done.load(Ordering::Relaxed) {
                if external.load(Ordering::Relaxed) {
                    watched.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        let mut opts = opts.clone();
        opts.stop = Some(inner);
        let result = compare_search(left, right, setup, &opts);
        done.store(true, Ordering::Relaxed);
        result
    })?;
    if external.load(Ordering::Relaxed) {
        return Err(SearchError::Stopped);
    }
    Ok(Comparison {
        events: result.events,
        divergence: result.divergence,
    })
}

/// Run the same search on both engines and compare their traces event by event.
pub(crate) fn compare_search(
    left: &mut (dyn Engine + Send),
    right: &mut (dyn Engine + Send),
    setup: &Setup,
    opts: &SearchOptions,
) -> Result<SearchComparison, SearchError> {
    compare_search_cached(left, None, right, setup, opts)
}

/// [`compare_search`], the left engine's trace read from `cache` when it holds it (and
/// kept there when it does not).
pub(crate) fn compare_search_cached(
    left: &mut (dyn Engine + Send),
    cache: Option<&TraceCache>,
    right: &mut (dyn Engine + Send),
    setup: &Setup,
    opts: &SearchOptions,
) -> Result<SearchComparison, SearchError> {
    // The flag that stops both searches at a divergence (the caller's, if it gave one).
    let stop = opts
        .stop
        .clone()
        .unwrap_or_else(|| Arc::new(AtomicBool::new(false)));
    // The original's trace does not depend on the other side: when it is to be kept, it
    // runs to its end even past a divergence (its events then go nowhere), so that the
    // rerun after a fix reads it instead of searching again. A caller's own stop, when it
    // gives one, is also the divergence's, so the left then stops with the right.
    let left_kept_whole = cache.is_some() && left.rom_id().is_some() && opts.stop.is_none();
    let left_opts = if left_kept_whole {
        opts.clone()
    } else {
        SearchOptions {
            stop: Some(stop.clone()),
            ..opts.clone()
        }
    };
    let mut opts = opts.clone();
    opts.stop = Some(stop.clone());
    let (tx, rx) = mpsc::sync_channel::<Vec<Event>>(CHANNEL_DEPTH / BATCH);
    // A trace read from text carries only the promotion bit of a move's flags: with such
    // an engine on either side, events are compared as they are written.
    let written = !(left.capabilities().move_flags && right.capabilities().move_flags);

    std::thread::scope(|scope| {
        let left_thread = scope.spawn(move || {
            // A closed channel means the comparison is over: nothing more to send.
            let mut batch = Vec::with_capacity(BATCH);
            let run = left_search(left, cache, setup, &left_opts, |e| {
                batch.push(e);
                if batch.len() == BATCH {
                    let _ = tx.send(std::mem::replace(&mut batch, Vec::with_capacity(BATCH)));
                }
            });
            let _ = tx.send(batch);
            run
        });
        let mut theirs_in = LeftEvents {
            rx,
            pending: Vec::new().into_iter(),
        };

        let mut events = 0u64;
        let mut divergence: Option<Divergence> = None;
        let mut compare = |mine: Event, left: &mut LeftEvents| {
            if divergence.is_some() {
                return;
            }
            match left.next() {
                Some(theirs)
                    if theirs == mine || (written && theirs.as_written() == mine.as_written()) =>
                {
                    events += 1
                }
                Some(theirs) => {
                    divergence = Some(Divergence {
                        index: events,
                        left: Some(theirs),
                        right: Some(mine),
                    });
                }
                None => {
                    divergence = Some(Divergence {
                        index: events,
                        left: None,
                        right: Some(mine),
                    })
                }
            }
            if divergence.is_some() {
                stop.store(true, Ordering::Relaxed);
            }
        };
        let (right_result, right_cpu) = cpu_timed(|| {
            record::search_streaming(right, setup, &opts, Detail::Full, &mut [], |e| {
                compare(e, &mut theirs_in)
            })
        });
        // The left trace must end where the right one did.
        if divergence.is_none()
            && right_result.is_ok()
            && let Some(extra) = theirs_in.next()
        {
            divergence = Some(Divergence {
                index: events,
                left: Some(extra),
                right: None,
            });
            stop.store(true, Ordering::Relaxed);
        }
        drop(theirs_in);
        let LeftRun {
            result: left_result,
            cost: left,
        } = left_thread
            .join()
            .expect("the left engine's thread panicked");
        let right = EngineCost::of(right_cpu, &right_result);
        // A divergence stops both searches, so "stopped" is expected; other errors are real.
        match (left_result, right_result) {
            (Err(e), _) | (_, Err(e)) if !matches!(e, SearchError::Stopped) => Err(e),
            _ => Ok(SearchComparison {
                events,
                divergence,
                left,
                right,
            }),
        }
    })
}

/// Ask both sides for their answer to one search (`go depth N` in UCI terms) and compare:
/// a side that is a UCI port answers as it does, any other as `sargon uci` would.
pub(crate) fn compare_answers(
    left: &mut Side,
    right: &mut Side,
    setup: &Setup,
    opts: &SearchOptions,
) -> Result<SearchComparison<AnswerDifference>, CompareError> {
    let (left_answer, left_cost, left_book) = answer(left, setup, opts)?;
    let (right_answer, right_cost, right_book) = answer(right, setup, opts)?;
    // A move from the book comes without a search, so without a score to compare.
    let agree = left_answer.best == right_answer.best
        && (left_book || right_book || left_answer.score == right_answer.score);
    Ok(SearchComparison {
        events: 0,
        divergence: (!agree).then_some(AnswerDifference {
            left: left_answer,
            right: right_answer,
        }),
        left: left_cost,
        right: right_cost,
    })
}

/// One side's answer, with its cost (a UCI port's is not measured: it runs elsewhere) and
/// whether it is a move from Sargon's book (a UCI port's book, if it has one, is its own
/// affair: its answer is taken as it comes).
fn answer(
    side: &mut Side,
    setup: &Setup,
    opts: &SearchOptions,
) -> Result<(Answer, EngineCost, bool), CompareError> {
    let engine = match side {
        Side::Uci(port) => {
            let answer = port.answer(setup, opts.depth)?;
            return Ok((answer, EngineCost::default(), false));
        }
        Side::Engine(engine) => engine.as_mut(),
    };
    let mut nodes = 0;
    let (searched, cpu) = cpu_timed(|| {
        sargon_chess::uci::search_depth(engine, setup, opts, &mut nodes, None, &mut [])
    });
    let result = searched?;
    let uci = |m: &shakmaty::Move| m.to_uci(shakmaty::CastlingMode::Standard).to_string();
    let answer = Answer {
        best: uci(&result.best),
        score: (!result.from_book).then_some(match result.mate {
            Some(n) => EngineScore::Mate(n),
            None => EngineScore::Cp(result.score_cp),
        }),
    };
    Ok((
        answer,
        EngineCost {
            cpu,
            z80_instructions: None,
            cached: false,
        },
        result.from_book,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uci_port_failure_says_its_cause_once() {
        let e = CompareError::from(ClientError::Start {
            command: "engine".into(),
            reason: "No such file".into(),
        });
        let shown = sargon_core::causes::with_causes(&e);
        assert_eq!(shown.matches("No such file").count(), 1, "{shown}");
    }
    use sargon_core::hooks::{HookPoint, Hooks, Pointer, Registers, SargonMemory, Table, Var};
    use sargon_core::position::Book;
    use sargon_core::vocab::{SMove, Score};

    /// A fake engine that emits a scripted trace through the hooks machinery's public face.
    struct Scripted(Vec<Event>);

    /// A memory of zeros: all a scripted ascend needs to show.
    struct Blank;
    impl SargonMemory for Blank {
        fn var(&self, _: Var) -> u8 {
            0
        }
        fn pointer(&self, _: Pointer) -> u16 {
            0
        }
        fn table(&self, _: Table) -> u16 {
            0
        }
        fn peek(&self, _: u16) -> u8 {
            0
        }
    }

    impl Engine for Scripted {
        fn id(&self) -> String {
            "scripted".into()
        }
        fn max_depth(&self) -> u8 {
            20
        }
        fn capabilities(&self) -> sargon_core::Capabilities {
            sargon_core::Capabilities::hooked(false, false)
        }
        fn search(
            &mut self,
            _: &Setup,
            _: &SearchOptions,
            hooks: &mut Hooks,
        ) -> Result<sargon_core::engine::SearchOutcome, SearchError> {
            // Every scripted event is an ascend, produced by firing the Ascend point.
            for e in &self.0 {
                if let Event::Ascend { .. } = e {
                    hooks.fire(HookPoint::Ascend, &Blank, Registers::default());
                }
            }
            Ok(sargon_core::engine::SearchOutcome {
                best: Some(SMove::plain(35, 55)),
                root_score: Score(0x80),
                from_book: false,
                stats: Default::default(),
            })
        }
    }

    #[test]
    fn equal_traces_have_no_divergence_and_unequal_lengths_do() {
        let setup = sargon_core::position::setup(&Chess::default(), Book::Off).unwrap();
        let opts = SearchOptions::depth(1);
        let three = vec![Event::Ascend { ply: 0 }; 3];
        let two = vec![Event::Ascend { ply: 0 }; 2];
        let r = compare_search(
            &mut Scripted(three.clone()),
            &mut Scripted(three.clone()),
            &setup,
            &opts,
        )
        .unwrap();
        assert!(r.divergence.is_none());
        assert_eq!(r.events, 4, "three ascends and the result");
        let r = compare_search(&mut Scripted(three), &mut Scripted(two), &setup, &opts).unwrap();
        let d = r.divergence.expect("lengths differ");
        assert_eq!(d.index, 2);
        assert!(matches!(d.left, Some(Event::Ascend { .. })));
        assert!(matches!(d.right, Some(Event::Result { .. })));
    }

    #[test]
    fn compare_reports_the_divergence_and_a_stop_from_outside() {
        let setup = sargon_core::position::setup(&Chess::default(), Book::Off).unwrap();
        let three = vec![Event::Ascend { ply: 0 }; 3];
        let two = vec![Event::Ascend { ply: 0 }; 2];
        let c = compare(
            &mut Scripted(three.clone()),
            &mut Scripted(two),
            &setup,
            &SearchOptions::depth(1),
        )
        .unwrap();
        assert_eq!(c.divergence.expect("lengths differ").index, 2);
        assert_eq!(c.events, 2);
        // Two real searches, stopped from outside before they end: unfinished, not a
        // divergence (a stopped engine's trace only looks shorter).
        let stop = Arc::new(AtomicBool::new(true));
        let opts = SearchOptions {
            depth: 12,
            stop: Some(stop),
            ..SearchOptions::default()
        };
        let mut left = sargon_port::Port::new();
        let mut right = sargon_port::Port::new();
        let r = compare(&mut left, &mut right, &setup, &opts);
        assert!(matches!(r, Err(SearchError::Stopped)), "{r:?}");
        // Without a stop, the same comparison (shallower) agrees.
        let c = compare(&mut left, &mut right, &setup, &SearchOptions::depth(2)).unwrap();
        assert!(c.divergence.is_none());
        assert!(c.events > 100);
    }

    #[test]
    fn each_engine_thread_has_its_cpu_time_measured() {
        // Burn some CPU on this thread only: the thread clock must see it.
        let (sum, spent) =
            cpu_timed(|| (0..20_000_000u64).fold(0u64, |a, x| a ^ x.wrapping_mul(x)));
        assert!(sum != 1);
        if cfg!(unix) {
            assert!(spent.unwrap() > Duration::ZERO);
        }
        let setup = sargon_core::position::setup(&Chess::default(), Book::Off).unwrap();
        let mut left = Box::new(sargon_port::Port::new());
        let mut right = Box::new(sargon_port::Port::new());
        let r = compare_search(
            left.as_mut(),
            right.as_mut(),
            &setup,
            &SearchOptions::depth(3),
        )
        .unwrap();
        assert!(r.divergence.is_none());
        assert_eq!(r.left.cpu.is_some(), cfg!(unix));
        assert_eq!(r.right.cpu.is_some(), cfg!(unix));
        assert_eq!(
            r.left.z80_instructions, None,
            "the port executes no Z80 code"
        );
    }
}
