//! How the store quotes and checks what it is given: paths and text cut and escaped, hashes, text or binary.

use std::path::Path;

use sha2::{Digest, Sha256};

use sargon_core::input::echo;

/// A path as the store's errors quote it: escaped and cut as any other user text (a
/// `--roms` of 100 KB or with terminal escapes is not echoed as it is).
pub(super) fn shown(path: &Path) -> String {
    echo(&path.display().to_string())
}

/// How much of an input line an error message shows.
pub(crate) const ECHO_CHARS: usize = 100;

/// Hex SHA-256 of some bytes.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Text fit for an error message: control and non-ASCII characters escaped (`\x1b`,
/// `\u{fffd}`), cut after `max` characters. Input files are echoed only through this, so
/// that a wrong file cannot fill the terminal with raw bytes.
pub(crate) fn printable(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (shown, c) in text.chars().enumerate() {
        if shown == max {
            out.push_str("...");
            break;
        }
        match c {
            ' '..='~' => out.push(c),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x100 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    out
}

/// Does `bytes` look like a text file? A Z80 source or listing is text: no NUL byte, and
/// control characters other than tab, line ends, form feed and CP/M's end-of-file mark
/// are rare (allowed: one in a hundred bytes, for the odd stray one).
pub(crate) fn looks_like_text(bytes: &[u8]) -> bool {
    let sample = &bytes[..bytes.len().min(64 * 1024)];
    if sample.contains(&0) {
        return false;
    }
    let control = sample
        .iter()
        .filter(|&&b| (b < 0x20 && !b"\t\n\r\x0c\x1a".contains(&b)) || b == 0x7f)
        .count();
    control * 100 <= sample.len()
}
