//! Unit tests of the extractor on synthetic sources; those that check the port's links
//! against the user's imported image are in [`rom`].

use std::collections::{BTreeMap, BTreeSet};

use sargon_original::program::Program;

use super::labels::{comment_citation, label_group};
use super::scanner::impl_type;
use super::*;

// The integration tests' ROM gate, the same file, so that these tests too print the lines
// `.ci/run` counts and fail for want of the ROM under `SARGON_REQUIRE_ROM=1`. Its items are
// `pub` for `tests/it/common`, which re-exports them; here they are only this module's.
#[allow(unreachable_pub, dead_code)]
#[path = "../../../../tests/it/common/rom_gate.rs"]
mod rom_gate;

mod rom;

fn links(text: &str) -> PortLinks {
    PortLinks::extract(&[("src/port/x.rs", text)])
}

fn cited(l: &PortLinks) -> Vec<(String, usize, String, Form)> {
    l.citations
        .iter()
        .map(|c| (c.written(), c.line, c.item.clone(), c.form))
        .collect()
}

fn c(label: &str, line: usize, item: &str, form: Form) -> (String, usize, String, Form) {
    (label.to_string(), line, item.to_string(), form)
}

const SAMPLE: &str = r##"//! Moves: MOVE and UNMOVE.
use super::state::POSK;

/// The labels of FNDMOV.
enum Fm {
    /// FM5: one ply deeper.
    Fm5,
    /// FM36 with this score in A.
    Fm36(u8),
}

const TABLE: [u8; 2] = [
    // DPOINT
    1, 2,
];

impl<'a> Machine<'a> {
    /// MOVE (`move_`): make the move at MLPTRJ.
    #[inline]
    pub fn move_(&mut self, x: [u8; 2]) -> char {
        let s = "// FM99 { not a comment";
        let q = '{';
        // MV1
        if x[0] == 0 { // MV21/MV22: the royal piece
            // WACT or BACT
            // PNCK left the direction in D
            // HL: not a label
            // AT14's end of the line
        }
        // PT6A..PT6D
        let r = r#"}"#;
        /* a { block */ q
    }

    /// The lines before PT20.
    fn helper(&self) {
        // PT20: the loss
        return; // PC5
    }
}

/// PATH: step M2; callers MPIECE, ATTACK (`INDEX` is code).
pub(crate) fn path() {}

#[cfg(test)]
mod tests {
    // FM35
}
"##;

#[test]
fn citations_follow_the_convention_only() {
    let l = links(SAMPLE);
    assert_eq!(
        cited(&l),
        vec![
            c("FM5", 6, "Fm::Fm5", Form::Doc),
            c("FM36", 8, "Fm::Fm36", Form::Doc),
            c("DPOINT", 13, "TABLE", Form::Comment),
            c("MOVE", 18, "Machine::move_", Form::Doc),
            c("MV1", 23, "Machine::move_", Form::Comment),
            c("MV21", 24, "Machine::move_", Form::Comment),
            c("MV22", 24, "Machine::move_", Form::Comment),
            c("PT6A..PT6D", 30, "Machine::move_", Form::Comment),
            c("PT20", 37, "Machine::helper", Form::Comment),
            c("PC5", 38, "Machine::helper", Form::Comment),
            c("PATH", 42, "path", Form::Doc),
        ]
    );
    assert!(l.constants.contains("TABLE"));
}

#[test]
fn doc_comments_mention_names_outside_backticks() {
    let l = links(SAMPLE);
    let names: BTreeSet<&str> = l.mentions.iter().map(|m| m.name.as_str()).collect();
    for n in [
        "MOVE", "UNMOVE", "FNDMOV", "FM5", "MLPTRJ", "PT20", "M2", "MPIECE", "ATTACK",
    ] {
        assert!(names.contains(n), "{n} not mentioned: {names:?}");
    }
    // Single letters, code in backticks, registers and prose words are not names.
    for n in ["A", "INDEX", "HL", "FM99", "WACT", "PNCK"] {
        assert!(!names.contains(n), "{n} taken for a name");
    }
}

#[test]
fn a_label_the_image_lacks_is_reported_where_it_is_cited() {
    let l = links(SAMPLE);
    let symbols: BTreeMap<String, u16> = [
        "FNDMOV", "FM5", "FM36", "DPOINT", "MOVE", "UNMOVE", "MLPTRJ", "MV1", "MV21", "MV22",
        "PT6A", "PT6D", "PT20", "PC5", "PATH", "M2", "MPIECE", "ATTACK", "FM35",
    ]
    .iter()
    .enumerate()
    .map(|(k, n)| (n.to_string(), k as u16))
    .collect();
    assert_eq!(l.unknown(&symbols), vec![]);
    // A citation of a label that does not exist, in a comment and in a doc comment.
    let bad = links(
        &SAMPLE
            .replace("// MV1\n", "// MV99\n")
            .replace("/// The lines before PT20.", "/// The lines before PT21."),
    );
    let unknown: Vec<(String, usize)> = bad
        .unknown(&symbols)
        .into_iter()
        .map(|u| (u.name, u.line))
        .collect();
    assert_eq!(
        unknown,
        vec![("MV99".to_string(), 23), ("PT21".to_string(), 35)]
    );
    // The port's own constants are no missing labels.
    let with_const = links("const INDEX: u8 = 0;\n/// INDEX[i]: a place.\nstatic X: u8 = 0;\n");
    assert_eq!(with_const.unknown(&symbols), vec![]);
}

#[test]
fn test_code_implements_nothing() {
    let l = PortLinks::extract(&[(
        "src/port/tests.rs",
        "/// GENMOV for a test.\nfn g() {\n    // GENMOV\n}\n",
    )]);
    assert!(l.citations.is_empty());
    let lines: Vec<usize> = l.mentions.iter().map(|m| m.line).collect();
    assert_eq!(lines, [1, 3], "checked all the same");
}

#[test]
fn label_groups() {
    let g = |t: &str| label_group(t).map(|(g, rest)| (g, rest.to_string()));
    assert_eq!(
        g("MV21/MV22: x"),
        Some((
            vec![("MV21".into(), None), ("MV22".into(), None)],
            ": x".into()
        ))
    );
    assert_eq!(
        g("PT5..PT25 over"),
        Some((vec![("PT5".into(), Some("PT25".into()))], " over".into()))
    );
    assert_eq!(g("A: the score"), None);
    assert_eq!(g("Mv1"), None);
    assert_eq!(g("O_O"), Some((vec![("O_O".into(), None)], String::new())));
    assert!(comment_citation("PVALUE (pawn .. king)").is_some());
    assert!(comment_citation("AT14A/AT14B on the first square").is_none());
    assert!(comment_citation("TODO: later").is_none());
}

#[test]
fn impl_types() {
    assert_eq!(impl_type("impl Machine {"), "Machine");
    assert_eq!(impl_type("impl<'a> Hook for Port<'a> {"), "Port");
    assert_eq!(impl_type("impl sargon_core::Engine for Port {"), "Port");
    assert_eq!(impl_type("impl Default for TimingCache {"), "TimingCache");
}

#[test]
fn ranges_spread_over_the_image_by_address() {
    let symbols: BTreeMap<String, u16> = [
        ("R", 0x100),
        ("PT5", 0x101),
        ("PT6", 0x102),
        ("PT25", 0x103),
        ("X", 0x104),
    ]
    .iter()
    .map(|(n, a)| (n.to_string(), *a))
    .collect();
    let mut memory = vec![0u8; 0x10000];
    memory[0x104] = 0xC9; // RET
    let program = Program::new(memory, 0x100, 0x105, &symbols);
    let l = links("fn points() {\n    // PT5..PT25\n}\n");
    let sites = l.sites(&program);
    let names: Vec<&str> = sites.keys().map(String::as_str).collect();
    assert_eq!(names, ["PT25", "PT5", "PT6"]);
    assert_eq!(sites["PT6"][0].item, "points");
}

#[test]
fn the_port_is_embedded_and_cites_its_routines() {
    assert!(PORT_SOURCES
        .iter()
        .any(|(p, _)| *p == "crates/sargon-port/src/lib.rs"));
    assert!(PORT_SOURCES
        .iter()
        .all(|(p, _)| p.starts_with("crates/sargon-port/src/")));
    let l = PortLinks::of_port();
    for routine in ["FNDMOV", "PATH", "POINTS", "ATTACK"] {
        assert!(
            l.citations.iter().any(|c| c.label == routine),
            "{routine} not cited"
        );
    }
}
