//! `--accept-different`: a changed copy stored marked unverified, and the results made with
//! it saying so.

use crate::common;

use common::source_edit::with_changed_opcode;

use std::io::Write as _;
use std::process::Command;

use super::copies::{sargon, stored_source, text, workspace};

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
        // The search's line, after the run's plan.
        std::fs::read_to_string(&results)
            .unwrap()
            .lines()
            .last()
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
