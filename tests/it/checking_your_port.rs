//! docs/checking-your-port.md says what a port must do as the original does: its examples
//! are run here and its rules checked against the set-up code.

use crate::common;

use std::path::Path;
use std::process::Command;

use sargon_core::position::{board_of, parse_position};

const SARGON: &str = env!("CARGO_BIN_EXE_sargon");

fn page() -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/checking-your-port.md"),
    )
    .unwrap()
}

/// The page's `$ sargon trace 'FEN' --depth N --format jsonl | tail -n 1` examples, each
/// with the line it shows: (FEN, depth, line).
fn trace_examples(page: &str) -> Vec<(String, String, String)> {
    let lines: Vec<&str> = page.lines().collect();
    let mut out = Vec::new();
    for pair in lines.windows(2) {
        let Some(rest) = pair[0].strip_prefix("$ sargon trace '") else {
            continue;
        };
        let Some((fen, args)) = rest.split_once('\'') else {
            continue;
        };
        let depth = args
            .split_whitespace()
            .skip_while(|a| *a != "--depth")
            .nth(1)
            .unwrap()
            .to_string();
        out.push((fen.to_string(), depth, pair[1].to_string()));
    }
    out
}

fn last_line(engine: &str, fen: &str, depth: &str) -> String {
    let out = Command::new(SARGON)
        .args([
            "trace", fen, "--depth", depth, "--format", "jsonl", "--engine", engine,
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .unwrap()
        .to_string()
}

/// A mated root reports an illegal move and the score 1, a stalemated one an illegal move
/// and 128, as the page shows, from the port and, where a ROM is imported, the original.
#[test]
fn the_mated_and_stalemated_root_results_are_what_the_page_shows() {
    let examples = trace_examples(&page());
    assert_eq!(examples.len(), 2, "{examples:?}");
    assert!(examples[0].2.contains(r#""score":1}"#), "{examples:?}");
    assert!(examples[1].2.contains(r#""score":128}"#), "{examples:?}");
    let rom = common::rom("the_mated_and_stalemated_root_results").is_some();
    for (fen, depth, line) in &examples {
        assert_eq!(&last_line("port", fen, depth), line, "{fen}");
        if rom {
            assert_eq!(&last_line("emulator", fen, depth), line, "{fen}");
        }
    }
}

/// The page names every flag bit of a square and says which the set-up never sets; the
/// set-up of every position of varied-200 agrees.
#[test]
fn the_board_bits_the_page_says_are_never_set_are_never_set() {
    let page = page();
    for row in [
        "| 3 | 0x08, \"moved\" |",
        "| 4 | 0x10, \"castled\" (kings only) | **never set**",
        "| 5, 6 | 0x20, 0x40 | never set",
        "| 7 | 0x80, black |",
    ] {
        assert!(page.contains(row), "the page has no row `{row}`");
    }
    let epd = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/positions/varied-200.epd"),
    )
    .unwrap();
    let mut moved = 0;
    for line in epd.lines() {
        let pos = parse_position(line).unwrap();
        for (sq, byte) in board_of(&pos).iter().enumerate() {
            if *byte == 0xff {
                continue;
            }
            assert_eq!(byte & 0x70, 0, "square {sq} of `{line}`: {byte:#04x}");
            moved += usize::from(byte & 0x08 != 0);
        }
    }
    assert!(moved > 0);
}
