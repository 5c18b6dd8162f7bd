//! `sargon diff --state`: the original and the port compared by all of Sargon's data at
//! every point where an event arises (docs/port.md, "The whole state").

use crate::common;

const ITALIAN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";
/// A position with an en passant capture to replay at set-up (VALMOV's own move list).
const EN_PASSANT: &str = "2bqk3/2rpn1r1/1p2p2p/p4Q2/P4pP1/2NR1P1N/1PP1P3/4KB1R b K g3 0 23";

fn run(args: &[&str]) -> (bool, String, String) {
    let out = common::sargon(args);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn two_ports_have_the_same_state_everywhere() {
    let (ok, out, err) = run(&[
        "diff", "--left", "port", "--right", "port", "--state", "startpos", ITALIAN, "--depths",
        "1-2",
    ]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("state: 4 searches, "), "{out}");
    assert!(out.contains(" 0 with a difference"), "{out}");
}

#[test]
fn the_original_and_the_port_have_the_same_state_everywhere() {
    if common::rom("the_original_and_the_port_have_the_same_state_everywhere").is_none() {
        return;
    }
    let (ok, out, err) = run(&[
        "diff",
        "--state",
        "startpos",
        ITALIAN,
        EN_PASSANT,
        "--depths",
        "1-2",
        "--no-book",
    ]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("state: 6 searches, "), "{out}");
    assert!(out.contains("left out: PLYIX+32, PLYIX+33"), "{out}");
    assert!(out.contains(" 0 with a difference"), "{out}");
    // Without the documented exclusion, the ply table's last bytes differ, by name, at the
    // first snapshot: the original's display data is assembled over them.
    let (ok, out, err) = run(&[
        "diff",
        "--state",
        "--state-skip",
        "none",
        "startpos",
        "--depth",
        "1",
        "--no-book",
    ]);
    assert!(!ok);
    assert!(out.contains("1 with a difference"), "{out}");
    assert!(err.contains("first difference at snapshot 0"), "{err}");
    assert!(err.contains("PLYIX+32 is -> "), "{err}");
    assert!(err.contains("on the emulator and null"), "{err}");
}

#[test]
fn state_is_for_engines_only() {
    let (ok, _, err) = run(&[
        "diff",
        "--state",
        "--right",
        "exec:true",
        "startpos",
        "--depth",
        "1",
        "--left",
        "port",
    ]);
    assert!(!ok);
    // One sentence naming what the engine lacks, before any search.
    assert!(
        err.contains(
            "diff --state (it compares two engines' memories) needs Sargon's data area, \
             which the engine `exec:true` does not have"
        ),
        "{err}"
    );
    let (ok, _, err) = run(&[
        "diff",
        "--state",
        "--out",
        "/tmp/x.jsonl",
        "startpos",
        "--depth",
        "1",
        "--no-book",
    ]);
    assert!(!ok);
    assert!(err.contains("--out"), "{err}");
}
