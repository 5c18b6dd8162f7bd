//! The golden corpus's format, shared by the emulator's half of the golden test (the
//! root's `tests/it/golden.rs`, which records the files) and the port's half
//! (`crates/sargon-port/tests/golden.rs`, which checks the port against them): the
//! positions of `tests/golden/corpus.txt`, and the file each search becomes (its full event
//! stream where small, a digest for deeper searches).
#![allow(dead_code)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use sargon_core::digest::DigestBuilder;
use sargon_core::engine::{Engine, SearchOptions};
use sargon_core::position::Book;
use sargon_core::position::{parse_position, setup};
use sargon_core::record;
use sargon_core::trace::{Detail, Event};

/// `tests/golden` of the workspace, found from the crate whose test includes this file.
pub fn golden_dir() -> PathBuf {
    let mut dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    loop {
        let golden = dir.join("tests").join("golden");
        if golden.join("corpus.txt").exists() {
            return golden;
        }
        dir = dir
            .parent()
            .expect("tests/golden/corpus.txt above the crate");
    }
}

/// Depths up to this are kept as full event streams (when small enough).
pub const FULL_MAX_DEPTH: u8 = 3;
/// A full stream larger than this is kept as a digest instead.
pub const FULL_MAX_BYTES: usize = 400_000;

pub struct Case {
    pub label: String,
    pub depths: Vec<u8>,
    pub book: bool,
    /// The byte the book reads for its random choice (`book1` in the corpus: 1).
    pub book_random: u8,
    pub fen: String,
}

pub fn corpus() -> Vec<Case> {
    let text = std::fs::read_to_string(golden_dir().join("corpus.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            assert_eq!(f.len(), 4, "corpus line: {l}");
            // `nobook`, `book` (the random byte 0: 1.e4) or `bookN` (the random byte N).
            let (book, book_random) = match f[2] {
                "nobook" => (false, 0),
                "book" => (true, 0),
                other => (
                    true,
                    other
                        .strip_prefix("book")
                        .and_then(|r| r.parse().ok())
                        .unwrap_or_else(|| panic!("book, bookN or nobook, not {other}")),
                ),
            };
            Case {
                label: f[0].to_string(),
                depths: f[1].split(',').map(|d| d.trim().parse().unwrap()).collect(),
                book,
                book_random,
                fen: f[3].to_string(),
            }
        })
        .collect()
}

/// The golden file (name, content) an engine's search of `case` at `depth` produces.
pub fn golden(engine: &mut dyn Engine, case: &Case, depth: u8) -> (String, String) {
    let pos = parse_position(&case.fen).unwrap();
    let s = setup(&pos, Book::from(case.book)).unwrap();
    let mut text = String::new();
    let mut digest = DigestBuilder::new();
    let keep_text = depth <= FULL_MAX_DEPTH;
    // The trace's last event is the result, which the digest file names too.
    let mut last = None;
    record::search_streaming(
        engine,
        &s,
        &SearchOptions {
            book_random: case.book_random,
            ..SearchOptions::depth(depth)
        },
        Detail::Full,
        &mut [],
        |e| {
            digest.add(&e);
            if (keep_text && text.len() <= FULL_MAX_BYTES) || matches!(e, Event::Result { .. }) {
                let _ = writeln!(text, "{e}");
            }
            last = Some(e);
        },
    )
    .unwrap();
    let result = last.expect("a trace ends with its result");
    let base = format!("{}.d{depth}", case.label);
    if keep_text && text.len() <= FULL_MAX_BYTES {
        (format!("{base}.trace"), text)
    } else {
        let mut d = String::new();
        let _ = writeln!(d, "position {}", case.fen);
        let _ = writeln!(d, "depth {depth}");
        let _ = writeln!(d, "{result}");
        let _ = writeln!(d, "{}", digest.finish());
        (format!("{base}.digest"), d)
    }
}

/// The first line where two golden texts differ, for a readable failure.
pub fn first_difference(expected: &str, actual: &str) -> Option<(usize, String, String)> {
    let (mut e, mut a) = (expected.lines(), actual.lines());
    let mut i = 0;
    loop {
        i += 1;
        match (e.next(), a.next()) {
            (None, None) => return None,
            (x, y) if x == y => continue,
            (x, y) => {
                return Some((
                    i,
                    x.unwrap_or("<end>").to_string(),
                    y.unwrap_or("<end>").to_string(),
                ))
            }
        }
    }
}
