//! A person's text file (PGN, EPD, a list of positions, a JSON results file) as text.
//!
//! Every command that reads such a file reads it here, so that each gets the same rules:
//!
//! * a byte-order mark at the start (UTF-8's `EF BB BF`, which Windows editors write) is
//!   dropped, never taken for the file's first character;
//! * a file in UTF-16 (its byte-order mark says so) is refused as such, and a NUL byte is
//!   refused with its line: neither is a text file of this program;
//! * bytes that are not UTF-8 are read as ISO 8859-1 (Latin-1), every byte one character,
//!   where the format allows it ([`NotUtf8::Latin1`]: PGN's standard names ISO 8859-1 as its
//!   character set, and EPD is defined by the same standard), and refused with the line of
//!   the first such byte where it does not ([`NotUtf8::Refuse`]: JSON is UTF-8).

use std::path::Path;

/// The UTF-8 byte-order mark.
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// What a file that is not UTF-8 is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NotUtf8 {
    /// Read as ISO 8859-1 (PGN and EPD).
    Latin1,
    /// Refused (JSON).
    Refuse,
}

/// A text file's contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text {
    /// The text, without a byte-order mark.
    pub text: String,
    /// When the file was not UTF-8 and was read as ISO 8859-1: the line of its first byte
    /// that is not UTF-8 (from 1), for the note a command shows.
    pub latin1_from_line: Option<usize>,
}

/// Why a file cannot be read as text. None has a `source()`: each says its cause once.
///
/// (`From<std::io::Error>` is written out below rather than derived with `#[from]`, which
/// would give `Io` a source.)
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TextFileError {
    /// The file could not be read at all. Its Display is the I/O error's and it has no
    /// `source()` (thiserror's `#[from]` would add one, and every chain printed with `{:#}`
    /// would say "No such file or directory" twice).
    #[error("{0}")]
    Io(std::io::Error),
    /// More than [`MAX_BYTES`] (a file that never ends: `/dev/zero`, a pipe).
    #[error("more than {} MiB: no text file this program reads is that large", limit >> 20)]
    TooLarge {
        /// The most a text file may hold, in bytes.
        limit: u64,
    },
    /// A UTF-16 (or UTF-32) byte-order mark.
    #[error("a UTF-16 file (its byte-order mark says so): save it as UTF-8")]
    Utf16,
    /// A NUL byte, which no text file of this program holds.
    #[error("line {line} holds a NUL byte: this is not a text file")]
    Nul {
        /// Its line, from 1.
        line: usize,
    },
    /// Bytes that are not UTF-8 in a format that must be.
    #[error("line {line} is not UTF-8 ({what} files are UTF-8)")]
    NotUtf8 {
        /// The line of the first byte that is not, from 1.
        line: usize,
        /// The format, for the message.
        what: &'static str,
    },
}

impl From<std::io::Error> for TextFileError {
    fn from(e: std::io::Error) -> Self {
        TextFileError::Io(e)
    }
}

/// The most a text file may hold: far above any file of positions, games or results a
/// person gives (the golden corpus is kilobytes), and a bound on what a file that never
/// ends (`/dev/zero`, a pipe) can take of the memory.
pub const MAX_BYTES: u64 = 1 << 30;

/// Read the file at `path` as text by the rules of the module; `what` names the format
/// in a refusal ("JSON").
///
/// ```
/// use sargon_core::text_file::{read, NotUtf8};
///
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("games.pgn");
/// std::fs::write(&path, b"[White \"J\xF6rg\"]\n")?;
/// let text = read(&path, NotUtf8::Latin1, "PGN")?;
/// assert_eq!((text.text.as_str(), text.latin1_from_line), ("[White \"Jörg\"]\n", Some(1)));
/// assert!(read(&path, NotUtf8::Refuse, "JSON").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read(path: &Path, not_utf8: NotUtf8, what: &'static str) -> Result<Text, TextFileError> {
    decode(&read_bytes(path)?, not_utf8, what)
}

/// The bytes of the text file at `path`, at most [`MAX_BYTES`] (for a reader that decodes
/// them itself: an assembly source or listing).
///
/// ```
/// use sargon_core::text_file::read_bytes;
///
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("sargon.asm");
/// std::fs::write(&path, "\u{FEFF}        ORG 0\n")?;
/// assert_eq!(read_bytes(&path)?, b"\xEF\xBB\xBF        ORG 0\n"); // the bytes as they are
/// assert!(read_bytes(&dir.path().join("missing.asm")).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, TextFileError> {
    read_at_most(std::fs::File::open(path)?, MAX_BYTES)
}

/// All of `reader`, or [`TextFileError::TooLarge`] once it has given more than `limit`
/// bytes.
fn read_at_most(reader: impl std::io::Read, limit: u64) -> Result<Vec<u8>, TextFileError> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    reader.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(TextFileError::TooLarge { limit });
    }
    Ok(bytes)
}

/// `bytes` without the UTF-8 byte-order mark it may start with (for a reader of text that
/// is not one of the formats [`decode`] takes: an assembly listing).
///
/// ```
/// use sargon_core::text_file::without_bom;
/// assert_eq!(without_bom(b"\xEF\xBB\xBFORG 0"), b"ORG 0");
/// assert_eq!(without_bom(b"ORG 0"), b"ORG 0");
/// ```
pub fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes)
}

/// A file's bytes as text, by the rules of the module.
///
/// ```
/// use sargon_core::text_file::{decode, NotUtf8};
///
/// let pgn = decode(b"\xEF\xBB\xBF1. e4 e5", NotUtf8::Latin1, "PGN")?;
/// assert_eq!((pgn.text.as_str(), pgn.latin1_from_line), ("1. e4 e5", None));
/// let e = decode(b"{}\n\xE9", NotUtf8::Refuse, "JSON").unwrap_err();
/// assert_eq!(e.to_string(), "line 2 is not UTF-8 (JSON files are UTF-8)");
/// assert!(decode(b"\xFF\xFEx", NotUtf8::Latin1, "PGN").is_err()); // UTF-16
/// # Ok::<(), sargon_core::text_file::TextFileError>(())
/// ```
pub fn decode(bytes: &[u8], not_utf8: NotUtf8, what: &'static str) -> Result<Text, TextFileError> {
    if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        return Err(TextFileError::Utf16);
    }
    let bytes = without_bom(bytes);
    let line_at = |offset: usize| bytes[..offset].iter().filter(|&&b| b == b'\n').count() + 1;
    if let Some(nul) = bytes.iter().position(|&b| b == 0) {
        return Err(TextFileError::Nul { line: line_at(nul) });
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(Text {
            text: text.to_string(),
            latin1_from_line: None,
        }),
        Err(e) => {
            let line = line_at(e.valid_up_to());
            match not_utf8 {
                NotUtf8::Refuse => Err(TextFileError::NotUtf8 { line, what }),
                // ISO 8859-1 is the first 256 code points of Unicode, byte for byte.
                NotUtf8::Latin1 => Ok(Text {
                    text: bytes.iter().map(|&b| char::from(b)).collect(),
                    latin1_from_line: Some(line),
                }),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_past_the_limit_is_refused_without_reading_on() {
        let endless = std::io::repeat(b'a');
        match read_at_most(endless, 1000) {
            Err(TextFileError::TooLarge { limit: 1000 }) => {}
            other => panic!("{other:?}"),
        }
        assert_eq!(read_at_most(&b"abc"[..], 3).unwrap(), b"abc");
    }

    fn text(bytes: &[u8], not_utf8: NotUtf8) -> Result<Text, String> {
        decode(bytes, not_utf8, "JSON").map_err(|e| e.to_string())
    }

    #[test]
    fn a_byte_order_mark_is_dropped() {
        for not_utf8 in [NotUtf8::Latin1, NotUtf8::Refuse] {
            let read = text(b"\xEF\xBB\xBFstartpos\n", not_utf8).unwrap();
            assert_eq!(read.text, "startpos\n");
            assert_eq!(read.latin1_from_line, None);
        }
        // Only at the start: elsewhere it is a character of the text.
        let read = text("a\u{feff}".as_bytes(), NotUtf8::Refuse).unwrap();
        assert_eq!(read.text, "a\u{feff}");
    }

    #[test]
    fn latin1_is_read_where_the_format_allows_it_and_refused_with_its_line_elsewhere() {
        let bytes = b"[Event \"x\"]\n[White \"D\xFCrer\"]\n";
        let read = text(bytes, NotUtf8::Latin1).unwrap();
        assert_eq!(read.text, "[Event \"x\"]\n[White \"D\u{fc}rer\"]\n");
        assert_eq!(read.latin1_from_line, Some(2));
        assert_eq!(
            text(bytes, NotUtf8::Refuse).unwrap_err(),
            "line 2 is not UTF-8 (JSON files are UTF-8)"
        );
        // UTF-8 is UTF-8, whatever its characters.
        let read = text("D\u{fc}rer ♞".as_bytes(), NotUtf8::Latin1).unwrap();
        assert_eq!(read.text, "D\u{fc}rer ♞");
        assert_eq!(read.latin1_from_line, None);
    }

    #[test]
    fn utf16_and_nul_bytes_are_no_text() {
        let utf16: Vec<u8> = "\u{feff}startpos"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert_eq!(
            text(&utf16, NotUtf8::Latin1).unwrap_err(),
            "a UTF-16 file (its byte-order mark says so): save it as UTF-8"
        );
        assert_eq!(
            text(b"startpos\n\nab\0c", NotUtf8::Latin1).unwrap_err(),
            "line 3 holds a NUL byte: this is not a text file"
        );
    }
}
