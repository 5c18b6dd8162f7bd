//! One way to record a search: every tool that wants a search's events gets them here.
//!
//! A trace is an engine's events followed by one [`Event::Result`]: for an engine with
//! hooks, the [`crate::trace::Recorder`]'s events and the result made from the search's
//! outcome ([`Engine::trace`]'s default, the one place that appends it); for another
//! person's port, the trace it printed. Analysis, `sargon trace`, the tree pictures, the
//! models, the differential runner and UCI all need that same sequence, so it is asked for
//! in one place: [`search`] keeps the events, [`search_streaming`] hands them to a sink as
//! they happen (for traces too long to keep, and for the differential runner, which
//! compares them while both engines run).
//!
//! The principal variation of a recorded search is [`Recorded::pv`].

use shakmaty::Chess;

use crate::engine::{Engine, SearchError, SearchOptions, SearchOutcome};
use crate::hooks::Hook;
use crate::position::Setup;
use crate::pv::{self, PvLine};
use crate::trace::{Detail, Event};

/// A search and its trace.
#[derive(Clone, Debug)]
pub struct Recorded {
    /// The search's result.
    pub outcome: SearchOutcome,
    /// The events the [`Detail`] asked for, then the result event.
    pub events: Vec<Event>,
}

impl Recorded {
    /// The principal variation from `pos`, the position searched: the book move alone,
    /// else the line the `best` events give ([`pv::principal_variation`]).
    ///
    /// ```
    /// use sargon_core::{position::read_position, record, setup, Book, Detail, SearchOptions};
    ///
    /// // The scholar's mate is on: White mates in one.
    /// let pos = read_position("startpos moves e2e4 e7e5 d1h5 b8c6 f1c4 g8f6")?.position;
    /// let run = record::search(
    ///     &mut sargon_port::Port::new(),
    ///     &setup(&pos, Book::Off)?,
    ///     &SearchOptions::depth(2),
    ///     Detail::BestOnly,
    ///     &mut [],
    /// )?;
    /// assert_eq!(run.pv(&pos).san[0], "Qxf7#");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn pv(&self, pos: &Chess) -> PvLine {
        pv::line(pos, &self.outcome, &self.events)
    }
}

/// Search `setup` with `engine`, keeping the events `detail` asks for.
///
/// `extra` hooks run at their points *before* the recorder, so that a hook that changes
/// the engine's state (the models' scores) is recorded as it made it.
///
/// ```
/// use sargon_core::{record, setup, Book, Detail, Event, SearchOptions};
///
/// let start = setup(&shakmaty::Chess::default(), Book::Off)?;
/// let run = record::search(&mut sargon_port::Port::new(), &start, &SearchOptions::depth(2), Detail::BestOnly, &mut [])?;
/// // Only `best` events, then the result.
/// let (last, rest) = run.events.split_last().unwrap();
/// assert!(rest.iter().all(|e| matches!(e, Event::Best { .. })));
/// assert_eq!(last, &Event::Result { best: run.outcome.best, score: run.outcome.root_score });
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn search(
    engine: &mut dyn Engine,
    setup: &Setup,
    opts: &SearchOptions,
    detail: Detail,
    extra: &mut [&mut dyn Hook],
) -> Result<Recorded, SearchError> {
    let mut events = Vec::new();
    let outcome = search_streaming(engine, setup, opts, detail, extra, |e| events.push(e))?;
    Ok(Recorded { outcome, events })
}

/// Search `setup` with `engine`, handing each event `detail` asks for to `sink` as it
/// happens, then the result event. A search that fails has no result event.
///
/// ```
/// use sargon_core::{record, setup, Book, Detail, Event, SearchOptions};
///
/// let start = setup(&shakmaty::Chess::default(), Book::Off)?;
/// let (mut created, mut results) = (0, 0);
/// let outcome = record::search_streaming(
///     &mut sargon_port::Port::new(),
///     &start,
///     &SearchOptions::depth(1),
///     Detail::Full,
///     &mut [],
///     |e| match e {
///         Event::Created { .. } => created += 1,
///         Event::Result { .. } => results += 1,
///         _ => {}
///     },
/// )?;
/// // The root's 20 moves are created, and one result comes last.
/// assert_eq!((created, results), (20, 1));
/// assert!(outcome.best.is_some());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn search_streaming(
    engine: &mut dyn Engine,
    setup: &Setup,
    opts: &SearchOptions,
    detail: Detail,
    extra: &mut [&mut dyn Hook],
    mut sink: impl FnMut(Event),
) -> Result<SearchOutcome, SearchError> {
    engine.trace(setup, opts, detail, extra, &mut sink)
}
