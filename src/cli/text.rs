//! The text files a person gives a command, read by one set of rules
//! ([`sargon_core::text_file`]): a byte-order mark dropped, a PGN or EPD file that is not
//! UTF-8 read as ISO 8859-1 with a note saying so, a JSON file that is not UTF-8 refused with
//! the line.

use std::path::Path;

use sargon_core::text_file::{self, NotUtf8, TextFileError};

/// A PGN or EPD file, or a list of positions (FEN, EPD, `startpos moves ...` lines).
pub(crate) fn read_chess(path: &Path) -> Result<String, TextFileError> {
    let read = text_file::read(path, NotUtf8::Latin1, "PGN and EPD")?;
    if let Some(line) = read.latin1_from_line {
        eprintln!(
            "note: {} is not UTF-8 (line {line} is the first that is not): read as ISO 8859-1 \
             (Latin-1), the PGN standard's character set",
            super::shown(path)
        );
    }
    Ok(read.text)
}

/// A JSON or JSON Lines file (a saved report, a results file).
pub(crate) fn read_json(path: &Path) -> Result<String, TextFileError> {
    Ok(text_file::read(path, NotUtf8::Refuse, "JSON")?.text)
}
