//! `sargon history`, run as a command: what it prints and the files it writes. The studies
//! behind it (`src/studies/`, modules of the command) are called directly by the command's
//! unit tests in `src/studies/tests/history.rs`; where a test needs both, the values are
//! checked there and what the command prints here.

use crate::common;

use sargon_core::clock::duration;
use serde_json::Value;

/// The games of a `history games` file, one JSON line each, read as plain JSON: the
/// studies' own reader is out of reach of `tests/` (its use is checked by the unit tests).
fn json_lines(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `sargon history games` prints, as its table, the summary of the JSON lines it writes:
/// the table it prints from those lines alone (`--load`), whose level-1 row has the moves,
/// book moves and mean time per move the lines record; a resumed run plays nothing more
/// and prints the same. (The lines and their summary themselves are checked by the unit
/// test `games_command_writes_consistent_lines_and_table`.)
#[test]
fn games_command_prints_the_table_of_its_lines() {
    if common::rom("games_command_prints_the_table_of_its_lines").is_none() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("sargon-history-games-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("games.jsonl");
    let _ = std::fs::remove_file(&out);
    let run = |extra: &[&str]| {
        let mut args = vec![
            "history",
            "games",
            "--levels",
            "1-2",
            "--games",
            "1",
            "--max-moves",
            "3",
            "--seed",
            "5",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        std::process::Command::new(env!("CARGO_BIN_EXE_sargon"))
            .args(&args)
            .output()
            .unwrap()
    };
    let first = run(&[]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let table = String::from_utf8(first.stdout).unwrap();
    // The table is the summary of those lines.
    let loaded = std::process::Command::new(env!("CARGO_BIN_EXE_sargon"))
        .args(["history", "games", "--quiet", "--load"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(loaded.status.success());
    assert_eq!(String::from_utf8(loaded.stdout).unwrap(), table);
    let level1: Vec<f64> = json_lines(&out)
        .iter()
        .filter(|g| g["level"] == 1)
        .flat_map(|g| g["moves"].as_array().unwrap().clone())
        .map(|m| m["trs80_seconds"].as_f64().unwrap())
        .collect();
    assert_eq!(level1.len(), 6);
    let mean = level1.iter().sum::<f64>() / 6.0;
    let row = format!("| 1 | 1 | 6 (2) | {} |", duration(mean));
    assert!(table.contains(&row), "no `{row}` in {table}");
    // Without --resume an existing file is refused; with it, nothing more is played.
    assert!(!run(&[]).status.success());
    let again = run(&["--resume"]);
    assert!(again.status.success());
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    assert_eq!(String::from_utf8(again.stdout).unwrap(), table);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `sargon history strength`: the match rows, Elo per depth (anchored, then chained
/// downwards), the JSON and the plot, from small hand-written match files.
#[test]
fn strength_rates_depths_from_match_files() {
    let dir = std::env::temp_dir().join(format!("sargon-history-strength-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sargon = |d: u8| format!("Sargon 1978 (port, depth {d})");
    let sf = "Stockfish 15.1 (movetime 200 ms, UCI_LimitStrength=true, UCI_Elo=1350)";
    let game = |white: &str, black: &str, result: &str| {
        format!("[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n1. e4 e5 {result}\n\n")
    };
    // Depth 2 scores 1.5/2 against the anchor: 75%, +190.85, so 1540.85.
    let anchored = dir.join("d2-vs-sf.pgn");
    std::fs::write(
        &anchored,
        game(&sargon(2), sf, "1-0") + &game(sf, &sargon(2), "1/2-1/2"),
    )
    .unwrap();
    // Depth 1 loses both games to depth 2: only a bound, "< 1541". The third game repeats
    // the first move for move (two deterministic players), so it is counted once.
    let link = dir.join("d1-vs-d2.pgn");
    std::fs::write(
        &link,
        game(&sargon(1), &sargon(2), "0-1")
            + &game(&sargon(2), &sargon(1), "1-0")
            + &game(&sargon(1), &sargon(2), "0-1"),
    )
    .unwrap();
    let plot = dir.join("strength.svg");
    let run = |format: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sargon"))
            .args(["history", "strength", "--format", format, "--plot"])
            .arg(&plot)
            .arg(&anchored)
            .arg(&link)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run("text");
    assert!(
        text.contains("| Sargon 1978 (port, depth 2) - Stockfish 15.1 (movetime 200 ms, UCI_LimitStrength=true, UCI_Elo=1350) | 2 | 0 | 1/1/0 | 75.0% | +191 (too few games for a 95% interval: 2) |"),
        "{text}"
    );
    assert!(
        text.contains("| 1 | - | < 1541 | < 1541 | chained only |"),
        "{text}"
    );
    assert!(text.contains("| 2 | 1541 ("), "{text}");
    let json: serde_json::Value = serde_json::from_str(&run("json")).unwrap();
    assert_eq!(json["matches"].as_array().unwrap().len(), 2);
    assert_eq!(json["matches"][1]["losses"], 2);
    assert_eq!(json["matches"][1]["repeats"], 1);
    assert!(
        text.contains("(port, depth 2) | 2 | 1 | 0/0/2 | 0.0% |"),
        "{text}"
    );
    let depths = json["depths"].as_array().unwrap();
    assert_eq!(depths.len(), 6);
    let elo2 = depths[1]["combined"]["elo"].as_f64().unwrap();
    assert!((elo2 - 1540.85).abs() < 0.01, "{elo2}");
    assert_eq!(depths[1]["how"], "direct");
    assert_eq!(depths[0]["combined"]["kind"], "below");
    assert!(depths[2]["combined"].is_null());
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.contains("UCI_Elo=1350") && svg.trim_end().ends_with("</svg>"));
    // A file that is no PGN is an error that names it.
    let bad = dir.join("bad.pgn");
    std::fs::write(&bad, "1. e4 e4 *\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sargon"))
        .args(["history", "strength"])
        .arg(&bad)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.pgn"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `history games --estimate-levels` says which level's T-states per evaluation it
/// estimates with, and marks the estimated level in its table, also beside measured levels
/// loaded with it; from lines written before the counts were recorded (replayed on the
/// port) it finds the same T-states per evaluation. (That the estimate is the calibration
/// of the counted lines, move by move, is checked by the unit test
/// `estimated_levels_from_counted_evaluations`.)
#[test]
fn estimated_levels_say_how_they_were_estimated() {
    if common::rom("estimated_levels_say_how_they_were_estimated").is_none() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("sargon-history-estimate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let measured = dir.join("measured.jsonl");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sargon"))
            .args(["history", "games", "--games", "1", "--seed", "5", "--quiet"])
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let _ = std::fs::remove_file(&measured);
    run(&[
        "--levels",
        "1-2",
        "--max-moves",
        "3",
        "--out",
        measured.to_str().unwrap(),
    ]);
    let estimate = |calibration: &std::path::Path, out: &std::path::Path| {
        let _ = std::fs::remove_file(out);
        run(&[
            "--estimate-levels",
            "3",
            "--calibration",
            calibration.to_str().unwrap(),
            "--max-moves",
            "2",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let estimated = dir.join("estimated.jsonl");
    let (table, log) = estimate(&measured, &estimated);
    assert!(log.contains("estimating with level 2's"), "{log}");
    assert!(table.contains("| 3 (estimate) | 1 | 4 (2) |"), "{table}");
    let lines = json_lines(&estimated);
    let per_evaluation = lines[0]["estimate"]["t_states_per_evaluation"]
        .as_f64()
        .unwrap();
    // Loaded together, measured and estimated levels share the table.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sargon"))
        .args(["history", "games", "--quiet", "--load"])
        .args([&measured, &estimated])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let both = String::from_utf8(out.stdout).unwrap();
    assert!(
        both.contains("| 2 | 1 |") && both.contains("| 3 (estimate) | 1 |"),
        "{both}"
    );
    // The same calibration from lines without counts: replayed on the port.
    let old = dir.join("old.jsonl");
    let stripped: String = json_lines(&measured)
        .into_iter()
        .map(|mut g| {
            for m in g["moves"].as_array_mut().unwrap() {
                let m = m.as_object_mut().unwrap();
                m.remove("nodes");
                m.remove("evaluations");
            }
            serde_json::to_string(&g).unwrap() + "\n"
        })
        .collect();
    assert!(!stripped.contains("nodes") && !stripped.contains("evaluations"));
    std::fs::write(&old, stripped).unwrap();
    let (_, log) = estimate(&old, &dir.join("again.jsonl"));
    assert!(
        log.contains(&format!(
            "level 2: {per_evaluation:.0} T-states per evaluation"
        )),
        "{log}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Past its openings, `history games` would replay earlier games (both sides are the same
/// deterministic program): it says so before it plays. The level-1 estimate from the
/// recorded calibration needs no ROM.
#[test]
fn more_games_than_openings_are_announced() {
    let calibration = concat!(env!("CARGO_MANIFEST_DIR"), "/records/history/games.jsonl");
    let run = |games: &str| {
        let out = common::sargon(&[
            "history",
            "games",
            "--estimate-levels",
            "1-1",
            "--max-moves",
            "1",
            "--calibration",
            calibration,
            "--games",
            games,
            "--quiet",
        ]);
        assert!(out.status.success());
        String::from_utf8(out.stderr).unwrap()
    };
    assert!(
        run("13").contains("note: 13 games from 12 openings: game N+12 repeats game N"),
        "the note is missing"
    );
    assert!(!run("12").contains("repeats"));
}
