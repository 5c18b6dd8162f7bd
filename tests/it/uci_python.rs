//! `sargon uci` end to end with a real UCI client: python-chess plays, analyses and stops
//! Sargon through the protocol (tests/uci/test_uci.py). The engine is `SARGON_UCI_ENGINE`
//! (`port` by default, or `emulator`, skipped where no ROM is imported). Skipped with a
//! clear line where python3 or the `chess` package is missing (a failure under
//! `SARGON_PYTHON_CHESS_TEST=required`).

use crate::common;

use std::process::Command;

#[test]
fn python_chess_drives_sargon() {
    if !common::python_chess("python_chess_drives_sargon") {
        return;
    }
    let kind = std::env::var("SARGON_UCI_ENGINE").unwrap_or_else(|_| "port".into());
    if kind == "emulator" && common::rom("python_chess_drives_sargon").is_none() {
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/uci/test_uci.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_sargon"))
        .env("SARGON_UCI_ENGINE", &kind)
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    eprintln!("{stderr}");
    assert!(out.status.success(), "test_uci.py failed ({})", out.status);
    assert!(stdout.contains("all UCI checks passed"));
}

/// tests/pychess/check_uci_conventions.py: OwnBook, MultiPV, searchmoves, analysis mode,
/// pondering and the hardening cases, through python-chess (and raw lines where
/// python-chess would never send what is tested).
#[test]
fn python_chess_uci_conventions() {
    if !common::python_chess("python_chess_uci_conventions") {
        return;
    }
    let kind = std::env::var("SARGON_UCI_ENGINE").unwrap_or_else(|_| "port".into());
    if kind == "emulator" && common::rom("python_chess_uci_conventions").is_none() {
        return;
    }
    let empty = tempfile::tempdir().unwrap();
    common::pychess_check(
        "check_uci_conventions.py",
        &[
            env!("CARGO_BIN_EXE_sargon"),
            &kind,
            empty.path().to_str().unwrap(),
        ],
        "all UCI convention checks passed",
    );
}
