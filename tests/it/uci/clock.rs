//! Time management on the stand-in engine: `go movetime`, the clock's budget and hard
//! limit, and `go ponder` answering only after `ponderhit` or `stop`.

use std::thread;
use std::time::{Duration, Instant};

use super::stand_in::{bestmove, session, MIDDLEGAME};

#[test]
fn ponder_answers_only_after_ponderhit_or_stop() {
    for end in ["ponderhit", "stop"] {
        let (mut uci, out) = session(1);
        uci.handle_line(&format!("position fen {MIDDLEGAME}"));
        uci.handle_line("go ponder wtime 2000 btime 2000");
        thread::sleep(Duration::from_millis(300));
        assert!(uci.is_searching());
        assert!(!out.text().contains("bestmove"), "{}", out.text());
        let t0 = Instant::now();
        uci.handle_line(end);
        out.wait_for("bestmove", Duration::from_secs(3));
        // After ponderhit the clock applies: 2 s left, so well under a second.
        assert!(
            t0.elapsed() < Duration::from_millis(1500),
            "{end}: {:?}",
            t0.elapsed()
        );
        uci.wait();
        bestmove(&out, &uci.position().clone());
    }
    let (mut uci, out) = session(1);
    uci.handle_line("ponderhit");
    assert!(out.text().contains("ponderhit ignored: not pondering"));
}

#[test]
fn movetime_is_kept() {
    // Depths take 10, 40, 160, 640 ms...: with 400 ms, depth 3 ends near 210 ms, and depth
    // 4 (predicted 640 ms) is not started.
    let (mut uci, out) = session(10);
    uci.handle_line(&format!("position fen {MIDDLEGAME}"));
    let t0 = Instant::now();
    uci.handle_line("go movetime 400");
    out.wait_for("bestmove", Duration::from_secs(5));
    let took = t0.elapsed();
    assert!(took < Duration::from_millis(400), "{took:?}");
    let text = out.text();
    assert!(text.contains("info depth 3 "), "{text}");
    assert!(!text.contains("info depth 4 "), "{text}");
    bestmove(&out, &uci.position().clone());
}

#[test]
fn the_clock_is_never_exceeded() {
    // Depth 1 alone takes 300 ms: with 200 ms left, it is stopped at the clock's hard
    // limit and the first legal move is played in time (the one case of a move no search
    // chose, said in an info string).
    let (mut uci, out) = session(300);
    uci.handle_line(&format!("position fen {MIDDLEGAME}"));
    let t0 = Instant::now();
    uci.handle_line("go wtime 200 btime 200");
    out.wait_for("bestmove", Duration::from_secs(5));
    assert!(
        t0.elapsed() < Duration::from_millis(200),
        "{:?}",
        t0.elapsed()
    );
    assert!(
        out.text()
            .contains("info string the clock's hard limit (18 ms) came before depth 1 completed"),
        "{}",
        out.text()
    );
    bestmove(&out, &uci.position().clone());
    // With a comfortable clock, several depths, and still within the budget.
    let (mut uci, out) = session(5);
    uci.handle_line(&format!("position fen {MIDDLEGAME}"));
    let t0 = Instant::now();
    uci.handle_line("go wtime 10000 btime 10000 winc 100 binc 100");
    out.wait_for("bestmove", Duration::from_secs(10));
    assert!(
        t0.elapsed() < Duration::from_millis(2000),
        "{:?}",
        t0.elapsed()
    );
    assert!(out.text().contains("info depth 3 "), "{}", out.text());
}
