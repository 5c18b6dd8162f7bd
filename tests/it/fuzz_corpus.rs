//! Replays every committed fuzz corpus file (`fuzz/corpus/<target>/`) through the same
//! library function its cargo-fuzz target calls (`sargon_referee::fuzzing`), on the stable
//! toolchain: what the fuzzer once found, or was seeded with, stays fixed.
//!
//! Each target's directory must hold files: an empty or missing corpus would make the
//! replay pass without replaying anything.

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

/// Replay every file of `fuzz/corpus/<target>` through `run`; returns how many ran.
fn replay(target: &str, run: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut files: Vec<_> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read the corpus {}: {e}", dir.display()))
        .map(|e| e.expect("corpus entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "the corpus {} is empty", dir.display());
    for file in &files {
        let data = fs::read(file).expect("readable corpus file");
        let start = Instant::now();
        run(&data);
        // Generous: a run takes milliseconds; this only catches a hang come back.
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{} took {:?}",
            file.display(),
            start.elapsed()
        );
    }
    files.len()
}

#[test]
fn fen_corpus() {
    assert!(replay("fen", sargon_referee::fuzzing::fen) >= 5);
}

#[test]
fn uci_corpus() {
    assert!(replay("uci", sargon_referee::fuzzing::uci) >= 5);
}

#[test]
fn assembler_corpus() {
    assert!(replay("assembler", sargon_referee::fuzzing::assembler) >= 3);
}

#[test]
fn rom_import_corpus() {
    assert!(replay("rom_import", sargon_referee::fuzzing::rom_import) >= 3);
}

#[test]
fn epd_file_corpus() {
    assert!(replay("epd_file", sargon_referee::fuzzing::epd_file) >= 3);
}

#[test]
fn pgn_corpus() {
    assert!(replay("pgn", sargon_referee::fuzzing::pgn) >= 3);
}
