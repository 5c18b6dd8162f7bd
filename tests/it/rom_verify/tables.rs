//! The known behaviour (`roms/behaviour.tsv`) and code fingerprints (`roms/routines.tsv`):
//! `UPDATE_GOLDENFILES=1 cargo test --test it rom_verify::` records both from the known image
//! (the only way they are written); without it they are checked, against the golden files,
//! the port and the emulator.

use crate::common;

use std::path::Path;

use sargon_engines::engines::OpenError;
use sargon_original::emu::Emulator;
use sargon_original::rom::{fingerprint, Rom};
use sargon_referee::behaviour::{self, Case, Replay};
use sargon_views::models::MODELS;

pub(super) const GOLDEN_DIR: &str = "tests/golden";

pub(super) fn updating() -> bool {
    std::env::var_os("UPDATE_GOLDENFILES").is_some_and(|v| v == "1")
}

/// A line of `tests/golden/corpus.txt`: label, depths, (book, random byte), position.
type CorpusLine = (String, Vec<u8>, (bool, u8), String);

/// The corpus of `tests/golden/corpus.txt`.
pub(super) fn corpus() -> Vec<CorpusLine> {
    let text = std::fs::read_to_string(Path::new(GOLDEN_DIR).join("corpus.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            (
                f[0].to_string(),
                f[1].split(',').map(|d| d.trim().parse().unwrap()).collect(),
                sargon_referee::behaviour::parse_book_field(f[2]).expect("book, book1 or nobook"),
                f[3].to_string(),
            )
        })
        .collect()
}

/// Every case the table must hold, in table order, with its known digest still to fill:
/// the corpus's searches, the models, the games.
pub(super) fn wanted() -> Vec<(String, u8, Replay)> {
    let mut out = Vec::new();
    for (label, depths, (book, book_random), position) in corpus() {
        for d in depths {
            out.push((
                label.clone(),
                d,
                Replay::Search {
                    position: position.clone(),
                    book,
                    book_random,
                },
            ));
        }
    }
    for m in MODELS.iter() {
        out.push((
            format!("model-{}", m.number),
            sargon_views::models::DEPTH,
            Replay::Model(m.number),
        ));
    }
    // The games last: the check stops at the first case that differs, and most changes
    // show in the corpus's cheap searches (docs/port.md: both orders timed).
    for g in behaviour::GAMES {
        out.push((
            g.label.to_string(),
            g.level,
            Replay::Game {
                position: g.position.to_string(),
                next_game: g.next_game,
            },
        ));
    }
    out
}

/// The imported ROM, if it is the known image (the tables are made from it alone).
pub(super) fn known_rom(test: &str) -> Option<Rom> {
    let rom = common::rom(test)?;
    if rom.known_as().is_none() {
        eprintln!(
            "skipped: the imported ROM is not a known image ({test}: roms/known.tsv lacks {})",
            rom.meta.image_sha256
        );
        return None;
    }
    Some(rom)
}

#[test]
fn the_behaviour_table_covers_the_corpus_the_models_and_the_games() {
    let cases = behaviour::known_cases();
    let have: Vec<(String, u8, Replay)> = cases
        .iter()
        .map(|c| (c.label.clone(), c.depth, c.replay.clone()))
        .collect();
    assert_eq!(
        have,
        wanted(),
        "roms/behaviour.tsv is out of date: record it anew"
    );
    let quick = cases.iter().filter(|c| c.quick()).count();
    eprintln!("{} cases, {quick} in the quick check", cases.len());
}

/// Each search line is the golden file's digest: the SHA-256 of a `.trace` file's text,
/// or a `.digest` file's own. A hand-edited line cannot pass.
#[test]
fn the_behaviour_table_agrees_with_the_golden_files() {
    use sha2::{Digest as _, Sha256};
    let mut compared = 0;
    for case in behaviour::known_cases() {
        // The models and the games have no golden file.
        if !matches!(case.replay, Replay::Search { .. }) {
            continue;
        }
        let base = Path::new(GOLDEN_DIR).join(format!("{}.d{}", case.label, case.depth));
        let trace = base.with_extension(format!("d{}.trace", case.depth));
        let digest = base.with_extension(format!("d{}.digest", case.depth));
        if let Ok(text) = std::fs::read_to_string(&trace) {
            assert_eq!(
                hex::encode(Sha256::digest(text.as_bytes())),
                case.sha256,
                "{}",
                trace.display()
            );
            assert_eq!(
                text.lines().count() as u64,
                case.events,
                "{}",
                trace.display()
            );
            assert_eq!(text.lines().last(), Some(case.result.as_str()));
        } else {
            let text = std::fs::read_to_string(&digest)
                .unwrap_or_else(|e| panic!("{}: {e}", digest.display()));
            let sha = text
                .lines()
                .find_map(|l| l.strip_prefix("sha256 "))
                .expect("a digest's sha256 line");
            assert_eq!(sha, case.sha256, "{}", digest.display());
            let events: u64 = text
                .lines()
                .filter_map(|l| l.strip_prefix("count "))
                .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
                .sum();
            assert_eq!(events, case.events, "{}", digest.display());
            assert!(
                text.lines().any(|l| l == case.result),
                "{}",
                digest.display()
            );
        }
        compared += 1;
    }
    assert!(compared > 100, "only {compared} searches compared");
}

/// The port agrees with the original, so it has the known behaviour in every case (and
/// is the reference `rom verify` shows events from).
#[test]
fn the_port_has_the_known_behaviour() {
    let cases = behaviour::known_cases();
    let make = || -> Result<Box<dyn sargon_core::Engine + Send>, OpenError> {
        Ok(Box::new(sargon_port::Port::new()))
    };
    let report = behaviour::check(&cases, &make, 2, &|_| {}).unwrap();
    assert!(
        report.alike(),
        "the port differs: {:?}\n{}",
        report.differing,
        report.first.map(|m| m.describe()).unwrap_or_default()
    );
    assert_eq!(report.searches, cases.len());
}

/// Record (with UPDATE_GOLDENFILES=1) or check the fingerprints of the known image.
#[test]
fn the_fingerprints_are_the_known_images() {
    let Some(rom) = known_rom("the_fingerprints_are_the_known_images") else {
        return;
    };
    let regions = fingerprint::regions(&rom);
    let table = fingerprint::table(&regions);
    if updating() {
        std::fs::write("roms/routines.tsv", &table).unwrap();
        eprintln!("roms/routines.tsv: {} regions recorded", regions.len());
        return;
    }
    assert_eq!(
        table,
        fingerprint::KNOWN,
        "roms/routines.tsv is not the known image's: record it anew"
    );
    assert!(fingerprint::differing(&regions).is_empty());
    // The regions a test below expects by name.
    for name in ["POINTS", "PVALUE", "FNDMOV"] {
        assert!(regions.iter().any(|r| r.name == name), "{name}");
    }
}

/// Record (with UPDATE_GOLDENFILES=1: the whole corpus, minutes) or check (the quick
/// cases) the known behaviour on the known image in the emulator.
#[test]
fn the_known_image_has_the_known_behaviour() {
    let Some(rom) = known_rom("the_known_image_has_the_known_behaviour") else {
        return;
    };
    if !updating() {
        let v =
            sargon_referee::verify::verify(&rom, sargon_referee::verify::Scope::Quick, 2, &|_| {})
                .unwrap();
        assert!(v.alike(), "{}", v.report());
        eprintln!("quick check of the known image: {:.1} s", v.seconds);
        return;
    }
    let wanted = wanted();
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(vec![None; wanted.len()]);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let mut emu = Emulator::new(rom.clone()).unwrap();
            let (wanted, next, results) = (&wanted, &next, &results);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((label, depth, replay)) = wanted.get(i) else {
                    break;
                };
                let t = std::time::Instant::now();
                let case = behaviour::record_case(&mut emu, label, *depth, replay.clone())
                    .unwrap_or_else(|e| panic!("{label} d{depth}: {e:#}"));
                eprintln!("{label} d{depth}: {:.1} s", t.elapsed().as_secs_f64());
                results.lock().unwrap()[i] = Some(case);
            });
        }
    });
    let cases: Vec<Case> = results
        .into_inner()
        .unwrap()
        .into_iter()
        .flatten()
        .collect();
    assert_eq!(cases.len(), wanted.len());
    std::fs::write("roms/behaviour.tsv", behaviour::table(&cases)).unwrap();
    eprintln!("roms/behaviour.tsv: {} cases recorded", cases.len());
}
