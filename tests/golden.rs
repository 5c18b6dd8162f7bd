//! The golden corpus: the original Sargon's behaviour on the positions of
//! `tests/golden/corpus.txt`, recorded as event traces (in full where small, as digests for
//! deeper searches).
//!
//! * With a ROM imported, `emulator_matches_the_golden_files` re-runs the original and
//!   checks the files still match; `UPDATE_GOLDENFILES=1 cargo test --test golden` records
//!   them anew (the only way they are ever written).
//! * Everywhere, CI included, `port_matches_the_golden_files` checks the native port against
//!   the recorded files, so the port is checked against the original without the original.

mod common;

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use sargon::base::engine::{Engine, SearchOptions};
use sargon::base::position::{parse_position, setup};
use sargon::base::trace::{Detail, DigestBuilder, Event};
use sargon::tools::record;

const GOLDEN_DIR: &str = "tests/golden";
/// Depths up to this are kept as full event streams (when small enough).
const FULL_MAX_DEPTH: u8 = 3;
/// A full stream larger than this is kept as a digest instead.
const FULL_MAX_BYTES: usize = 400_000;

struct Case {
    label: String,
    depths: Vec<u8>,
    book: bool,
    fen: String,
}

fn corpus() -> Vec<Case> {
    let text = std::fs::read_to_string(Path::new(GOLDEN_DIR).join("corpus.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            assert_eq!(f.len(), 4, "corpus line: {l}");
            Case {
                label: f[0].to_string(),
                depths: f[1].split(',').map(|d| d.trim().parse().unwrap()).collect(),
                book: match f[2] {
                    "book" => true,
                    "nobook" => false,
                    other => panic!("book or nobook, not {other}"),
                },
                fen: f[3].to_string(),
            }
        })
        .collect()
}

/// The golden file (name, content) an engine's search of `case` at `depth` produces.
fn golden(engine: &mut dyn Engine, case: &Case, depth: u8) -> (String, String) {
    let pos = parse_position(&case.fen).unwrap();
    let s = setup(&pos, case.book).unwrap();
    let mut text = String::new();
    let mut digest = DigestBuilder::new();
    let keep_text = depth <= FULL_MAX_DEPTH;
    // The trace's last event is the result, which the digest file names too.
    let mut last = None;
    record::search_streaming(
        engine,
        &s,
        &SearchOptions::depth(depth),
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

#[test]
fn emulator_matches_the_golden_files() {
    let Some(emu) = common::emulator("emulator_matches_the_golden_files") else {
        return;
    };
    // The searches are independent: spread them over the cores (one emulator each), then
    // compare (or record) the files in corpus order.
    let cases = corpus();
    let jobs: Vec<(&Case, u8)> = cases
        .iter()
        .flat_map(|c| c.depths.iter().map(move |&d| (c, d)))
        .collect();
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(vec![None; jobs.len()]);
    let mut first = Some(emu);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let mut emu = first.take().unwrap_or_else(|| {
                common::emulator("emulator_matches_the_golden_files").expect("ROM")
            });
            let (jobs, next, results) = (&jobs, &next, &results);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&(case, depth)) = jobs.get(i) else {
                    break;
                };
                let t = std::time::Instant::now();
                let (name, content) = golden(&mut emu, case, depth);
                eprintln!(
                    "{name}: {:.2} s, {} bytes",
                    t.elapsed().as_secs_f64(),
                    content.len()
                );
                results.lock().unwrap()[i] = Some((name, content));
            });
        }
    });
    let mut mint = goldenfile::Mint::new(GOLDEN_DIR);
    let mut files = 0;
    for (name, content) in results.into_inner().unwrap().into_iter().flatten() {
        let mut f = mint.new_goldenfile(&name).unwrap();
        f.write_all(content.as_bytes()).unwrap();
        files += 1;
    }
    assert_eq!(files, jobs.len());
    eprintln!("emulator: {files} searches compared with {GOLDEN_DIR} ({workers} threads)");
}

/// The first line where two golden texts differ, for a readable failure.
fn first_difference(expected: &str, actual: &str) -> Option<(usize, String, String)> {
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

#[test]
fn port_matches_the_golden_files() {
    let mut port = sargon::port::Port::new();
    let (mut searches, mut failures) = (0, Vec::new());
    for case in corpus() {
        for &depth in &case.depths {
            let (name, content) = golden(&mut port, &case, depth);
            let path = Path::new(GOLDEN_DIR).join(&name);
            let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
                panic!(
                    "{}: {e} (record the corpus with a ROM imported)",
                    path.display()
                )
            });
            searches += 1;
            if let Some((line, want, got)) = first_difference(&expected, &content) {
                failures.push(format!(
                    "{name} line {line}:\n  original: {want}\n  port:     {got}"
                ));
            }
        }
    }
    eprintln!(
        "port: {searches} searches compared with {GOLDEN_DIR}, {} differ",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "the port diverges from the original:\n{}",
        failures.join("\n")
    );
}
