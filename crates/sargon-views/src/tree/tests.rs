//! The tree's tests: building, cutting, viewing and writing a small hand-made trace and a
//! real search.

use std::collections::HashMap;

use shakmaty::Chess;

use super::*;
use sargon_core::position::Book;
use sargon_core::trace::Event;
use sargon_core::vocab::{SMove, Score};

/// A hand-made trace: 1.e4 (e5 d5) and 1.d4 (d5, then a cutoff skipping e5).
fn small_trace() -> Vec<Event> {
    let (e4, d4, e5, d5) = (
        SMove::plain(35, 55),
        SMove::plain(34, 54),
        SMove::plain(85, 65),
        SMove::plain(84, 64),
    );
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
fn a_full_builder_drops_the_deepest_ply_and_keeps_the_refutations() {
    let full = SearchTree::from_trace(&Chess::default(), &small_trace(), "test");
    assert_eq!(full.cut, None);
    let mut builder = TreeBuilder::new(Some(3));
    for e in small_trace() {
        builder.add(&e);
    }
    let tree = builder.finish(&Chess::default(), "test");
    // The two root moves; the replies went when the tree was full.
    assert_eq!(tree.len(), 2);
    let cut = tree.cut.clone().expect("a cut");
    assert_eq!((cut.limit, cut.created, cut.plies), (3, 6, Some(1)));
    let by_label = |l: &str| tree.nodes.iter().position(|n| n.label == l).unwrap();
    let (e4, d4) = (by_label("1.e4"), by_label("1.d4"));
    assert!(tree.nodes[e4].in_pv);
    assert_eq!(tree.nodes[e4].eval.as_ref().unwrap().order, 3);
    // 1...d5 refuted 1.d4: the reply is gone, the verdict stays.
    assert_eq!(tree.nodes[d4].status, Status::Refuted { at: 4 });
    let text = to_text(&tree, &View::all(&tree));
    assert!(
        text.contains("Cut: the search created 6 nodes, more than the 3 kept in memory (--keep-nodes): the tree holds the nodes down to ply 1 only."),
        "{text}"
    );
    let dot = to_dot(&tree, &View::all(&tree), DotLayout::LeftToRight);
    assert!(dot.contains("Cut: the search created 6 nodes"), "{dot}");
    // When the root's moves alone overflow, the first ones are kept.
    let mut builder = TreeBuilder::new(Some(1));
    for e in small_trace() {
        builder.add(&e);
    }
    let tree = builder.finish(&Chess::default(), "test");
    assert_eq!(tree.len(), 1);
    assert_eq!(tree.cut.as_ref().unwrap().plies, None);
    assert!(tree
        .cut
        .unwrap()
        .note()
        .contains("the first 1 created only"));
}

/// Each node by its line of labels from the root.
fn by_line(tree: &SearchTree) -> HashMap<Vec<String>, &TreeNode> {
    let mut out = HashMap::new();
    for node in &tree.nodes[1..] {
        let mut line = vec![node.label.clone()];
        let mut at = node.parent;
        while let Some(p) = at.filter(|&p| p != ROOT) {
            line.push(tree.nodes[p].label.clone());
            at = tree.nodes[p].parent;
        }
        line.reverse();
        out.insert(line, node);
    }
    out
}

/// A bounded tree of a real search is the whole tree cut at a ply: the same nodes down
/// to that ply, with the same evaluations, verdicts and principal variation.
#[test]
fn a_bounded_tree_is_the_whole_tree_down_to_a_ply() {
    use sargon_core::engine::SearchOptions;
    use sargon_core::position::{parse_position, setup};
    use sargon_core::trace::Detail;
    let pos = parse_position("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
        .unwrap();
    let events = sargon_core::record::search(
        &mut sargon_port::Port::new(),
        &setup(&pos, Book::Off).unwrap(),
        &SearchOptions::depth(3),
        Detail::Full,
        &mut [],
    )
    .unwrap()
    .events;
    let full = SearchTree::from_trace(&pos, &events, "full");
    let mut builder = TreeBuilder::new(Some(600));
    for e in &events {
        builder.add(e);
    }
    let cut = builder.finish(&pos, "cut");
    let plies = cut
        .cut
        .as_ref()
        .and_then(|c| c.plies)
        .expect("cut at a ply");
    assert!(plies < 3 && cut.len() <= 600, "{plies} {}", cut.len());
    let whole = by_line(&full);
    let kept = by_line(&cut);
    let expected = whole.values().filter(|n| n.ply <= plies).count();
    assert_eq!(kept.len(), expected);
    let mut refuted = 0;
    for (line, node) in &kept {
        let other = whole[line];
        assert_eq!(node.eval, other.eval, "{line:?}");
        assert_eq!(node.status, other.status, "{line:?}");
        assert_eq!(node.in_pv, other.in_pv, "{line:?}");
        assert_eq!(node.best_so_far, other.best_so_far, "{line:?}");
        refuted += usize::from(matches!(node.status, Status::Refuted { .. }));
    }
    assert!(refuted > 0, "refutations are among what is checked");
    assert_eq!(
        cut.cut.as_ref().unwrap().created as usize,
        full.len(),
        "every node counted"
    );
}

#[test]
fn pawn_text() {
    assert_eq!(pawns(0.25), "+0.25");
    assert_eq!(pawns(-3.375), "-3.375");
    assert_eq!(pawns(1.0), "+1.00");
    assert_eq!(pawns(-0.0), "+0.00");
}
