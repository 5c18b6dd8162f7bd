//! `sargon uci` as a GUI drives it (issue 32 items 4 and 6): a search request always
//! answers with a move a search chose, or `bestmove 0000`; the one exception, a clock too
//! short for depth 1, is said. `docs/uci.md` and `docs/reliability.md` ("uci (round
//! three)") state the rules.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::common;

use super::ITALIAN;

/// A `sargon uci` process (with `args` before and after `uci`) whose output lines arrive
/// on a channel as they are written.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    seen: Vec<String>,
}

impl Engine {
    fn start(before: &[&str], after: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sargon"))
            .args(before)
            .arg("uci")
            .args(after)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("sargon starts");
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if send.send(line).is_err() {
                    return;
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The lines up to and with the next `bestmove`, or a panic after `limit`.
    fn until_bestmove(&mut self, limit: Duration) -> Vec<String> {
        let t0 = Instant::now();
        let mut got = Vec::new();
        loop {
            let left = limit.saturating_sub(t0.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with("bestmove");
                    got.push(line);
                    if done {
                        self.seen.extend(got.iter().cloned());
                        return got;
                    }
                }
                Err(_) => {
                    let _ = self.child.kill();
                    panic!(
                        "no bestmove within {limit:?}; got {got:?}, before {:?}",
                        self.seen
                    );
                }
            }
        }
    }

    fn quit(mut self) {
        self.send("quit");
        drop(self.stdin.take());
        let t0 = Instant::now();
        while self.child.try_wait().unwrap().is_none() {
            if t0.elapsed() > Duration::from_secs(30) {
                let _ = self.child.kill();
                panic!("sargon uci still running 30 s after quit");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// The answer's move, and the first move of the last `info depth` line's PV.
fn answer_and_searched(lines: &[String]) -> (String, Option<String>) {
    let best = lines.last().unwrap().split(' ').nth(1).unwrap().to_string();
    let searched = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .and_then(|l| l.split(" pv ").nth(1))
        .map(|pv| pv.split(' ').next().unwrap().to_string());
    (best, searched)
}

/// Issue 32 item 4: FixedDepth 9, `go`, `stop` a second later played `bestmove a2a3`, the
/// first legal move, unsearched; `go nodes 1` too. Now depth 1 completes first, and its
/// move is the answer.
#[test]
fn stop_a_node_limit_or_fixed_depth_never_get_an_unsearched_move() {
    let mut engine = Engine::start(&[], &[]);
    engine.send("setoption name FixedDepth value 9");
    engine.send(&format!("position fen {ITALIAN}"));
    let mut answers = Vec::new();
    engine.send("go");
    std::thread::sleep(Duration::from_secs(1));
    engine.send("stop");
    answers.push((
        "FixedDepth 9, go, stop",
        engine.until_bestmove(Duration::from_secs(30)),
    ));
    engine.send("go nodes 1");
    answers.push((
        "FixedDepth 9, go nodes 1",
        engine.until_bestmove(Duration::from_secs(30)),
    ));
    engine.send("setoption name FixedDepth value 0");
    engine.send("go nodes 1");
    answers.push(("go nodes 1", engine.until_bestmove(Duration::from_secs(30))));
    engine.send("go infinite");
    engine.send("stop");
    answers.push((
        "go infinite, stop at once",
        engine.until_bestmove(Duration::from_secs(30)),
    ));
    engine.quit();
    for (what, lines) in answers {
        let (best, searched) = answer_and_searched(&lines);
        assert!(
            lines.iter().any(|l| l.starts_with("info depth 1 ")),
            "{what}: {lines:?}"
        );
        assert_eq!(
            Some(best),
            searched,
            "{what}: the move of a search: {lines:?}"
        );
        assert!(
            !lines.iter().any(|l| l.contains("first legal move")),
            "{what}: {lines:?}"
        );
    }
}

/// Issue 32 item 4: `quit` ends the engine at once, whatever it searches.
#[test]
fn quit_ends_the_engine_at_once() {
    let mut engine = Engine::start(&[], &[]);
    engine.send(&format!("position fen {ITALIAN}"));
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let t0 = Instant::now();
    engine.quit();
    assert!(t0.elapsed() < Duration::from_secs(2), "{:?}", t0.elapsed());
}

/// Issue 32 item 6: a `position ... moves` line over 64 KB was cut at a move boundary and
/// the shorter game searched. The line is refused whole: an `info string`, and the next
/// `go` answers `bestmove 0000` as after any refused position. A `go` line over 64 KB is
/// not searched either.
#[test]
fn a_position_line_over_64_kb_is_refused_not_cut() {
    let mut engine = Engine::start(&[], &[]);
    // 16,000 knight moves there and back: a legal game, 80 KB long, spaced so that its
    // first 64 KB end after a whole move (the cut game is a legal one too).
    let moves = ["g1f3", "g8f6", "f3g1", "f6g8"].repeat(4000).join(" ");
    engine.send(&format!("position startpos   moves {moves}"));
    engine.send("go depth 1");
    let lines = engine.until_bestmove(Duration::from_secs(30));
    assert_eq!(lines.last().unwrap(), "bestmove 0000", "{lines:?}");
    assert!(
        lines[0].starts_with("info string position refused: its line is longer than 64 KB"),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    // A valid position is searched again; a `go` over 64 KB is not.
    engine.send("position startpos moves e2e4 e7e5");
    engine.send(&format!("go depth 1 {}", "searchmoves ".repeat(6000)));
    let lines = engine.until_bestmove(Duration::from_secs(30));
    assert_eq!(
        lines,
        [
            "info string go refused: its line is longer than 64 KB; no search",
            "bestmove 0000"
        ]
    );
    engine.send("go depth 1");
    let lines = engine.until_bestmove(Duration::from_secs(30));
    assert_ne!(lines.last().unwrap(), "bestmove 0000", "{lines:?}");
    engine.quit();
}

/// Issue 32 item 4: a runaway image under `go movetime` answered the first legal move (the
/// time ran out before the runaway was found); it answers `bestmove 0000`, as under
/// `go depth`, because depth 1 is not cut by a `go movetime`.
#[test]
fn a_runaway_image_under_movetime_answers_no_move() {
    let test = "a_runaway_image_under_movetime_answers_no_move";
    let Some(rom) = common::rom(test) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let store = common::store_with_runaway_image(&rom, dir.path(), "loops");
    let mut engine = Engine::start(
        &["--roms", &store],
        &["--engine", "emulator", "--rom", "loops"],
    );
    engine.send(&format!("position fen {ITALIAN}"));
    engine.send("go movetime 1000");
    let lines = engine.until_bestmove(Duration::from_secs(600));
    engine.quit();
    assert!(
        lines.iter().any(|l| l.contains("runaway emulation")),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "bestmove 0000", "{lines:?}");
}
