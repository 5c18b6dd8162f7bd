//! Where the ROM is stored: `rom verify` where the verdict cannot be recorded (issue 21
//! item 7), and an allowed difference named wherever the ROM is (issue 25).

use crate::common;

use common::source_edit::with_changed_table;

use std::process::Command;

use super::copies::{sargon, stored_source, text, workspace};

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
