//! The original on the second Z80 core, z80emu, as `--core z80emu` runs it
//! (docs/emulator.md): the golden corpus's searches to depth 2 give the recorded traces,
//! with as many instructions and T-states as on iz80; `sargon diff --core z80emu` finds no
//! divergence; what needs iz80 is refused with a reason; a bad `--core` is named.
//!
//! That the hooks see and steer alike on both cores is in `tests/it/hooks.rs`.

use crate::common;

use common::golden::{corpus, first_difference, golden, golden_dir};
use sargon_core::engine::{Engine as _, SearchError, SearchOptions};
use sargon_core::hooks::Hooks;
use sargon_core::position::{parse_position, setup};
use sargon_core::Book;
use sargon_original::emu::{Core, Emulator};

/// The corpus's searches up to this depth (107 of them, about 317 M instructions).
const MAX_DEPTH: u8 = 2;

#[test]
fn z80emu_matches_the_golden_files_to_depth_2() {
    let Some(rom) = common::rom("z80emu_matches_the_golden_files_to_depth_2") else {
        return;
    };
    let mut z80emu = Emulator::with_core(rom.clone(), Core::Z80emu).unwrap();
    let mut iz80 = Emulator::new(rom).unwrap();
    assert_eq!(z80emu.core(), Core::Z80emu);
    let (mut searches, mut instructions, mut failures) = (0, 0, Vec::new());
    for case in corpus() {
        for &depth in case.depths.iter().filter(|&&d| d <= MAX_DEPTH) {
            let (name, content) = golden(&mut z80emu, &case, depth);
            let path = golden_dir().join(&name);
            let expected = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            searches += 1;
            if let Some((line, want, got)) = first_difference(&expected, &content) {
                failures.push(format!(
                    "{name} line {line}:\n  golden: {want}\n  z80emu: {got}"
                ));
            }
            // The same search on iz80: the set-up's calls and FNDMOV execute as many
            // instructions, of as many documented T-states.
            let (_, on_iz80) = golden(&mut iz80, &case, depth);
            assert_eq!(content, on_iz80, "{name}");
            assert_eq!(
                (z80emu.instructions(), z80emu.t_states()),
                (iz80.instructions(), iz80.t_states()),
                "{name}: instructions and T-states"
            );
            instructions += z80emu.instructions();
        }
    }
    eprintln!(
        "z80emu: {searches} searches ({instructions} instructions) compared with {}, {} differ",
        golden_dir().display(),
        failures.len()
    );
    assert!(
        searches > 100,
        "the corpus has over 100 searches to depth 2"
    );
    assert!(
        failures.is_empty(),
        "z80emu parts from the golden files:\n{}",
        failures.join("\n")
    );
}

#[test]
fn z80emu_search_reports_its_core_and_no_iz80_count() {
    let Some(rom) = common::rom("z80emu_search_reports_its_core_and_no_iz80_count") else {
        return;
    };
    let s = setup(&parse_position("startpos").unwrap(), Book::Off).unwrap();
    let opts = SearchOptions::depth(2);
    let mut z80emu = Emulator::with_core(rom.clone(), Core::Z80emu).unwrap();
    let mut iz80 = Emulator::new(rom).unwrap();
    let a = z80emu.search(&s, &opts, &mut Hooks::new()).unwrap();
    let b = iz80.search(&s, &opts, &mut Hooks::new()).unwrap();
    assert_eq!((a.best, a.root_score), (b.best, b.root_score));
    assert_eq!(a.stats.z80_instructions, b.stats.z80_instructions);
    assert_eq!(a.stats.t_states, b.stats.t_states);
    // iz80's own T-state count is iz80's: not given on z80emu.
    assert!(b.stats.iz80_t_states.is_some());
    assert_eq!(a.stats.iz80_t_states, None);
    assert_eq!(z80emu.core(), Core::Z80emu);
    // Named with its core, where the default core is not named.
    assert!(
        z80emu.name().starts_with("emulator on z80emu (ROM "),
        "{}",
        z80emu.name()
    );
    assert!(iz80.name().starts_with("emulator (ROM "), "{}", iz80.name());
}

#[test]
fn what_needs_iz80_is_refused_on_z80emu() {
    let Some(rom) = common::rom("what_needs_iz80_is_refused_on_z80emu") else {
        return;
    };
    let s = setup(&parse_position("startpos").unwrap(), Book::Off).unwrap();
    let mut emu = Emulator::with_core(rom, Core::Z80emu).unwrap();
    // The profiler observes iz80's registers after every instruction.
    let err = sargon_original::profile::profile_search(&mut emu, &s, &SearchOptions::depth(1))
        .unwrap_err();
    assert!(
        matches!(&err, SearchError::NotOnThisCore { needs, core, .. } if needs == "iz80" && core == "z80emu"),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "an instruction observer (the profiler) needs the emulator on the iz80 core; this one runs on z80emu"
    );
    // So does the tracking of the image's reads.
    emu.track_reads(std::sync::Arc::new(std::sync::Mutex::new(vec![
        false;
        0x10000
    ])));
    let err = emu
        .search(&s, &SearchOptions::depth(1), &mut Hooks::new())
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("tracking the image's reads needs the emulator on the iz80 core"),
        "{err}"
    );
    // On the command line, with the reason.
    let out = common::sargon(&["profile", "startpos", "--depth", "1", "--core", "z80emu"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the profiler) needs the emulator on the iz80 core"),
        "{stderr}"
    );
}

#[test]
fn z80emu_coverage_is_iz80s() {
    let Some(rom) = common::rom("z80emu_coverage_is_iz80s") else {
        return;
    };
    let s = setup(
        &parse_position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 30").unwrap(),
        Book::Allowed,
    )
    .unwrap();
    let mut covered = Vec::new();
    for core in Core::ALL {
        let mut emu = Emulator::with_core(rom.clone(), core).unwrap();
        let shared = std::sync::Arc::new(std::sync::Mutex::new(
            sargon_original::coverage::Coverage::new(),
        ));
        emu.track_coverage(shared.clone());
        emu.search(&s, &SearchOptions::depth(2), &mut Hooks::new())
            .unwrap();
        let c = shared.lock().unwrap().clone();
        covered.push(c);
    }
    assert!((0..0x10000).any(|a| covered[0].ran(a as u16)));
    assert_eq!(covered[0], covered[1]);
}

#[test]
fn diff_on_z80emu_finds_no_divergence() {
    if common::rom("diff_on_z80emu_finds_no_divergence").is_none() {
        return;
    }
    // The initial position (book off), an en passant square replayed through VALMOV, a
    // middlegame, a mate; every search run on z80emu (no cache), checked against the port.
    let dir = tempfile::tempdir().unwrap();
    let positions = dir.path().join("positions.epd");
    std::fs::write(
        &positions,
        "startpos\n\
         4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 30\n\
         r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - 0 1\n\
         6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 30\n",
    )
    .unwrap();
    let results = dir.path().join("z80emu.jsonl");
    let (positions, results_path) = (positions.to_str().unwrap(), results.to_str().unwrap());
    let out = common::sargon(&[
        "diff",
        "--core",
        "z80emu",
        "--no-cache",
        "--no-book",
        "--epd",
        positions,
        "--depths",
        "1-3",
        "--out",
        results_path,
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let line = stdout.lines().last().unwrap();
    assert!(
        line.starts_with("positions: 4, searches: 12, events compared: "),
        "{line}"
    );
    assert!(line.ends_with("divergences: 0"), "{line}");
    // The results file says on which core each search of the original ran.
    let text = std::fs::read_to_string(&results).unwrap();
    let records: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|r| r.get("plan").is_none()) // the run's plan, first
        .collect();
    assert_eq!(records.len(), 12);
    for record in &records {
        assert_eq!(record["left"]["core"], "z80emu", "{record}");
        assert!(record["right"].get("core").is_none(), "{record}");
    }
    let report = common::sargon(&[
        "diff",
        "report",
        "--epd",
        positions,
        "--depths",
        "1-3",
        results_path,
    ]);
    let report = String::from_utf8_lossy(&report.stdout);
    assert!(
        report.contains("the original ran on z80emu in 12 searches"),
        "{report}"
    );
}

#[test]
fn core_options_are_checked() {
    // No ROM is needed to refuse these.
    let out = common::sargon(&[
        "analyze", "startpos", "--engine", "emulator", "--core", "z81",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("invalid value 'z81' for '--core <CORE>': unknown Z80 core `z81` (expected `iz80` or `z80emu`)"),
        "{stderr}"
    );
    // --core where only the port searches.
    for args in [
        &["analyze", "startpos", "--core", "z80emu"][..],
        &["trace", "startpos", "--core", "iz80"],
        &[
            "diff", "startpos", "--depth", "1", "--left", "port", "--core", "z80emu",
        ],
        &["bench", "--no-emulator", "--core", "z80emu"],
        &["tree", "startpos", "--core", "z80emu"],
        &["models", "--example", "1", "--core", "z80emu"],
        &["annotate", "examples/opera.pgn", "--core", "z80emu"],
        &[
            "play",
            "--opponent",
            "sargon:depth=1",
            "--games",
            "1",
            "--core",
            "z80emu",
        ],
    ] {
        let out = common::sargon(args);
        // An error (`diff` has its own status for one: 2).
        assert!(matches!(out.status.code(), Some(1 | 2)), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("chooses the Z80 core of the emulator")
                && stderr.contains("no Z80 code runs"),
            "{args:?}: {stderr}"
        );
    }
}

/// The commands that run the original for a picture, a match, a GUI or annotations take
/// `--core` too, and give on z80emu what they give on iz80.
#[test]
fn tree_models_annotate_play_and_uci_run_on_z80emu_alike() {
    let Some(rom) = common::rom("tree_models_annotate_play_and_uci_run_on_z80emu_alike") else {
        return;
    };
    let on = |core: &str, args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--engine", "emulator", "--core", core]);
        let out = common::sargon(&all);
        assert!(
            out.status.success(),
            "{all:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let tree = ["tree", "startpos", "--no-book", "--depth", "2"];
    assert_eq!(on("iz80", &tree), on("z80emu", &tree));
    let models = ["models", "--example", "2"];
    assert_eq!(on("iz80", &models), on("z80emu", &models));
    let play = [
        "play",
        "--opponent",
        "sargon:depth=1",
        "--depth",
        "1",
        "--games",
        "1",
        "--max-moves",
        "6",
    ];
    assert_eq!(on("iz80", &play), on("z80emu", &play));
    // The annotations name the engine, and so its core; the rest is the same, words and
    // moves (the lines wrap differently around the longer name).
    let annotate = ["annotate", "examples/opera.pgn", "--depth", "1"];
    let words = |pgn: String| -> Vec<String> {
        pgn.replace("emulator on z80emu", "emulator")
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    let on_z80emu = on("z80emu", &annotate);
    assert!(on_z80emu.contains("emulator on z80emu (ROM"), "{on_z80emu}");
    assert_eq!(words(on("iz80", &annotate)), words(on_z80emu));
    // `uci`: the GUI chooses the emulator; the search and its move are the same, and the
    // engine says which core runs it.
    let uci = |core: &str| {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sargon"))
            .args(["uci", "--core", core])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        std::io::Write::write_all(
            &mut stdin,
            b"uci\nsetoption name Engine value emulator\nisready\n\
              position fen r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - 0 1\ngo depth 2\n",
        )
        .unwrap();
        // Read until the move, then quit (an EOF would stop the search).
        let mut lines =
            std::io::BufRead::lines(std::io::BufReader::new(child.stdout.take().unwrap()));
        let mut said = Vec::new();
        for line in lines.by_ref() {
            let line = line.unwrap();
            let done = line.starts_with("bestmove");
            said.push(line);
            if done {
                break;
            }
        }
        std::io::Write::write_all(&mut stdin, b"quit\n").unwrap();
        drop(stdin);
        assert!(child.wait().unwrap().success());
        said
    };
    let (iz80, z80emu) = (uci("iz80"), uci("z80emu"));
    assert_eq!(iz80.last(), z80emu.last(), "the same move");
    assert!(iz80.last().unwrap().starts_with("bestmove "), "{iz80:?}");
    assert!(
        z80emu.contains(
            &"info string emulator engine on z80emu running the ROM `sargon`".to_string()
        ),
        "{z80emu:?}"
    );
    assert!(
        iz80.contains(&format!(
            "info string emulator engine running the ROM `{}`",
            rom.meta.name
        )),
        "{iz80:?}"
    );
}
