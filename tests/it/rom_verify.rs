//! Trusting the user's image (issue 11): the known behaviour (`roms/behaviour.tsv`) and
//! code fingerprints (`roms/routines.tsv`), and `sargon rom import` / `rom verify` on
//! copies of the user's transcription changed at run time.
//!
//! * `UPDATE_GOLDENFILES=1 cargo test --test it rom_verify::` records both files from the
//!   known image (the only way they are written); without it the files are checked.
//! * Everywhere: the behaviour table agrees with the golden files and with the port.
//! * With a ROM imported (the known image, with its `source.asm`): copies of its source
//!   with one opcode changed, one table entry changed, or cut in half are refused with the
//!   right routine named; `--accept-different` stores the first marked unverified, and
//!   results made with it say so. No Sargon text is in this file or written outside a
//!   temporary directory.

use crate::common;

use common::source_edit::{
    instruction_tokens, label_of, line_of_label, with_changed_opcode, with_changed_table,
};

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use sargon_original::emu::Emulator;
use sargon_original::rom::{fingerprint, Rom, RomStore};
use sargon_tools::behaviour::{self, Case, Replay};
use sargon_tools::models::MODELS;

const GOLDEN_DIR: &str = "tests/golden";

fn updating() -> bool {
    std::env::var_os("UPDATE_GOLDENFILES").is_some_and(|v| v == "1")
}

/// A line of `tests/golden/corpus.txt`: label, depths, (book, random byte), position.
type CorpusLine = (String, Vec<u8>, (bool, u8), String);

/// The corpus of `tests/golden/corpus.txt`.
fn corpus() -> Vec<CorpusLine> {
    let text = std::fs::read_to_string(Path::new(GOLDEN_DIR).join("corpus.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            (
                f[0].to_string(),
                f[1].split(',').map(|d| d.trim().parse().unwrap()).collect(),
                sargon_tools::behaviour::parse_book_field(f[2]).expect("book, book1 or nobook"),
                f[3].to_string(),
            )
        })
        .collect()
}

/// Every case the table must hold, in table order, with its known digest still to fill.
fn wanted() -> Vec<(String, u8, Replay)> {
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
            sargon_tools::models::DEPTH,
            Replay::Model(m.number),
        ));
    }
    out
}

/// The imported ROM, if it is the known image (the tables are made from it alone).
fn known_rom(test: &str) -> Option<Rom> {
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
fn the_behaviour_table_covers_the_corpus_and_the_models() {
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
        if matches!(case.replay, Replay::Model(_)) {
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
    let make = || -> anyhow::Result<Box<dyn sargon_core::Engine + Send>> {
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
        let v = sargon_tools::verify::verify(&rom, sargon_tools::verify::Scope::Quick, 2, &|_| {})
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

// ---- modified copies of the user's transcription --------------------------------------

/// The known image's stored source text, or `None` after the skip line.
fn stored_source(test: &str) -> Option<String> {
    let rom = known_rom(test)?;
    let store = RomStore::open(None);
    let path = store.dir().join(&rom.meta.name).join("source.asm");
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) => {
            common::skip_for_want_of_rom(test, &format!("{}: {e}", path.display()));
            None
        }
    }
}

fn first_half(source: &str) -> String {
    let lines: Vec<&str> = source.lines().collect();
    lines[..lines.len() / 2].join("\n") + "\n"
}

fn sargon(store: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sargon"))
        .env("SARGON_CACHE", common::test_cache_dir())
        .arg("--roms")
        .arg(store)
        .args(args)
        .output()
        .expect("the sargon binary runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

struct Workspace {
    _dir: tempfile::TempDir,
    store: PathBuf,
    root: PathBuf,
}

fn workspace() -> Workspace {
    let dir = tempfile::tempdir().unwrap();
    Workspace {
        store: dir.path().join("store"),
        root: dir.path().to_path_buf(),
        _dir: dir,
    }
}

impl Workspace {
    fn write(&self, name: &str, content: &str) -> String {
        let p = self.root.join(name);
        std::fs::write(&p, content).unwrap();
        p.display().to_string()
    }
    fn stored(&self, name: &str) -> bool {
        self.store.join(name).exists()
    }
}

/// The refusal's line naming the differing code or data where the search runs or reads.
fn code_line(stderr: &str) -> Option<&str> {
    stderr.lines().find_map(|l| {
        l.strip_prefix("code that differs from the known transcription where the search runs: ")
            .or_else(|| {
                l.strip_prefix(
                    "data that differs from the known transcription, read by the search: ",
                )
            })
    })
}

/// The line naming what differs where no search runs or reads.
fn allowed_line(report: &str) -> Option<&str> {
    report
        .lines()
        .find_map(|l| l.strip_prefix("differs only where no search runs or reads (allowed): "))
}

/// The source with the line `n` (from 0) replaced by `f` of it; it must change.
fn with_line_changed(source: &str, n: usize, f: impl Fn(&str) -> String) -> String {
    let mut lines: Vec<String> = source.lines().map(str::to_string).collect();
    let changed = f(&lines[n]);
    assert_ne!(changed, lines[n], "the change must change line {n}");
    lines[n] = changed;
    lines.join("\n") + "\n"
}

/// Index of the first line at or after `label`'s whose instruction tokens satisfy `f`.
fn line_after(source: &str, label: &str, f: impl Fn(&[&str]) -> bool) -> usize {
    let lines: Vec<String> = source.lines().map(str::to_string).collect();
    let start = line_of_label(&lines, label);
    (start..lines.len())
        .find(|&i| f(&instruction_tokens(&lines[i])))
        .unwrap_or_else(|| panic!("no such line after {label}"))
}

#[test]
fn a_changed_opcode_is_refused_and_points_is_named() {
    let Some(source) = stored_source("a_changed_opcode_is_refused_and_points_is_named") else {
        return;
    };
    let ws = workspace();
    let file = ws.write(
        "changed-opcode.asm",
        &with_changed_opcode(&source, "POINTS"),
    );
    let out = sargon(&ws.store, &["rom", "import", &file, "--name", "changed"]);
    let err = text(&out.stderr);
    eprintln!("{err}");
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("is refused: it is not the known Sargon image"),
        "{err}"
    );
    assert!(
        err.contains("first difference: ") && err.contains("event #"),
        "{err}"
    );
    assert!(
        err.contains("  known: ") && err.contains("  image: "),
        "{err}"
    );
    assert_eq!(code_line(&err), Some("POINTS"), "{err}");
    assert!(err.contains("--accept-different"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(!ws.stored("changed"), "nothing may be stored");
}

#[test]
fn a_changed_table_entry_is_refused_and_its_table_is_named() {
    let Some(source) = stored_source("a_changed_table_entry_is_refused_and_its_table_is_named")
    else {
        return;
    };
    let ws = workspace();
    let file = ws.write("changed-table.asm", &with_changed_table(&source, "PVALUE"));
    let out = sargon(&ws.store, &["rom", "import", &file, "--name", "changed"]);
    let err = text(&out.stderr);
    eprintln!("{err}");
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("is refused: it is not the known Sargon image"),
        "{err}"
    );
    assert_eq!(code_line(&err), Some("PVALUE"), "{err}");
    assert!(!ws.stored("changed"));
}

#[test]
fn half_the_transcription_is_refused_even_with_accept_different() {
    let Some(source) =
        stored_source("half_the_transcription_is_refused_even_with_accept_different")
    else {
        return;
    };
    let ws = workspace();
    let file = ws.write("half.asm", &first_half(&source));
    for extra in [&[][..], &["--accept-different"][..]] {
        let mut args = vec!["rom", "import", &file, "--name", "half"];
        args.extend_from_slice(extra);
        let out = sargon(&ws.store, &args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        // Either the assembler stops at a missing label, or the harness lacks a symbol.
        assert!(
            err.contains("assembles only in part") || err.contains("cannot assemble"),
            "{err}"
        );
        assert!(!ws.stored("half"));
    }
}

#[test]
fn accept_different_stores_it_marked_and_results_say_so() {
    let Some(source) = stored_source("accept_different_stores_it_marked_and_results_say_so") else {
        return;
    };
    let ws = workspace();
    let file = ws.write(
        "changed-opcode.asm",
        &with_changed_opcode(&source, "POINTS"),
    );
    let out = sargon(
        &ws.store,
        &[
            "rom",
            "import",
            &file,
            "--name",
            "changed",
            "--accept-different",
        ],
    );
    let (stdout, err) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{err}");
    assert!(stdout.contains("stored UNVERIFIED"), "{stdout}");
    assert!(stdout.contains("verified:      NO"), "{stdout}");
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(ws.store.join("changed").join("rom.json")).unwrap())
            .unwrap();
    assert_eq!(meta["verified"], serde_json::Value::Bool(false), "{meta}");
    assert!(
        meta["verification"]
            .as_str()
            .unwrap()
            .contains("behaves differently"),
        "{meta}"
    );

    // A result made with it says so, in JSON and in text, and the opening warns.
    let fen = "2r1nrk1/5pbp/1p2p1p1/8/p2B4/PqNR2P1/1P3P1P/1Q1R2K1 w - - 0 1";
    let args = [
        "analyze", "--engine", "emulator", "--rom", "changed", "-d", "2", "--format", "json", fen,
    ];
    let out = sargon(&ws.store, &args);
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json["rom_verified"],
        serde_json::Value::Bool(false),
        "{json}"
    );
    assert_eq!(
        err.lines()
            .filter(|l| l.starts_with("warning: ROM `changed` is not verified"))
            .count(),
        1,
        "{err}"
    );
    let out = sargon(
        &ws.store,
        &[
            "analyze", "--engine", "emulator", "--rom", "changed", "-d", "1", fen,
        ],
    );
    assert!(text(&out.stdout).contains("NOT VERIFIED"));
    let out = sargon(
        &ws.store,
        &[
            "trace", "--engine", "emulator", "--rom", "changed", "-d", "1", fen,
        ],
    );
    assert!(text(&out.stdout).starts_with("# ROM `changed` is NOT VERIFIED"));
    let out = sargon(
        &ws.store,
        &[
            "trace", "--engine", "emulator", "--rom", "changed", "-d", "1", "--format", "jsonl",
            fen,
        ],
    );
    let first: serde_json::Value =
        serde_json::from_str(text(&out.stdout).lines().next().unwrap_or("")).unwrap();
    assert_eq!(first["event"], "rom", "{first}");
    assert_eq!(first["verified"], false, "{first}");
    assert_eq!(first["name"], "changed", "{first}");

    // `diff` against the port: it differs (exit 1), and the run and its records say so.
    let results = ws.root.join("diff.jsonl");
    let out = sargon(
        &ws.store,
        &[
            "diff",
            "--rom",
            "changed",
            "-d",
            "1",
            "--out",
            &results.display().to_string(),
            fen,
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("ROM `changed` is NOT VERIFIED"));
    let record: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(&results)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        record["rom_verified"],
        serde_json::Value::Bool(false),
        "{record}"
    );

    // Every other command that gives a result made with it says so in the result itself
    // (stdout or the file written), not only in stderr's warning.
    let epd = ws.write("one.epd", &format!("{fen}\n"));
    let positions = ws.write("one.txt", &format!("{fen}\n"));
    let pgn = ws.root.join("match.pgn").display().to_string();
    let games = ws.root.join("games.jsonl").display().to_string();
    let mut checks: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["tree", "--engine", "emulator", "-d", "1", fen],
            "NOT VERIFIED",
        ),
        (vec!["profile", "-d", "1", fen], "NOT VERIFIED"),
        (
            vec!["profile", "-d", "1", "--format", "json", fen],
            "\"rom_verified\": false",
        ),
        (
            vec!["models", "--engine", "emulator", "--example", "1"],
            "NOT VERIFIED",
        ),
        (
            vec![
                "models",
                "--engine",
                "emulator",
                "--example",
                "1",
                "--format",
                "json",
            ],
            "\"rom_verified\": false",
        ),
        (vec!["listing", "FNDMOV"], "NOT VERIFIED"),
        (
            vec![
                "history",
                "levels",
                "--positions",
                &positions,
                "--max-level",
                "1",
                "-q",
            ],
            "NOT VERIFIED",
        ),
        (
            vec![
                "history",
                "games",
                "--levels",
                "1-1",
                "--games",
                "1",
                "--max-moves",
                "2",
            ],
            "NOT VERIFIED",
        ),
        (
            vec![
                "play",
                "--engine",
                "emulator",
                "-d",
                "1",
                "--opponent",
                "sargon:depth=1",
                "--games",
                "1",
                "--max-moves",
                "2",
                "--pgn",
                &pgn,
            ],
            "NOT VERIFIED",
        ),
    ];
    for format in ["csv", "jsonl", "epd"] {
        checks.push((
            vec![
                "analyze", "--engine", "emulator", "-d", "1", "--format", format, "--epd", &epd,
            ],
            "NOT VERIFIED",
        ));
    }
    for (args, wanted) in &checks {
        let out = sargon(&ws.store, args);
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        assert!(
            stdout.contains(wanted),
            "{args:?} lacks `{wanted}`:\n{stdout}"
        );
    }
    let tags = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        tags.contains("[White \"Sargon 1978 (emulator, depth 1) [ROM changed NOT VERIFIED]\"]"),
        "{tags}"
    );
    // A chess GUI discards stderr: the UCI session names the ROM unverified in its name
    // and, once, in an info string.
    let mut uci = Command::new(env!("CARGO_BIN_EXE_sargon"))
        .arg("--roms")
        .arg(&ws.store)
        .args(["uci", "--engine", "emulator", "--rom", "changed"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    uci.stdin
        .take()
        .unwrap()
        .write_all(b"uci\nisready\nposition startpos moves e2e4\ngo depth 1\nisready\nquit\n")
        .unwrap();
    let session = text(&uci.wait_with_output().unwrap().stdout);
    let id = session
        .lines()
        .find(|l| l.starts_with("id name "))
        .unwrap_or("");
    assert!(id.ends_with("(NOT VERIFIED)"), "{session}");
    let notes = session
        .lines()
        .filter(|l| l.starts_with("info string") && l.contains("NOT VERIFIED"))
        .count();
    assert_eq!(notes, 1, "once: {session}");
    let out = sargon(
        &ws.store,
        &[
            "history",
            "games",
            "--levels",
            "1-1",
            "--games",
            "1",
            "--max-moves",
            "2",
            "--out",
            &games,
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(std::fs::read_to_string(&games)
        .unwrap()
        .contains("\"unverified_rom\":\"changed\""));

    // `rom verify` finds it different again: exit 1, verdict kept.
    let out = sargon(&ws.store, &["rom", "verify", "changed"]);
    let (stdout, err) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}{err}");
    assert!(
        stdout.contains("DIFFERENT from the known Sargon image"),
        "{stdout}"
    );
    assert!(err.contains("is not the known Sargon image"), "{err}");
}

#[test]
fn the_known_source_imports_verified_and_verifies_again() {
    let Some(source) = stored_source("the_known_source_imports_verified_and_verifies_again") else {
        return;
    };
    let ws = workspace();
    let file = ws.write("sargon.asm", &source);
    let out = sargon(&ws.store, &["rom", "import", &file]);
    let (stdout, err) = (text(&out.stdout), text(&out.stderr));
    eprintln!("{stdout}");
    assert!(out.status.success(), "{err}");
    assert!(
        stdout.contains("behaviour: as the known Sargon image in all"),
        "{stdout}"
    );
    assert!(
        stdout.contains("code: the same as the known transcription"),
        "{stdout}"
    );
    assert!(!err.contains("warning"), "{err}");
    let out = sargon(&ws.store, &["rom", "verify"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(ws.store.join("sargon").join("rom.json")).unwrap())
            .unwrap();
    assert_eq!(meta["verified"], serde_json::Value::Bool(true), "{meta}");
}

/// The helpers change exactly what they say, on a made-up source.
#[test]
fn the_changes_touch_one_line_each() {
    // A made-up source in the transcription's layout (none of Sargon's own lines).
    let source = "\
; header
MYTAB   EQU     $-BASE
        DB      2,4,6
;***
MYSUB:  XOR     a               ; first
        LD      (X),a
        XOR     a
;*********
OTHER:  XOR     a
";
    let changed = with_changed_opcode(source, "MYSUB");
    assert!(changed.contains("MYSUB:  OR      a               ; first"));
    assert_eq!(changed.matches("XOR").count(), 2);
    let changed = with_changed_table(source, "MYTAB");
    assert!(changed.contains("        DB      3,4,6"), "{changed}");
    assert_eq!(first_half(source).lines().count(), 4);
}

/// One import of a changed copy of the user's transcription into a fresh store: its exit
/// status, its stdout and its stderr.
fn import_changed(source: &str, name: &str) -> (Option<i32>, String, String, bool) {
    let ws = workspace();
    let file = ws.write(&format!("{name}.asm"), source);
    let out = sargon(&ws.store, &["rom", "import", &file, "--name", name]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    eprintln!("{name}: {stdout}{stderr}");
    (out.status.code(), stdout, stderr, ws.stored(name))
}

#[test]
fn code_the_search_runs_must_be_the_known_code_even_when_the_searches_agree() {
    let test = "code_the_search_runs_must_be_the_known_code_even_when_the_searches_agree";
    let Some(source) = stored_source(test) else {
        return;
    };
    // ENPSNT's upper bound of the en passant rank moved onto the board's border (69, right
    // of h5): no pawn stands there, so no search can tell, and the image is still not
    // Sargon.
    let at = line_after(&source, "ENPSNT", |t| {
        t == ["CP", "69"] || t == ["cp", "69"]
    });
    let changed = with_line_changed(&source, at, |l| l.replacen("69", "70", 1));
    let (code, _, err, stored) = import_changed(&changed, "enpsnt");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("behaviour: as the known Sargon image in all"),
        "{err}"
    );
    assert_eq!(code_line(&err), Some("ENPSNT"), "{err}");
    assert!(err.contains("verified: no"), "{err}");
    assert!(!stored, "nothing stored");
}

#[test]
fn differences_where_no_search_runs_or_reads_are_named_and_allowed() {
    let test = "differences_where_no_search_runs_or_reads_are_named_and_allowed";
    let Some(source) = stored_source(test) else {
        return;
    };
    // DSPBRD draws the board on the TRS-80's screen: no search reaches it. PIECES is the
    // piece order INITBD reads to set up a new game, which the harness never calls.
    let at = line_after(&source, "DSPBRD", |t| {
        t.len() == 2 && t[0].eq_ignore_ascii_case("PUSH")
    });
    let display = with_line_changed(&source, at, |l| {
        let t = instruction_tokens(l)[1];
        let other = if t.eq_ignore_ascii_case("hl") {
            "de"
        } else {
            "hl"
        };
        l.replacen(t, other, 1)
    });
    let pieces = with_changed_table(&source, "PIECES");
    for (name, changed, region) in [("display", display, "DSPBRD"), ("pieces", pieces, "PIECES")] {
        let (code, out, err, stored) = import_changed(&changed, name);
        assert_eq!(code, Some(0), "{err}");
        assert!(stored, "{name} is stored");
        assert!(out.contains("verified:      yes"), "{out}");
        assert_eq!(allowed_line(&out), Some(region), "{out}");
        assert!(code_line(&out).is_none(), "{out}");
    }
}

#[test]
fn every_entry_of_the_opening_book_is_checked() {
    let test = "every_entry_of_the_opening_book_is_checked";
    let Some(source) = stored_source(test) else {
        return;
    };
    // Each of the book's twelve values changed, in turn: the book's moves are read by the
    // searches from the initial position (random byte 0 and 1: 1.e4 and 1.d4) and after
    // 1.e4 and 1.d4 (1...e5, 1...d5), so every change is refused.
    let first = line_after(&source, "BMOVES", |t| {
        t.first().is_some_and(|d| d.eq_ignore_ascii_case("DB"))
    });
    for line in first..first + 4 {
        for value in 0..3 {
            let changed = with_line_changed(&source, line, |l| {
                let code_end = l.find(';').unwrap_or(l.len());
                let db = l[..code_end].to_ascii_uppercase().find("DB").unwrap() + 2;
                let mut values: Vec<String> = l[db..code_end]
                    .split(',')
                    .map(|v| v.trim().to_string())
                    .collect();
                values[value] = if values[value].ends_with(['H', 'h']) {
                    "11H".to_string()
                } else {
                    (values[value].parse::<i32>().unwrap() + 1).to_string()
                };
                format!("{} {}{}", &l[..db], values.join(","), &l[code_end..])
            });
            let (code, out, err, stored) =
                import_changed(&changed, &format!("book-{}-{value}", line - first));
            assert_eq!(
                code,
                Some(1),
                "BMOVES line {} value {value}: {out}{err}",
                line - first
            );
            // Named by the data region that holds the byte: BMOVES's, or for its last bytes
            // PLIST's (PLIST is a displacement from TBASE that lands inside the book).
            assert!(code_line(&err).is_some(), "{err}");
            assert!(!stored);
        }
    }
}

// ---- coverage of the search code by the import's check (issue 21 item 2) --------------

/// Thresholds the import's verification set must reach over the routines a search can
/// run: `sargon rom coverage --corpus verify`.
const MIN_INSTRUCTIONS_PERCENT: f64 = 99.0;
const MIN_DIRECTIONS_PERCENT: f64 = 95.0;

#[test]
fn the_verification_set_runs_the_search_code() {
    let test = "the_verification_set_runs_the_search_code";
    let Some(rom) = known_rom(test) else {
        return;
    };
    let cases = sargon_tools::verify::Scope::Quick.cases();
    let report = sargon_tools::verify::coverage(&rom, &cases, 2, &|_| {}).unwrap();
    let (instructions, directions) = (report.instructions(), report.directions());
    let pct = sargon_original::coverage::percent;
    eprintln!(
        "verification set: {} of {} instructions ({:.1}%), {} of {} branch directions ({:.1}%)",
        instructions.1,
        instructions.0,
        pct(instructions),
        directions.1,
        directions.0,
        pct(directions)
    );
    // Every routine the harness calls, and the ones the search is made of, are counted.
    let names: Vec<&str> = report.routines.iter().map(|r| r.name.as_str()).collect();
    for routine in [
        "FNDMOV", "ROYALT", "VALMOV", "CASTLE", "ENPSNT", "MPIECE", "POINTS",
    ] {
        assert!(names.contains(&routine), "{routine} missing from {names:?}");
    }
    assert!(instructions.0 > 1000, "{instructions:?}");
    assert!(
        pct(instructions) >= MIN_INSTRUCTIONS_PERCENT,
        "{instructions:?}"
    );
    assert!(pct(directions) >= MIN_DIRECTIONS_PERCENT, "{directions:?}");
    // The tables the search depends on are read in full.
    for table in ["DPOINT", "DCOUNT", "PVALUE"] {
        let t = report.tables.iter().find(|t| t.name == table).unwrap();
        assert_eq!(t.read, t.bytes, "{table}: {t:?}");
    }
}

/// Conditions and their opposites, as the transcription writes them.
const OPPOSITE_CONDITIONS: [(&str, &str); 8] = [
    ("Z", "NZ"),
    ("NZ", "Z"),
    ("C", "NC"),
    ("NC", "C"),
    ("PE", "PO"),
    ("PO", "PE"),
    ("P", "M"),
    ("M", "P"),
];

/// One-line mutants of `routine` (up to the next routine's header): each conditional jump,
/// call or return with its condition reversed, and each `CP n` with `n` made `n + 1`.
/// Returns (line index, what changed, the changed source).
fn mutants_of(source: &str, routine: &str) -> Vec<(usize, String, String)> {
    let lines: Vec<String> = source.lines().map(str::to_string).collect();
    let start = line_of_label(&lines, routine);
    let mut out = Vec::new();
    for i in
        (start..lines.len()).take_while(|&i| i == start || !lines[i].trim_start().starts_with(";*"))
    {
        let t = instruction_tokens(&lines[i]);
        let Some(op) = t.first().map(|o| o.to_ascii_uppercase()) else {
            continue;
        };
        let operand = t.get(1).copied().unwrap_or("");
        let cond = operand.split(',').next().unwrap_or("").to_ascii_uppercase();
        let conditional = matches!(op.as_str(), "JR" | "JP" | "CALL" | "RET")
            && OPPOSITE_CONDITIONS.iter().any(|(c, _)| *c == cond)
            && (op == "RET" || operand.contains(','));
        if conditional {
            let (_, opposite) = OPPOSITE_CONDITIONS
                .iter()
                .find(|(c, _)| *c == cond)
                .unwrap();
            let changed = with_line_changed(source, i, |l| {
                let at = l.find(operand).unwrap();
                format!(
                    "{}{}{}",
                    &l[..at],
                    operand.replacen(&operand[..cond.len()], opposite, 1),
                    &l[at + operand.len()..]
                )
            });
            out.push((i, format!("{op} {cond} -> {opposite}"), changed));
        } else if op == "CP" {
            let value = if let Some(hex) = operand.strip_suffix(['H', 'h']) {
                u8::from_str_radix(hex, 16).ok()
            } else {
                operand.parse::<u8>().ok()
            };
            let Some(value) = value else { continue };
            let changed = with_line_changed(source, i, |l| {
                let at = l.find(operand).unwrap();
                format!(
                    "{}{}{}",
                    &l[..at],
                    value.wrapping_add(1),
                    &l[at + operand.len()..]
                )
            });
            out.push((
                i,
                format!("CP {value} -> {}", value.wrapping_add(1)),
                changed,
            ));
        }
    }
    out
}

#[test]
fn every_flipped_branch_and_changed_comparison_is_refused() {
    let test = "every_flipped_branch_and_changed_comparison_is_refused";
    let Some(source) = stored_source(test) else {
        return;
    };
    let ws = workspace();
    let cases = sargon_tools::verify::Scope::Quick.cases();
    let mut mutants = Vec::new();
    for routine in ["CASTLE", "ENPSNT", "MPIECE"] {
        let of_routine = mutants_of(&source, routine);
        assert!(
            of_routine.len() >= 5,
            "{routine}: {} mutants",
            of_routine.len()
        );
        mutants.extend(of_routine.into_iter().map(|m| (routine, m)));
    }
    let total = mutants.len();
    // Two workers, each with its own store, take the mutants in turn.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let verdicts: std::sync::Mutex<Vec<(usize, Option<String>)>> = Default::default();
    std::thread::scope(|scope| {
        for worker in 0..2 {
            let (ws, cases, mutants, next, verdicts) = (&ws, &cases, &mutants, &next, &verdicts);
            scope.spawn(move || {
                let store = RomStore::new(ws.store.join(format!("worker-{worker}")));
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((routine, (line, what, changed))) = mutants.get(i) else {
                        break;
                    };
                    let file = ws.write(&format!("mutant-{i}.asm"), changed);
                    let rom = store
                        .prepare(Path::new(&file), "mutant", true)
                        .unwrap_or_else(|e| panic!("{routine} line {line} ({what}) assembles: {e}"))
                        .rom;
                    // A change at a hook point is refused by the harness before anything runs.
                    if let Err(e) = Emulator::new(rom.clone()) {
                        eprintln!("{routine} line {line} ({what}): refused by the harness: {e}");
                        verdicts.lock().unwrap().push((i, None));
                        continue;
                    }
                    // Refused: the routine's code is not the known code where the search runs.
                    let differences = fingerprint::differences(&rom, None);
                    assert_eq!(
                        differences.search_code,
                        vec![routine.to_string()],
                        "{routine} line {line} ({what})"
                    );
                    // And the replay alone: the first known search that comes out different.
                    let make = || -> anyhow::Result<Box<dyn sargon_core::engine::Engine + Send>> {
                        Ok(Box::new(Emulator::new(rom.clone())?))
                    };
                    let caught = cases.iter().position(|case| {
                        !behaviour::check(std::slice::from_ref(case), &make, 1, &|_| {})
                            .unwrap()
                            .alike()
                    });
                    match caught {
                        Some(c) => eprintln!(
                            "{routine} line {line} ({what}): refused; search {} of the check differs ({})",
                            c + 1,
                            cases[c].label
                        ),
                        None => eprintln!(
                            "{routine} line {line} ({what}): refused by its code only; every search of the check agrees"
                        ),
                    }
                    let unseen = caught.is_none().then(|| format!("{routine} ({what})"));
                    verdicts.lock().unwrap().push((i, unseen));
                }
            });
        }
    });
    let mut verdicts = verdicts.into_inner().unwrap();
    verdicts.sort();
    assert_eq!(verdicts.len(), total, "every mutant judged");
    let unseen: Vec<String> = verdicts.into_iter().filter_map(|(_, u)| u).collect();
    let by_behaviour = total - unseen.len();
    eprintln!("{total} mutants, all refused; {by_behaviour} also by behaviour");
    // The only mutants no search can tell apart: bounds moved onto the board's border,
    // where no pawn can stand (square 69 is right of h5, square 29 right of h1), so no
    // position behaves differently; their code fingerprint refuses them.
    let equivalent = [
        "ENPSNT (CP 69 -> 70)",
        "MPIECE (CP 29 -> 30)",
        "MPIECE (CP 29 -> 30)",
    ];
    assert_eq!(
        unseen, equivalent,
        "mutants every search of the check agrees with, besides the equivalent ones"
    );
}

// ---- a budget on every emulator run (issue 21 item 4), progress (issue 32 item 10) ------

#[test]
fn an_image_that_never_returns_is_stopped_when_it_makes_no_progress() {
    let test = "an_image_that_never_returns_is_stopped_when_it_makes_no_progress";
    let Some(source) = stored_source(test) else {
        return;
    };
    // FNDMOV's first instruction made a jump to itself: the search never returns.
    let at = line_after(&source, "FNDMOV", |t| !t.is_empty());
    let lines: Vec<&str> = source.lines().collect();
    let label = label_of(lines[at]).map(str::to_string);
    let changed = with_line_changed(&source, at, |_| match &label {
        Some(name) => format!("{name}: JR {name}"),
        None => "        JR      $".to_string(),
    });
    let ws = workspace();
    let file = ws.write("loops.asm", &changed);
    let out = sargon(
        &ws.store,
        &[
            "rom",
            "import",
            &file,
            "--name",
            "loops",
            "--accept-different",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));

    // analyze: an error naming the routine, once it has gone the progress check's limit
    // without a hook point (seconds, long before the depth's budget), not a hang.
    let t = std::time::Instant::now();
    let out = sargon(
        &ws.store,
        &[
            "analyze", "startpos", "--engine", "emulator", "--rom", "loops", "--depth", "1",
        ],
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("runaway emulation: no return from FNDMOV"),
        "{err}"
    );
    assert!(err.contains("it was in FNDMOV"), "{err}");
    assert!(
        err.contains(&format!(
            "the last {} of them without reaching any hook point",
            sargon_original::emu::STALL_LIMIT
        )),
        "{err}"
    );
    eprintln!(
        "analyze stopped after {:.1} s: {err}",
        t.elapsed().as_secs_f64()
    );

    // UCI: no move at all rather than one nobody searched. The input stays open until
    // the answer (at the end of the input a search is given only half a second).
    let mut child = Command::new(env!("CARGO_BIN_EXE_sargon"))
        .arg("--roms")
        .arg(&ws.store)
        .args(["uci", "--engine", "emulator", "--rom", "loops"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"uci\nisready\nposition fen 2r1nrk1/5pbp/1p2p1p1/8/p2B4/PqNR2P1/1P3P1P/1Q1R2K1 w - - 0 1\ngo depth 1\n")
        .unwrap();
    let mut lines = Vec::new();
    for line in std::io::BufRead::lines(std::io::BufReader::new(child.stdout.take().unwrap())) {
        let line = line.unwrap();
        let done = line.starts_with("bestmove");
        lines.push(line);
        if done {
            break;
        }
    }
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    child.wait().unwrap();
    let stdout = lines.join("\n");
    assert!(stdout.contains("runaway emulation"), "{stdout}");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("bestmove 0000"),
        "{stdout}"
    );
}

// ---- every data table (issue 25 item 4) -----------------------------------------------

/// The first value of a `DB`/`DW` line one more (`TBASE` becomes `TBASE+1`); `None` for a
/// line of text or without values.
fn with_first_value_changed(line: &str) -> Option<String> {
    let code_end = line.find(';').unwrap_or(line.len());
    let upper = line[..code_end].to_ascii_uppercase();
    let at = upper
        .find(" DB ")
        .or_else(|| upper.find("\tDB\t"))
        .or_else(|| upper.find(" DW "))
        .or_else(|| upper.find("\tDW\t"))
        .or_else(|| upper.find(" DB\t"))
        .or_else(|| upper.find(" DW\t"))?
        + 4;
    let values = &line[at..code_end];
    let first = values.split(',').next()?;
    let value = first.trim();
    if value.is_empty() || value.contains(['\'', '"']) {
        return None;
    }
    let changed = match value.parse::<i32>() {
        Ok(n) => (n + 1).to_string(),
        Err(_) => format!("{value}+1"),
    };
    let start = at + first.find(value)?;
    Some(format!(
        "{}{}{}",
        &line[..start],
        changed,
        &line[start + value.len()..]
    ))
}

#[test]
fn every_data_table_change_is_refused_or_named_where_unread() {
    let test = "every_data_table_change_is_refused_or_named_where_unread";
    let Some(rom) = known_rom(test) else {
        return;
    };
    let Some(source) = stored_source(test) else {
        return;
    };
    // Which image bytes the import's searches read: measured here on the known image.
    let reads: sargon_original::emu::ImageReads =
        std::sync::Arc::new(std::sync::Mutex::new(vec![false; 0x10000]));
    let make = || -> anyhow::Result<Box<dyn sargon_core::engine::Engine + Send>> {
        let mut emulator = Emulator::new(rom.clone())?;
        emulator.track_reads(reads.clone());
        Ok(Box::new(emulator))
    };
    let cases = sargon_tools::verify::Scope::Quick.cases();
    behaviour::replay_all(&cases, &make, 2, &|_| {}).unwrap();
    let reads = reads.lock().unwrap().clone();
    let tables = sargon_original::coverage::report(
        &rom,
        &sargon_original::coverage::Coverage::new(),
        &reads,
    )
    .tables;

    let ws = workspace();
    let store = RomStore::new(ws.store.clone());
    let known = rom.memory();
    let (mut refused, mut allowed) = (Vec::new(), Vec::new());
    let lines: Vec<&str> = source.lines().collect();
    for (n, line) in lines.iter().enumerate() {
        let Some(changed_line) = with_first_value_changed(line) else {
            continue;
        };
        let changed = with_line_changed(&source, n, |_| changed_line.clone());
        let file = ws.write("table.asm", &changed);
        let mutant = store
            .prepare(Path::new(&file), "table", true)
            .unwrap_or_else(|e| panic!("line {n} `{changed_line}` assembles: {e}"))
            .rom;
        let memory = mutant.memory();
        let at: Vec<usize> = (0..0x10000).filter(|&a| memory[a] != known[a]).collect();
        assert!(!at.is_empty(), "line {n}: the change changes the image");
        // Every changed byte in one data region; a value inside code (a DB in a routine or
        // in a macro that code uses) is the code fingerprints' business.
        let Some(table) = tables.iter().find(|t| {
            let r = usize::from(t.start)..usize::from(t.start) + t.bytes;
            at.iter().all(|a| r.contains(a))
        }) else {
            continue;
        };
        let offset = at[0] - usize::from(table.start);
        let differences = fingerprint::differences(&mutant, Some(&reads));
        let what = format!("{}[{offset}]", table.name);
        if table.read > 0 {
            // Some byte of the region is read by a search: the image is not the known one.
            assert!(differences.in_search(), "{what}: {differences:?}");
            assert!(
                differences.read_data.contains(&table.name),
                "{what}: {differences:?}"
            );
            refused.push(what);
        } else {
            // No search reads the region: allowed, and named.
            assert!(!differences.in_search(), "{what}: {differences:?}");
            assert!(
                differences.unread_data.contains(&table.name),
                "{what}: {differences:?}"
            );
            allowed.push(what);
        }
    }
    eprintln!("refused ({}): {}", refused.len(), refused.join(" "));
    eprintln!("allowed, named ({}): {}", allowed.len(), allowed.join(" "));
    // The tables the search is made of are among the refused.
    for table in ["DIRECT", "DPOINT", "DCOUNT", "PVALUE"] {
        assert!(
            refused.iter().any(|r| r.contains(table)),
            "{table}: {refused:?}"
        );
    }
    assert!(
        allowed.iter().any(|a| a.starts_with("PIECES")),
        "{allowed:?}"
    );
}

// ---- rom verify where the verdict cannot be recorded (issue 21 item 7) ---------------

#[test]
fn rom_verify_refuses_an_unwritable_store_before_the_check() {
    let test = "rom_verify_refuses_an_unwritable_store_before_the_check";
    let Some(source) = stored_source(test) else {
        return;
    };
    let ws = workspace();
    let file = ws.write("sargon.asm", &source);
    let out = sargon(&ws.store, &["rom", "import", &file, "--name", "known"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // chattr +i stops root too, where permissions do not.
    let rom_dir = ws.store.join("known");
    let chattr = |flag: &str| {
        Command::new("chattr")
            .arg(flag)
            .arg(&rom_dir)
            .status()
            .is_ok_and(|s| s.success())
    };
    if !chattr("+i") || std::fs::write(rom_dir.join("probe"), b"").is_ok() {
        chattr("-i");
        eprintln!("skipped: cannot make a directory unwritable here (chattr +i)");
        return;
    }
    let out = sargon(&ws.store, &["rom", "verify", "known"]);
    chattr("-i");
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("cannot write to the ROM store"), "{stderr}");
    // Refused before the check: no search was replayed.
    assert!(!stdout.contains("behaviour:"), "{stdout}");
}

// ---- an allowed difference is named wherever the ROM is (issue 25) --------------------

#[test]
fn an_allowed_difference_is_named_wherever_the_rom_is() {
    let test = "an_allowed_difference_is_named_wherever_the_rom_is";
    let Some(source) = stored_source(test) else {
        return;
    };
    let ws = workspace();
    let file = ws.write("pieces.asm", &with_changed_table(&source, "PIECES"));
    let out = sargon(&ws.store, &["rom", "import", &file, "--name", "pieces"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let named = "differs from the known image only where no search runs or reads";
    let run = |args: &[&str]| {
        let out = sargon(&ws.store, args);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        text(&out.stdout)
    };
    let list = run(&["rom", "list"]);
    assert!(
        list.contains(&format!("{named} (allowed): PIECES")),
        "{list}"
    );
    let info = run(&["rom", "info", "pieces"]);
    assert!(
        info.contains("verified:      yes") && info.contains("(allowed): PIECES"),
        "{info}"
    );
    let analyze = [
        "analyze", "--engine", "emulator", "--rom", "pieces", "-d", "1",
    ];
    let fen = "2r1nrk1/5pbp/1p2p1p1/8/p2B4/PqNR2P1/1P3P1P/1Q1R2K1 w - - 0 1";
    let text_out = run(&[&analyze[..], &[fen]].concat());
    assert!(text_out.contains(&format!("{named}: PIECES")), "{text_out}");
    let json = run(&[&analyze[..], &["--format", "json", fen]].concat());
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["rom_verified"], serde_json::json!(true), "{json}");
    assert_eq!(
        json["rom_allowed_differences"],
        serde_json::json!(["PIECES"]),
        "{json}"
    );
    let trace = run(&[
        "trace", "--engine", "emulator", "--rom", "pieces", "-d", "1", "--format", "jsonl", fen,
    ]);
    let first: serde_json::Value = serde_json::from_str(trace.lines().next().unwrap()).unwrap();
    assert_eq!(first["event"], "rom", "{first}");
    assert_eq!(
        first["allowed_differences"],
        serde_json::json!(["PIECES"]),
        "{first}"
    );
}
