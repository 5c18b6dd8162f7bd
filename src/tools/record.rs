//! One way to record a search: every tool that wants a search's events gets them here.
//!
//! A trace is the [`Recorder`]'s events followed by one [`Event::Result`] made from the
//! search's outcome. Analysis, `sargon trace`, the tree pictures, the models, the
//! differential runner and UCI all need that same sequence, so it is put together in one
//! place: [`search`] keeps the events, [`search_streaming`] hands them to a sink as they
//! happen (for traces too long to keep, and for the differential runner, which compares
//! them while both engines run). The result event is appended here and nowhere else, so
//! every trace ends with exactly one.
//!
//! The principal variation of a recorded search is [`Recorded::pv`].

use shakmaty::Chess;

use crate::base::engine::{Engine, SearchError, SearchOptions, SearchOutcome};
use crate::base::hooks::{Hook, Hooks};
use crate::base::position::Setup;
use crate::base::trace::{Detail, Event, Recorder};
use crate::tools::pv::{self, PvLine};

/// A search and its trace.
#[derive(Clone, Debug)]
pub struct Recorded {
    /// The search's result.
    pub outcome: SearchOutcome,
    /// The events the [`Detail`] asked for, then the result event.
    pub events: Vec<Event>,
}

impl Recorded {
    /// The principal variation from `pos`, the position searched (see [`pv::line`]).
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
    let outcome = {
        let mut recorder = Recorder::new(detail, &mut sink);
        let mut hooks = Hooks::new();
        for hook in extra.iter_mut() {
            hooks.add(&mut **hook);
        }
        hooks.add(&mut recorder);
        engine.search(setup, opts, &mut hooks)?
    };
    sink(Event::Result {
        best: outcome.best,
        score: outcome.root_score,
    });
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::hooks::{FnHook, HookEvent, HookPoint};
    use crate::base::position::{parse_position, setup};
    use crate::base::vocab::Score;

    fn count_results(events: &[Event]) -> usize {
        events
            .iter()
            .filter(|e| matches!(e, Event::Result { .. }))
            .count()
    }

    #[test]
    fn the_result_event_closes_the_trace_once() {
        let pos = parse_position("r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - 0 1").unwrap();
        let s = setup(&pos, false).unwrap();
        for detail in [Detail::Full, Detail::BestOnly] {
            let r = search(
                crate::engines::open_port().as_mut(),
                &s,
                &SearchOptions::depth(2),
                detail,
                &mut [],
            )
            .unwrap();
            assert!(
                r.events.len() > 1,
                "{detail:?}: the search's own events too"
            );
            assert_eq!(count_results(&r.events), 1, "{detail:?}");
            assert_eq!(
                r.events.last(),
                Some(&Event::Result {
                    best: r.outcome.best,
                    score: r.outcome.root_score
                }),
                "{detail:?}"
            );
        }
    }

    #[test]
    fn streaming_gives_the_same_events_and_extra_hooks_run_first() {
        let pos = parse_position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 30").unwrap();
        let s = setup(&pos, false).unwrap();
        let opts = SearchOptions::depth(2);
        let kept = search(
            crate::engines::open_port().as_mut(),
            &s,
            &opts,
            Detail::Full,
            &mut [],
        )
        .unwrap();
        let mut streamed = Vec::new();
        let outcome = search_streaming(
            crate::engines::open_port().as_mut(),
            &s,
            &opts,
            Detail::Full,
            &mut [],
            |e| streamed.push(e),
        )
        .unwrap();
        let decided = |o: &SearchOutcome| (o.best, o.root_score, o.from_book);
        assert_eq!(decided(&outcome), decided(&kept.outcome));
        assert_eq!(streamed, kept.events);

        // A hook that scores every node level runs before the recorder: the trace shows it.
        let mut level = FnHook::new(&[HookPoint::PointsEnd], |event| {
            if let HookEvent::PointsEnd(points) = event {
                points.set_score(Score(0x80));
            }
        });
        let r = search(
            crate::engines::open_port().as_mut(),
            &s,
            &opts,
            Detail::Full,
            &mut [&mut level],
        )
        .unwrap();
        let evals: Vec<&Event> = r
            .events
            .iter()
            .filter(|e| matches!(e, Event::Eval { .. }))
            .collect();
        assert!(!evals.is_empty());
        assert!(evals.iter().all(|e| matches!(
            e,
            Event::Eval { score, .. } if score.0 == 0x80
        )));
        assert_eq!(count_results(&r.events), 1);
    }

    #[test]
    fn a_failed_search_has_no_result_event() {
        let s = setup(&shakmaty::Chess::default(), false).unwrap();
        let mut events = Vec::new();
        let err = search_streaming(
            crate::engines::open_port().as_mut(),
            &s,
            &SearchOptions::depth(0),
            Detail::Full,
            &mut [],
            |e| events.push(e),
        );
        assert!(matches!(err, Err(SearchError::DepthOutOfRange { .. })));
        assert!(events.is_empty());
    }
}
