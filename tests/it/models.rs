//! `sargon models` against "A Window into Sargon": for each of the five examples, the PV and
//! every numbered evaluation (line, score, [alpha-beta, minimax] thresholds, decision) as
//! the document's figures show them, in the JSON and in the text. Needs the original (an
//! imported ROM); skipped with a clear line where there is none.

use crate::common;

use sargon_views::models::{self, ModelFormat};

/// "MAX" of the document, as the JSON gives it.
const MAX: f64 = 16.0;

/// One evaluation as the document prints it: "(N)", line, score, [A, M], decision.
type Eval = (usize, &'static str, f64, f64, f64, &'static str);

struct Expected {
    example: u8,
    pv: &'static str,
    evaluations: &'static [Eval],
}

/// Transcribed from the document's five diagrams.
const DOCUMENT: [Expected; 5] = [
    Expected {
        example: 1,
        pv: "1.Ng6+ Kg8 2.Nxe5",
        evaluations: &[
            (1, "1.Nxd3 Qd6 2.Ne1", 3.375, MAX, -MAX, "new_best"),
            (2, "1.Nxd3 Qd6 2.Qb1", 3.0, MAX, 3.375, "discard"),
            (3, "1.Nxd3 Qd6", -3.375, MAX, -MAX, "new_best"),
            (4, "1.Nxd3 Qg5 2.Rxc7", 3.125, 3.375, -MAX, "new_best"),
            (5, "1.Nxd3 Qg5 2.Kh2", 3.25, 3.375, 3.125, "new_best"),
            (6, "1.Nxd3 Qg5", -3.25, MAX, -3.375, "new_best"),
            (7, "1.Nxd3", 3.25, MAX, -MAX, "new_best"),
            (8, "1.Ng6+ Kh7 2.Nxe5", 9.25, MAX, 3.25, "new_best"),
            (9, "1.Ng6+ Kh7 2.Nxh4", 5.0, MAX, 9.25, "discard"),
            (10, "1.Ng6+ Kh7", -9.25, -3.25, -MAX, "new_best"),
            (11, "1.Ng6+ Kg8 2.Nxe5", 9.0, 9.25, 3.25, "new_best"),
            (12, "1.Ng6+ Kg8 2.Nxh4", 5.25, 9.25, 9.0, "discard"),
            (13, "1.Ng6+ Kg8", -9.0, -3.25, -9.25, "new_best"),
            (14, "1.Ng6+", 9.0, MAX, 3.25, "new_best"),
        ],
    },
    Expected {
        example: 2,
        pv: "1.Qg8+ Nxg8 2.Nf7#",
        evaluations: &[
            (1, "1.Qg8+ Nxg8 2.Nf7#", 12.0, MAX, -MAX, "new_best"),
            (2, "1.Qg8+ Nxg8 2.Nxg8", -10.0, MAX, 12.0, "discard"),
            (3, "1.Qg8+ Nxg8", -12.0, MAX, -MAX, "new_best"),
            (4, "1.Qg8+ Rxg8 2.Nf7#", 12.0, 12.0, -MAX, "cutoff"),
            (5, "1.Qg8+", 12.0, MAX, -MAX, "new_best"),
            (6, "1.Qa1 Rc6 2.Nf7+", 0.0, MAX, 12.0, "discard"),
            (7, "1.Qa1 Rc6 2.Ng4", 0.0, MAX, 12.0, "discard"),
            (8, "1.Qa1 Rc6", -12.0, -12.0, -MAX, "cutoff"),
        ],
    },
    Expected {
        example: 3,
        pv: "1.Qg8+ Nxg8 2.Nf7#",
        evaluations: &[
            (1, "1.Qa1 Rc6 2.Nf7+", 0.0, MAX, -MAX, "new_best"),
            (2, "1.Qa1 Rc6 2.Ng4", 0.0, MAX, 0.0, "discard"),
            (3, "1.Qa1 Rc6", 0.0, MAX, -MAX, "new_best"),
            (4, "1.Qa1 Ng8 2.Nf7#", 12.0, 0.0, -MAX, "cutoff"),
            (5, "1.Qa1", 0.0, MAX, -MAX, "new_best"),
            (6, "1.Qg8+ Nxg8 2.Nf7#", 12.0, MAX, 0.0, "new_best"),
            (7, "1.Qg8+ Nxg8 2.Nxg8", -10.0, MAX, 12.0, "discard"),
            (8, "1.Qg8+ Nxg8", -12.0, 0.0, -MAX, "new_best"),
            (9, "1.Qg8+ Rxg8 2.Nf7#", 12.0, 12.0, 0.0, "cutoff"),
            (10, "1.Qg8+", 12.0, MAX, 0.0, "new_best"),
        ],
    },
    Expected {
        example: 4,
        pv: "1.Nf5+ Kg8 2.Nxh6+",
        evaluations: &[
            (1, "1.Nf5+ Kg8 2.Nxh6+", 5.125, MAX, -MAX, "new_best"),
            (2, "1.Nf5+ Kg8 2.h3", 0.125, MAX, 5.125, "discard"),
            (3, "1.Nf5+ Kg8", -5.125, MAX, -MAX, "new_best"),
            (4, "1.Nf5+ Kh8 2.Rd8#", 12.0, 5.125, -MAX, "cutoff"),
            (5, "1.Nf5+", 5.125, MAX, -MAX, "new_best"),
            (6, "1.Ne6+ Kg8 2.h3", 0.375, MAX, 5.125, "discard"),
            (7, "1.Ne6+ Kg8 2.Rd8+", 0.5, MAX, 5.125, "discard"),
            (8, "1.Ne6+ Kg8", -5.125, -5.125, -MAX, "cutoff"),
        ],
    },
    Expected {
        example: 5,
        pv: "1.Ng6+ Kg8 2.Nxe5",
        evaluations: &[
            (1, "1.Ng6+ Kh7 2.Nxe5", 9.25, MAX, -MAX, "new_best"),
            (2, "1.Ng6+ Kh7 2.Nxh4", 5.0, MAX, 9.25, "discard"),
            (3, "1.Ng6+ Kh7", -9.25, MAX, -MAX, "new_best"),
            (4, "1.Ng6+ Kg8 2.Nxe5", 9.0, 9.25, -MAX, "new_best"),
            (5, "1.Ng6+ Kg8 2.Nxh4", 5.25, 9.25, 9.0, "discard"),
            (6, "1.Ng6+ Kg8", -9.0, MAX, -9.25, "new_best"),
            (7, "1.Ng6+", 9.0, MAX, -MAX, "new_best"),
            (8, "1.Nxd3 Qd6 2.Ne1", 3.375, MAX, 9.0, "discard"),
            (9, "1.Nxd3 Qd6 2.Qb1", 3.0, MAX, 9.0, "discard"),
            (10, "1.Nxd3 Qd6", -9.0, -9.0, -MAX, "cutoff"),
        ],
    },
];

/// A number as the document prints it: three decimals, MAX and -MAX for the empty table.
fn doc_number(x: f64) -> String {
    if x >= MAX {
        "MAX".into()
    } else if x <= -MAX {
        "-MAX".into()
    } else {
        format!("{x:.3}")
    }
}

/// The document's verdict for an evaluation, e.g. "3.250 > 3.125 so NEW BEST MOVE".
fn doc_verdict(&(_, _, score, a, m, decision): &Eval) -> String {
    let s = doc_number(score);
    match decision {
        "cutoff" => format!("{s} >= {} so ALPHA BETA CUTOFF", doc_number(a)),
        "new_best" => format!("{s} > {} so NEW BEST MOVE", doc_number(m)),
        _ => format!("{s} <= {} so discard", doc_number(m)),
    }
}

#[test]
fn json_reproduces_the_documents_figures() {
    let Some(mut emu) = common::emulator("json_reproduces_the_documents_figures") else {
        return;
    };
    check_json(&mut emu);
}

/// The port needs no ROM: these run everywhere, CI included.
#[test]
fn the_port_reproduces_the_documents_figures() {
    let mut port = sargon_port::Port::new();
    check_json(&mut port);
    check_text(&mut port);
}

/// `sargon models --engine port` prints exactly what `--engine emulator` prints.
#[test]
fn port_and_emulator_print_the_same_models() {
    let Some(mut emu) = common::emulator("port_and_emulator_print_the_same_models") else {
        return;
    };
    let mut port = sargon_port::Port::new();
    for format in [ModelFormat::Text, ModelFormat::Json] {
        let a = models::run_models(&mut emu, None, format).unwrap();
        let b = models::run_models(&mut port, None, format).unwrap();
        assert_eq!(a, b, "{format:?} output differs between the engines");
    }
}

fn check_json(engine: &mut dyn sargon_core::engine::Engine) {
    let out = models::run_models(engine, None, ModelFormat::Json).unwrap();
    let all: serde_json::Value = serde_json::from_str(&out).unwrap();
    let all = all.as_array().expect("an array of examples");
    assert_eq!(all.len(), 5);
    for (ex, doc) in all.iter().zip(&DOCUMENT) {
        let n = doc.example;
        assert_eq!(ex["example"], n);
        assert_eq!(ex["pv_san"], doc.pv, "example {n}");
        let evals = ex["evaluations"].as_array().unwrap();
        assert_eq!(evals.len(), doc.evaluations.len(), "example {n}");
        for (e, &(order, line, score, a, m, decision)) in evals.iter().zip(doc.evaluations) {
            let at = format!("example {n} evaluation ({order})");
            assert_eq!(e["order"], order, "{at}");
            assert_eq!(e["line_san"], line, "{at}");
            assert_eq!(e["score"].as_f64(), Some(score), "{at}");
            assert_eq!(e["alpha_beta"].as_f64(), Some(a), "{at}");
            assert_eq!(e["minimax"].as_f64(), Some(m), "{at}");
            assert_eq!(e["decision"], decision, "{at}");
        }
        // The PV's nodes are asterisked; the nodes never evaluated have no order number.
        let nodes = ex["nodes"].as_array().unwrap();
        assert_eq!(nodes.len(), 14);
        let pv_nodes: Vec<&str> = nodes
            .iter()
            .filter(|x| x["in_pv"] == true)
            .map(|x| x["line_san"].as_str().unwrap())
            .collect();
        assert_eq!(pv_nodes.len(), 3, "example {n}");
        assert_eq!(*pv_nodes.last().unwrap(), doc.pv, "example {n}");
        let evaluated = nodes.iter().filter(|x| !x["evaluation"].is_null()).count();
        assert_eq!(evaluated, doc.evaluations.len(), "example {n}");
    }
}

#[test]
fn text_shows_the_documents_figures() {
    let Some(mut emu) = common::emulator("text_shows_the_documents_figures") else {
        return;
    };
    check_text(&mut emu);
}

fn check_text(engine: &mut dyn sargon_core::engine::Engine) {
    let out = models::run_models(engine, None, ModelFormat::Text).unwrap();
    for doc in &DOCUMENT {
        let n = doc.example;
        let start = out
            .find(&format!("\nExample {n}: "))
            .unwrap_or_else(|| panic!("no example {n}"));
        let end = out
            .find(&format!("\nExample {}: ", n + 1))
            .unwrap_or(out.len());
        let section = &out[start..end];
        assert!(
            section.contains(&format!("\nPV = {} ", doc.pv)),
            "example {n}: no PV line"
        );
        for ev in doc.evaluations {
            let (order, line, score, a, m, _) = *ev;
            let figures = format!(
                "{} [{}, {}]  {}",
                doc_number(score),
                doc_number(a),
                doc_number(m),
                doc_verdict(ev)
            );
            // Once in the evaluation list, once in the tree.
            let listed = format!("({order}) {line} ");
            let hits = section
                .lines()
                .filter(|l| l.contains(&listed) && l.ends_with(&figures))
                .count();
            assert_eq!(hits, 1, "example {n}: no list line `{listed}... {figures}`");
            let in_tree = section
                .lines()
                .filter(|l| {
                    l.contains(&format!("--  {line} ")) || l.contains(&format!("-- *{line} "))
                })
                .filter(|l| l.contains(&format!("({order}) ")) && l.ends_with(&figures))
                .count();
            assert_eq!(in_tree, 1, "example {n}: no tree line for ({order}) {line}");
        }
        // PV nodes carry the asterisk in the tree.
        let tree_starred = section.lines().filter(|l| l.contains("-- *")).count();
        assert_eq!(tree_starred, 3, "example {n}");
        assert!(section.contains(&format!("-- *{} ", doc.pv)), "example {n}");
    }
}

#[test]
fn nodes_cut_off_appear_in_the_tree_without_figures() {
    let Some(mut emu) = common::emulator("nodes_cut_off_appear_in_the_tree_without_figures") else {
        return;
    };
    let out = models::run_models(&mut emu, Some(4), ModelFormat::Text).unwrap();
    assert!(out.contains("\nExample 4: ") && !out.contains("\nExample 3: "));
    let tree: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("The tree"))
        .skip(1)
        .take(15)
        .collect();
    assert_eq!(tree[0].trim(), "(root)");
    // The document's example 4 shows figures for 8 nodes; the other 6 have none.
    let bare: Vec<&str> = tree.iter().filter(|l| !l.contains('[')).copied().collect();
    assert_eq!(bare.len(), 7, "{tree:#?}");
    for line in ["1.Nf5+ Kh8 ", "1.Nf5+ Kh8 2.Nxh6", "1.Ne6+ ", "1.Ne6+ Kh8 "] {
        assert!(
            bare.iter().any(|l| l.contains(&format!("--  {line}"))),
            "{line} should have no figures"
        );
    }
    // The refuted parents say which cutoff refuted them.
    assert!(tree
        .iter()
        .any(|l| l.contains("--  1.Nf5+ Kh8 ") && l.contains("refuted at (4)")));
    assert!(tree
        .iter()
        .any(|l| l.contains("--  1.Ne6+ ") && l.contains("refuted at (8)")));
}

#[test]
fn runs_are_reproducible() {
    let Some(mut emu) = common::emulator("runs_are_reproducible") else {
        return;
    };
    let a = models::run_models(&mut emu, Some(5), ModelFormat::Json).unwrap();
    let b = models::run_models(&mut emu, Some(5), ModelFormat::Json).unwrap();
    assert_eq!(a, b);
}

/// The document describes the real position as "pawns a4,b3", but with the b-pawn below
/// the a-pawn Sargon generates (and, with equal static scores, keeps) B before A, so the
/// figures come out in another order: they were made with a3/b4.
#[test]
fn the_pawns_must_stand_on_a3_and_b4() {
    let Some(mut emu) = common::emulator("the_pawns_must_stand_on_a3_and_b4") else {
        return;
    };
    let run = models::run_example(&mut emu, 1).unwrap();
    assert_eq!(run.evaluations[0].key, "AGA");
    let a4b3 = "7k/8/6pp/8/P7/1P6/8/K7 w - - 0 1";
    let other = models::run_example_from(&mut emu, 1, a4b3).unwrap();
    let order: Vec<&str> = other.evaluations.iter().map(|e| e.key.as_str()).collect();
    eprintln!("with a4/b3 the evaluation order is {order:?}");
    assert_ne!(order[0], "AGA", "{order:?}");
    // The result does not depend on the order: the same PV.
    assert_eq!(other.pv_san(), "1.Ng6+ Kg8 2.Nxe5");
}

#[test]
fn an_unknown_example_is_refused() {
    let Some(mut emu) = common::emulator("an_unknown_example_is_refused") else {
        return;
    };
    let err = models::run_example(&mut emu, 6).unwrap_err().to_string();
    assert!(err.contains("no example 6"), "{err}");
}
