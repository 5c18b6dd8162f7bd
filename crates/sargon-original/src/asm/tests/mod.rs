//! The assembler's unit tests. Encodings are checked against the opcodes of the Zilog Z80
//! manual, written out by hand.
//!
//! - `encoding`: the bytes of each instruction;
//! - `directives`: directives, layout, macros, names and numbers;
//! - `errors`: the cause of each assembly error, typed;
//! - `messages`: the exact texts of the errors;
//! - `listing_reader`: reading an assembler's listing;
//! - `robustness`: garbage and speed.

use super::*;

mod directives;
mod encoding;
mod errors;
mod listing_reader;
mod messages;
mod robustness;

/// Assemble one instruction at address 0 and return its bytes.
fn enc(instr: &str) -> Vec<u8> {
    let a = assemble(&format!("        {instr}\n")).unwrap_or_else(|e| panic!("{instr}: {e}"));
    a.lines.into_iter().flat_map(|l| l.2).collect()
}

fn check(cases: &[(&str, &[u8])]) {
    for (instr, expected) in cases {
        assert_eq!(enc(instr), expected.to_vec(), "{instr}");
    }
}

fn err(source: &str) -> AsmError {
    match assemble(source) {
        Ok(_) => panic!("{source:?} assembled"),
        Err(e) => e,
    }
}

/// The cause of the error `source` gives.
fn kind(source: &str) -> AsmErrorKind {
    err(source).kind
}

/// Operand texts as the typed errors hold them.
fn texts(ops: &[&str]) -> Vec<String> {
    ops.iter().map(|o| o.to_string()).collect()
}
