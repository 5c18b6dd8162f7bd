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
    pub fn pv(&self, pos: &Chess) -> PvLine {
        pv::line(pos, &self.outcome, &self.events)
    }
}

/// Search `setup` with `engine`, keeping the events `detail` asks for.
///
/// `extra` hooks run at their points *before* the recorder, so that a hook that changes
/// the engine's state (the models' scores) is recorded as it made it.
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
