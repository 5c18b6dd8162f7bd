//! `sargon diff` end to end: the original and the port on the same searches.

mod common;

use std::process::Command;

fn sargon() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sargon"))
}

#[test]
fn agreement_is_summarised_and_exits_zero() {
    if common::rom("agreement_is_summarised_and_exits_zero").is_none() {
        return;
    }
    let out = sargon()
        .args([
            "diff",
            "startpos",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 30",
            "--depths",
            "1-3",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = stdout.lines().last().unwrap();
    assert!(
        line.starts_with("positions: 2, searches: 6, events compared: "),
        "{line}"
    );
    assert!(line.ends_with("divergences: 0"), "{line}");
}

#[test]
fn bad_requests_get_clear_errors() {
    // Depth beyond the original's tables (this fails before any ROM is needed only for the
    // port; with the emulator it names the limit).
    let out = sargon()
        .args(["diff", "startpos", "--depths", "3-1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad depth range"));
    let out = sargon()
        .args(["diff", "not a fen", "--depth", "1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid FEN"));
    if common::rom("bad_requests_get_clear_errors (depth limit)").is_some() {
        let out = sargon()
            .args(["diff", "startpos", "--depth", "7"])
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("outside the emulator engine's range 1..=6"),
            "{err}"
        );
    }
}
