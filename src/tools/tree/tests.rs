use super::*;
use crate::base::trace::Event;
use crate::base::vocab::{Score, Sq};

fn mv(from: u8, to: u8) -> SMove {
    SMove {
        from: Sq(from),
        to: Sq(to),
        flags: 0,
    }
}

/// A hand-made trace: 1.e4 (e5 d5) and 1.d4 (d5, then a cutoff skipping e5).
fn small_trace() -> Vec<Event> {
    let (e4, d4, e5, d5) = (mv(35, 55), mv(34, 54), mv(85, 65), mv(84, 64));
    let c = |p: Vec<SMove>| Event::Created { path: p };
    let ab = |p: Vec<SMove>, s: u8, cutoff: bool| Event::AlphaBeta {
        path: p,
        score: Score(s),
        two_above: Score(0),
        cutoff,
    };
    let bt = |p: Vec<SMove>, accepted: bool| Event::BestTest {
        path: p,
        negated: Score(0x80),
        one_above: Score(0),
        accepted,
    };
    let best = |p: Vec<SMove>| Event::Best {
        path: p,
        score: Score(0x80),
    };
    vec![
        c(vec![e4]),
        c(vec![d4]),
        c(vec![e4, e5]),
        c(vec![e4, d5]),
        ab(vec![e4, e5], 0x80, false),
        bt(vec![e4, e5], true),
        best(vec![e4, e5]),
        ab(vec![e4, d5], 0x88, false),
        bt(vec![e4, d5], false),
        ab(vec![e4], 0x80, false),
        bt(vec![e4], true),
        best(vec![e4]),
        c(vec![d4, d5]),
        c(vec![d4, e5]),
        ab(vec![d4, d5], 0x70, true),
        Event::Result {
            best: Some(e4),
            score: Score(0x80),
        },
    ]
}

#[test]
fn tree_from_a_trace() {
    let tree = SearchTree::from_trace(&Chess::default(), &small_trace(), "test");
    assert_eq!(tree.len(), 6);
    let by_label = |l: &str| tree.nodes.iter().position(|n| n.label == l).unwrap();
    let e4 = by_label("1.e4");
    let d4 = by_label("1.d4");
    assert!(tree.nodes[e4].in_pv);
    assert_eq!(tree.pv().len(), 2);
    assert_eq!(tree.nodes[e4].eval.as_ref().unwrap().order, 3);
    assert_eq!(tree.nodes[d4].status, Status::Refuted { at: 4 });
    let skipped = tree.nodes[d4].children[1];
    assert_eq!(tree.nodes[skipped].label, "1...e5");
    assert_eq!(tree.nodes[skipped].status, Status::CutOff { by: Some(4) });
    let dot = to_dot(&tree, &View::all(&tree), DotLayout::LeftToRight);
    assert!(dot.contains("cut off by (4)"), "{dot}");
    assert!(dot.contains("CUTOFF"));
    let text = to_text(&tree, &View::all(&tree));
    assert!(text.contains("*(3) 1.e4"), "{text}");
    assert!(text.contains("Sargon plays e4"), "{text}");
}

#[test]
fn pruning_keeps_the_pv_and_counts_the_rest() {
    let tree = SearchTree::from_trace(&Chess::default(), &small_trace(), "test");
    let view = View::select(&tree, Some(3), None);
    assert_eq!(view.shown_count, 4);
    assert_eq!(view.left_out, 3);
    for id in tree.pv() {
        assert!(view.shown[id]);
    }
    assert_eq!(view.left_out_below.iter().sum::<usize>(), 3);
    assert!(view.summary().contains("3 left out"));
    let view = View::select(&tree, None, Some(1));
    assert_eq!(view.shown_count, 3);
    let text = to_text(&tree, &view);
    assert!(text.contains("more not shown"), "{text}");
}

#[test]
fn pawn_text() {
    assert_eq!(pawns(0.25), "+0.25");
    assert_eq!(pawns(-3.375), "-3.375");
    assert_eq!(pawns(1.0), "+1.00");
    assert_eq!(pawns(-0.0), "+0.00");
}
