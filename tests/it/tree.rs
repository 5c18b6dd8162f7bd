//! Pictures of the search: the tree of a real search (on the port, and on the emulator where
//! a ROM is imported), its PV and cutoffs, the pruning, the text form, the models as DOT,
//! and SVG when Graphviz is installed (skipped with a line otherwise).

use crate::common;

use std::process::Command;

use sargon_core::engine::{Engine, SearchOptions};
use sargon_core::position;
use sargon_core::position::Book;
use sargon_core::record;
use sargon_core::trace::{Detail, Event};
use sargon_views::models;
use sargon_views::tree::{self, DotLayout, SearchTree, Status, View};

const ITALIAN: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

fn search_tree(engine: &mut dyn Engine, fen: &str, depth: u8) -> SearchTree {
    let pos = position::parse_position(fen).unwrap();
    let setup = position::setup(&pos, Book::Off).unwrap();
    let events = record::search(
        engine,
        &setup,
        &SearchOptions::depth(depth),
        Detail::Full,
        &mut [],
    )
    .unwrap()
    .events;
    let created = events
        .iter()
        .filter(|e| matches!(e, Event::Created { .. }))
        .count();
    let tree = SearchTree::from_trace(&pos, &events, "test");
    assert_eq!(tree.len(), created, "one node per created event");
    tree
}

fn check_tree(tree: &SearchTree, depth: usize) {
    let pv = tree.pv();
    assert!(pv.len() >= depth, "PV of {} nodes", pv.len());
    // PV nodes are evaluated and were best among their siblings.
    for &id in &pv {
        let node = &tree.nodes[id];
        assert!(node.best_so_far, "{}", node.label);
    }
    // Cutoffs, refuted nodes and cut-off nodes all occur at this depth.
    let cutoffs = tree
        .nodes
        .iter()
        .filter(|n| {
            n.eval
                .as_ref()
                .is_some_and(|e| e.decision == models::Decision::Cutoff)
        })
        .count();
    let refuted = tree
        .nodes
        .iter()
        .filter(|n| matches!(n.status, Status::Refuted { .. }))
        .count();
    let cut_off = tree
        .nodes
        .iter()
        .filter(|n| matches!(n.status, Status::CutOff { .. }))
        .count();
    assert!(
        cutoffs > 0 && refuted > 0 && cut_off > 0,
        "{cutoffs} {refuted} {cut_off}"
    );
    // Each refuted node's refutation is among its children.
    for n in &tree.nodes {
        if let Status::Refuted { at } = n.status {
            assert!(n
                .children
                .iter()
                .any(|&c| tree.nodes[c].eval.as_ref().is_some_and(|e| e.order == at)));
        }
    }

    let view = View::select(tree, Some(120), None);
    assert!(view.shown_count <= 121);
    assert!(
        pv.iter().all(|&id| view.shown[id]),
        "the PV is always shown"
    );
    assert_eq!(
        view.shown_count - 1 + view.grouped + view.left_out,
        tree.len(),
        "every node is shown, grouped or counted as left out"
    );
    let dot = tree::to_dot(tree, &view, DotLayout::LeftToRight);
    assert!(dot.starts_with("digraph sargon_search {"));
    assert!(dot.contains("CUTOFF") && dot.contains("cut off by ("));
    assert!(dot.contains("nodes not shown"));
    assert!(dot.contains(&view.summary()));
    let text = tree::to_text(tree, &View::select(tree, Some(60), Some(2)));
    assert!(
        text.lines()
            .any(|l| l.starts_with("+-- *(") || l.starts_with("`-- *(")),
        "{text}"
    );
}

#[test]
fn tree_of_a_port_search() {
    let mut port = sargon_port::Port::new();
    let t = search_tree(&mut port, ITALIAN, 3);
    check_tree(&t, 3);
    assert!(t.root_text.contains("Sargon plays"));
}

#[test]
fn tree_of_an_emulator_search_is_the_ports() {
    let Some(mut emu) = common::emulator("tree_of_an_emulator_search_is_the_ports") else {
        return;
    };
    let a = search_tree(&mut emu, ITALIAN, 3);
    check_tree(&a, 3);
    let b = search_tree(&mut sargon_port::Port::new(), ITALIAN, 3);
    let view = |t: &SearchTree| tree::to_text(t, &View::all(t));
    assert_eq!(view(&a), view(&b));
}

#[test]
fn models_as_dot() {
    let mut port = sargon_port::Port::new();
    let runs: Vec<_> = (1..=5)
        .map(|n| models::run_example(&mut port, n).unwrap())
        .collect();
    let dot = tree::models_dot(&runs, None);
    for n in 1..=5 {
        assert!(dot.contains(&format!("subgraph cluster_{}", n - 1)));
        assert!(dot.contains(&format!("Example {n}: ")));
    }
    // Example 2: (4) is the cutoff that refutes 1...Rxg8.
    let t = SearchTree::from_model_run(&runs[1]);
    let ah = t
        .nodes
        .iter()
        .find(|n| n.key.as_deref() == Some("AH"))
        .unwrap();
    assert_eq!(ah.status, Status::Refuted { at: 4 });
    let ahb = t
        .nodes
        .iter()
        .find(|n| n.key.as_deref() == Some("AHB"))
        .unwrap();
    assert_eq!(ahb.status, Status::CutOff { by: Some(4) });
    assert!(
        dot.contains("(4) AHA  2.Nf7#\\n+12.00 CUTOFF\\n[+12.00, -MAX]"),
        "{dot}"
    );
}

#[test]
fn svg_with_graphviz() {
    let Some(version) = graphviz_version() else {
        common::skip_for_want_of_tool(
            "SARGON_GRAPHVIZ_TEST",
            "svg_with_graphviz",
            "Graphviz not installed (apt-get install graphviz)",
        );
        return;
    };
    println!("{version}");
    // Graphviz is run by the command line, not the library.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tree.svg");
    let out = Command::new(env!("CARGO_BIN_EXE_sargon"))
        .args(["tree", ITALIAN, "--depth", "2", "--max-nodes", "50", "-o"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(
        svg.contains("<svg") && svg.contains("Showing 50 of "),
        "{}",
        &svg[..300.min(svg.len())]
    );
    let out = Command::new(env!("CARGO_BIN_EXE_sargon"))
        .args(["models", "--example", "2", "--format", "svg"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("Philidor"));
}

/// Graphviz's version line, if `dot` is installed.
fn graphviz_version() -> Option<String> {
    let out = Command::new("dot").arg("-V").output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stderr).trim().to_string())
}
