//! The parts of the models that need no engine: keys, score conversion, formatting, the
//! tree layout, the backward scan and the model data themselves.

use shakmaty::san::San;
use shakmaty::{Chess, Position};

use super::text::{backward_scan, decision_text, last_move, tree, wrap};
use super::*;
use sargon_core::vocab::Sq;

fn push(from: &str, to: &str) -> SMove {
    let sq = |s: &str| {
        let b = s.as_bytes();
        Sq::from_file_rank(b[0] - b'a', b[1] - b'1')
    };
    SMove {
        from: sq(from),
        to: sq(to),
        flags: 0,
    }
}

#[test]
fn keys_come_from_the_files_of_the_pawns() {
    let (a, b) = (push("a3", "a4"), push("b4", "b5"));
    let (g, h) = (push("g6", "g5"), push("h6", "h5"));
    assert_eq!(key_of(&[]).as_deref(), Some(""));
    assert_eq!(key_of(&[a]).as_deref(), Some("A"));
    assert_eq!(key_of(&[b, h]).as_deref(), Some("BH"));
    assert_eq!(key_of(&[a, g, push("b4", "b5")]).as_deref(), Some("AGB"));
    assert_eq!(key_of(&[b, g, push("a3", "a4")]).as_deref(), Some("BGA"));
    // King moves, a black move at a white ply, a path too deep: no model node.
    assert_eq!(key_of(&[push("a1", "a2")]), None);
    assert_eq!(key_of(&[push("a1", "b1")]), None);
    assert_eq!(key_of(&[a, push("h8", "h7")]), None);
    assert_eq!(key_of(&[a, push("h8", "g8")]), None);
    assert_eq!(key_of(&[g]), None);
    assert_eq!(key_of(&[a, a]), None);
    assert_eq!(key_of(&[a, g, a, g]), None);
}

#[test]
fn scores_are_seen_from_the_side_that_moved() {
    let m1 = &MODELS[0];
    assert_eq!(node_score(m1, ""), Some(Score(0x80)));
    assert_eq!(node_score(m1, "AGA"), Some(Score(0x80 - 27)));
    assert_eq!(node_score(m1, "BGA"), Some(Score(0x80 - 74)));
    assert_eq!(node_score(&MODELS[4], "B"), Some(Score(0x78)));
    assert_eq!(node_score(&MODELS[1], "AGB"), Some(Score(0x80 + 80)));
    // A Black node's White-side score is negated: +2 for White is -2 for Black.
    let mut m = MODELS[0].clone();
    m.nodes[1].score = 2.0;
    assert_eq!(m.nodes[1].key, "AG");
    assert_eq!(node_score(&m, "AG"), Some(Score(0x80 + 16)));
    assert_eq!(node_score(m1, "AGAB"), None);
}

#[test]
fn thresholds_print_max_for_the_empty_table() {
    assert_eq!(threshold_text(16.0), "MAX");
    assert_eq!(threshold_text(-16.0), "-MAX");
    assert_eq!(threshold_text(Score(0).pawns()), "MAX");
    assert_eq!(threshold_text(-Score(0).pawns()), "-MAX");
    assert_eq!(threshold_text(3.375), "3.375");
    assert_eq!(threshold_text(-12.0), "-12.000");
    assert_eq!(threshold_text(0.0), "0.000");
    assert_eq!(pawns_text(9.25), "9.250");
}

fn eval(key: &str, score: f64, a: f64, m: f64, decision: Decision) -> Evaluation {
    Evaluation {
        order: 4,
        key: key.into(),
        score,
        alpha_beta: a,
        minimax: m,
        decision,
        alpha_beta_source: Some("AG".into()),
        minimax_source: None,
    }
}

#[test]
fn decisions_read_like_the_document() {
    let e = eval("AHB", 3.25, 3.375, 3.125, Decision::NewBest);
    assert_eq!(decision_text(&e), "3.250 > 3.125 so NEW BEST MOVE");
    let e = eval("AHA", 12.0, 12.0, -16.0, Decision::Cutoff);
    assert_eq!(decision_text(&e), "12.000 >= 12.000 so ALPHA BETA CUTOFF");
    let e = eval("AGB", 3.0, 16.0, 3.375, Decision::Discard);
    assert_eq!(decision_text(&e), "3.000 <= 3.375 so discard");
    let e = eval("AGA", 3.375, 16.0, -16.0, Decision::NewBest);
    assert_eq!(decision_text(&e), "3.375 > -MAX so NEW BEST MOVE");
    assert_eq!(Decision::Cutoff.name(), "cutoff");
    assert_eq!(e.ply(), 3);
}

#[test]
fn last_moves_are_numbered_alone() {
    let m = &MODELS[1];
    assert_eq!(last_move(m, "A"), "1.Qg8+");
    assert_eq!(last_move(m, "AH"), "1...Rxg8");
    assert_eq!(last_move(m, "AHA"), "2.Nf7#");
}

#[test]
fn the_tree_has_every_node_under_its_parent() {
    let m = &MODELS[1];
    let figures = |k: &str| {
        if k == "AGA" {
            "(1) 12.000".to_string()
        } else {
            String::new()
        }
    };
    let pv: Vec<String> = ["A", "AG", "AGA"].iter().map(|s| s.to_string()).collect();
    let lines = tree(m, &figures, &pv);
    assert_eq!(lines.len(), 15);
    assert_eq!(lines[0], "(root)");
    assert_eq!(lines[1], "+-- *1.Qg8+");
    assert_eq!(lines[2], "|   +-- *1.Qg8+ Nxg8");
    assert!(lines[3].starts_with("|   |   +-- *1.Qg8+ Nxg8 2.Nf7# "));
    assert!(lines[3].ends_with(" (1) 12.000"));
    assert_eq!(lines[4], "|   |   `--  1.Qg8+ Nxg8 2.Nxg8");
    assert_eq!(lines[5], "|   `--  1.Qg8+ Rxg8");
    assert_eq!(lines[6], "|       +--  1.Qg8+ Rxg8 2.Nf7#");
    assert_eq!(lines[8], "`--  1.Qa1");
    assert_eq!(lines[9], "    +--  1.Qa1 Rc6");
    // The figures start one blank after the widest label.
    let column = lines[3].find("(1)").unwrap();
    assert_eq!(lines[4].len(), column - 1);
    assert!(lines.iter().all(|l| l.len() < column || *l == lines[3]));
    assert_eq!(lines[14], "        `--  1.Qa1 Ng8 2.Ng4");
}

#[test]
fn the_backward_scan_follows_the_document() {
    let s = |v: &[&str]| v.iter().map(|k| k.to_string()).collect::<Vec<_>>();
    // The document's minimum asterisks: PV = A, AG, AGA.
    let best = s(&["AGA", "AG", "AHA", "A", "BGA", "BG", "BHA"]);
    assert_eq!(backward_scan(&best), vec![3, 1, 0]);
    // B trumps A and BGB trumps BGA: PV = B, BG, BGB.
    let best = s(&[
        "AGA", "AG", "AHA", "AHB", "AH", "A", "BGA", "BGB", "BG", "BHA", "BHB", "B",
    ]);
    assert_eq!(backward_scan(&best), vec![11, 8, 7]);
}

#[test]
fn wrapping_keeps_words_and_indent() {
    let w = wrap("one two three four five", "  ", 12);
    assert_eq!(w, "  one two\n  three four\n  five\n");
    assert_eq!(wrap("", "  ", 10), "");
}

#[test]
fn the_models_are_consistent() {
    for (i, m) in MODELS.iter().enumerate() {
        assert_eq!(m.number as usize, i + 1);
        for (node, key) in m.nodes.iter().zip(KEYS) {
            assert_eq!(node.key, key);
            // Sargon's resolution is an eighth of a pawn: the scores are exact in it.
            assert_eq!((node.score * 8.0).fract(), 0.0, "{} {key}", m.number);
            assert_eq!(Score::from_pawns(node.score).pawns(), node.score);
            // Each line extends its parent's.
            let parent = &key[..key.len() - 1];
            if !parent.is_empty() {
                assert!(node.line.starts_with(&format!("{} ", m.line(parent))));
            }
        }
    }
}

/// The pretend lines are real chess: legal moves in the pretend positions, with the right
/// check and mate signs.
#[test]
fn the_pretend_lines_are_legal_san() {
    for m in &MODELS {
        let start = sargon_core::position::parse_position(m.fen).unwrap();
        for node in &m.nodes {
            let mut pos: Chess = start.clone();
            for token in node.line.split(' ') {
                let san = token.rsplit('.').next().unwrap();
                let plain = san.trim_end_matches(['+', '#']);
                let mv = plain
                    .parse::<San>()
                    .unwrap()
                    .to_move(&pos)
                    .unwrap_or_else(|e| panic!("{} {}: {token}: {e}", m.number, node.key));
                let written = shakmaty::san::SanPlus::from_move(pos.clone(), mv).to_string();
                assert_eq!(written, san, "example {} {}", m.number, node.key);
                pos.play_unchecked(mv);
            }
        }
    }
}

#[test]
fn refusals_are_types_naming_the_example_and_the_node() {
    let mut port = sargon_port::Port::new();
    let err = run_example(&mut port, 9).unwrap_err();
    assert!(matches!(err, ModelError::NoExample(9)), "{err:?}");
    assert_eq!(err.to_string(), "there is no example 9 (1-5)");
    // A trace whose first node is a king move: no node of any model.
    let events = [Event::Created {
        path: vec![push("a1", "a2")],
    }];
    let misfit = derive(&MODELS[0], &events, &[]).unwrap_err();
    assert_eq!(misfit, MisfitError::NoNode("a1a2".into()));
    let shown = ModelError::Misfit { number: 1, misfit }.to_string();
    assert_eq!(
        shown,
        "example 1: the trace does not fit the model: no model node for the moves a1a2"
    );
}
