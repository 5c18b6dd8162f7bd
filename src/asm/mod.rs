//! A Z80 assembler for the dialect of Sargon's published Z80 transcription (placeholder:
//! the real assembler is being written; this fixes its interface).

use std::collections::BTreeMap;

/// The result of assembling a source or reading a listing.
#[derive(Clone, Debug)]
pub struct Assembly {
    /// The full 64 KiB address space; bytes nothing emitted are 0.
    pub memory: Vec<u8>,
    /// Lowest and highest address (inclusive) any byte was emitted at; `None` if none.
    pub extent: Option<(u16, u16)>,
    /// Every label and EQU, names upper-cased.
    pub symbols: BTreeMap<String, u16>,
    /// Per source line that emitted bytes: (1-based line number, address, bytes).
    pub lines: Vec<(usize, u16, Vec<u8>)>,
}

/// An assembly error, with the 1-based source line.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct AsmError {
    pub line: usize,
    pub message: String,
}

/// Assemble Z80 source text.
pub fn assemble(_source: &str) -> Result<Assembly, AsmError> {
    Err(AsmError { line: 0, message: "assembler not yet implemented".into() })
}

pub mod listing {
    //! Reading a zmac listing (`.lst`): address and bytes of every line, and its symbol table.
    use super::{Assembly, AsmError};

    /// Does this text look like a zmac listing rather than source?
    pub fn looks_like_listing(_text: &str) -> bool {
        false
    }

    pub fn parse_listing(_text: &str) -> Result<Assembly, AsmError> {
        Err(AsmError { line: 0, message: "listing reader not yet implemented".into() })
    }
}
