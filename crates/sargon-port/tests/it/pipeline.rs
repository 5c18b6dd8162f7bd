//! The search pipeline of `sargon-core` (`record`: a search with its trace; `pv`: the
//! principal variation from it) driven by a real engine, the port. They sit here because
//! core's own tests cannot use an engine: the port depends on core, not the other way.

use sargon_core::engine::{SearchError, SearchOptions, SearchOutcome};
use sargon_core::hooks::{FnHook, HookEvent, HookPoint};
use sargon_core::position::Book;
use sargon_core::position::{parse_position, setup};
use sargon_core::pv::{principal_variation, PvTracker};
use sargon_core::record::{search, search_streaming};
use sargon_core::trace::{Detail, Event};
use sargon_core::vocab::{SMove, Score};
use sargon_port::Port;

fn count_results(events: &[Event]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, Event::Result { .. }))
        .count()
}

#[test]
fn the_result_event_closes_the_trace_once() {
    let pos = parse_position("r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - 0 1").unwrap();
    let s = setup(&pos, Book::Off).unwrap();
    for detail in [Detail::Full, Detail::BestOnly] {
        let r = search(
            &mut Port::new(),
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
    let s = setup(&pos, Book::Off).unwrap();
    let opts = SearchOptions::depth(2);
    let kept = search(&mut Port::new(), &s, &opts, Detail::Full, &mut []).unwrap();
    let mut streamed = Vec::new();
    let outcome = search_streaming(&mut Port::new(), &s, &opts, Detail::Full, &mut [], |e| {
        streamed.push(e)
    })
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
    let r = search(&mut Port::new(), &s, &opts, Detail::Full, &mut [&mut level]).unwrap();
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
    let s = setup(&shakmaty::Chess::default(), Book::Off).unwrap();
    let mut events = Vec::new();
    let err = search_streaming(
        &mut Port::new(),
        &s,
        &SearchOptions::depth(0),
        Detail::Full,
        &mut [],
        |e| events.push(e),
    );
    assert!(matches!(err, Err(SearchError::DepthOutOfRange { .. })));
    assert!(events.is_empty());
}

fn tracked(events: &[Event]) -> Vec<SMove> {
    let mut t = PvTracker::new();
    for e in events {
        t.add(e);
    }
    t.line().to_vec()
}

/// The forward reading agrees with the backward scan on real searches.
#[test]
fn the_tracker_finds_the_backward_scans_line() {
    for fen in [
        "r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 30",
    ] {
        let s = setup(&parse_position(fen).unwrap(), Book::Off).unwrap();
        for depth in 1..=4 {
            let events = search(
                &mut Port::new(),
                &s,
                &SearchOptions::depth(depth),
                Detail::BestOnly,
                &mut [],
            )
            .unwrap()
            .events;
            let pv = principal_variation(events.iter());
            assert!(!pv.is_empty(), "{fen} depth {depth}");
            assert_eq!(tracked(&events), pv, "{fen} depth {depth}");
        }
    }
}
