//! A budget on every emulator run (issue 21 item 4), progress (issue 32 item 10): an image
//! that never returns is stopped.

use crate::common;

use common::source_edit::label_of;

use std::io::Write as _;
use std::process::Command;

use super::copies::{line_after, sargon, stored_source, text, with_line_changed, workspace};

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
