//! The UCI commands on the stand-in engine: the handshake, `position` and `go`, book moves,
//! `stop` and `quit`, and input that is refused, malformed, cut or not UTF-8.

use std::io::Cursor;
use std::thread;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Position};

use super::stand_in::{bestmove, session, MIDDLEGAME};

#[test]
fn handshake() {
    let (mut uci, out) = session(1);
    assert!(uci.handle_line("uci"));
    assert!(uci.handle_line("isready"));
    let lines = out.lines();
    assert!(lines[0].starts_with("id name Sargon 1978 ("), "{lines:?}");
    assert_eq!(
        lines[1],
        "id author Dan and Kathe Spracklen (engine); sargon project (Rust)"
    );
    for option in [
        "option name Engine type combo default port var port var emulator",
        "option name FixedDepth type spin default 0 min 0 max 20",
        "option name OwnBook type check default true",
        "option name CarryDepth type check default true",
        "option name MultiPV type spin default 1 min 1 max 32",
        "option name UCI_AnalyseMode type check default false",
        "option name Ponder type check default false",
    ] {
        assert!(lines.iter().any(|l| l == option), "{option}: {lines:?}");
    }
    let ok = lines.iter().position(|l| l == "uciok").unwrap();
    assert!(lines[..ok].iter().all(|l| !l.contains("readyok")));
    assert_eq!(lines.last().unwrap(), "readyok");
    assert!(!uci.handle_line("quit"));
}

#[test]
fn position_and_go_depth() {
    let (mut uci, out) = session(1);
    uci.handle_line(&format!("position fen {MIDDLEGAME} moves e1g1 f8c5"));
    let pos = uci.position().clone();
    assert_eq!(pos.fullmoves().get(), 5);
    uci.handle_line("go depth 3");
    out.wait_for("bestmove", Duration::from_secs(10));
    let lines = out.lines();
    for d in 1..=3 {
        let info = lines
            .iter()
            .find(|l| l.starts_with(&format!("info depth {d} ")))
            .unwrap_or_else(|| panic!("no depth {d}: {lines:?}"));
        for key in [" score cp ", " nodes ", " nps ", " time ", " pv "] {
            assert!(info.contains(key), "{info}");
        }
    }
    assert!(!lines.iter().any(|l| l.starts_with("info depth 4")));
    bestmove(&out, &pos);
}

#[test]
fn book_move_comes_at_once() {
    let (mut uci, out) = session(1000);
    uci.handle_line("position startpos");
    let t0 = Instant::now();
    uci.handle_line("go wtime 60000 btime 60000");
    out.wait_for("bestmove", Duration::from_secs(2));
    assert!(t0.elapsed() < Duration::from_millis(500));
    assert!(out.text().contains("info string book move"));
    // Announced with a depth-0 info line carrying the move as its PV, for analysis panes.
    let m = bestmove(&out, &Chess::default());
    let pv = format!(" pv {}", m.to_uci(shakmaty::CastlingMode::Standard));
    assert!(
        out.lines()
            .iter()
            .any(|l| l.starts_with("info depth 0 ") && l.ends_with(&pv)),
        "{}",
        out.text()
    );
    // With the book off (OwnBook, or Book, its old name), the position is searched.
    for (option, value) in [("OwnBook", "false"), ("Book", "false")] {
        out.clear();
        uci.handle_line("setoption name OwnBook value true");
        uci.handle_line(&format!("setoption name {option} value {value}"));
        uci.handle_line("setoption name FixedDepth value 1");
        uci.handle_line("go");
        out.wait_for("bestmove", Duration::from_secs(5));
        uci.wait();
        assert!(out.text().contains("info depth 1 "), "{}", out.text());
        assert!(!out.text().contains("info string"), "{}", out.text());
    }
    // In analysis mode the book is not used either.
    out.clear();
    uci.handle_line("setoption name OwnBook value true");
    uci.handle_line("setoption name UCI_AnalyseMode value true");
    uci.handle_line("go depth 1");
    out.wait_for("bestmove", Duration::from_secs(5));
    assert!(out.text().contains("info depth 1 "), "{}", out.text());
    assert!(!out.text().contains("book move"), "{}", out.text());
}

/// A GUI's hint pane sends `go` and `stop` together: a book move, which costs no search,
/// is still the answer; out of the book, depth 1 completes first (issue 32 item 4).
#[test]
fn a_book_move_survives_an_immediate_stop() {
    let (mut uci, out) = session(1000);
    uci.handle_line("position startpos moves e2e4");
    uci.handle_line("go movetime 3000");
    uci.handle_line("stop");
    out.wait_for("bestmove", Duration::from_secs(2));
    let text = out.text();
    assert!(text.contains("info string book move"), "{text}");
    assert!(!text.contains("no search depth completed"), "{text}");
    // Out of the book, a stop before depth 1 has completed waits for it: its move is the
    // answer, not the first legal move, which no search chose.
    out.clear();
    uci.handle_line(&format!("position fen {MIDDLEGAME}"));
    uci.handle_line("go movetime 3000");
    uci.handle_line("stop");
    out.wait_for("bestmove", Duration::from_secs(2));
    let text = out.text();
    assert!(text.contains("info depth 1 "), "{text}");
    assert!(!text.contains("first legal move"), "{text}");
}

/// Issue 32 item 4: `stop`, a node limit, FixedDepth or a `go movetime` shorter than depth
/// 1 never get a move no search chose: depth 1 always completes (the stand-in engine plays
/// the first legal move that is no castling, so the answer must come with `info depth 1`).
#[test]
fn depth_one_completes_before_anything_but_the_clock_ends_the_search() {
    // Depth 1 takes 200 ms here.
    let (mut uci, out) = session(200);
    uci.handle_line("setoption name FixedDepth value 6");
    uci.handle_line(&format!("position fen {MIDDLEGAME}"));
    for go in ["go", "go infinite", "go depth 3", "go movetime 10"] {
        out.clear();
        let t0 = Instant::now();
        uci.handle_line(go);
        uci.handle_line("stop");
        out.wait_for("bestmove", Duration::from_secs(5));
        let text = out.text();
        assert!(t0.elapsed() >= Duration::from_millis(200), "{go}: {text}");
        assert!(text.contains("info depth 1 "), "{go}: {text}");
        assert!(!text.contains("info depth 2 "), "{go}: {text}");
        assert!(!text.contains("info depth 6 "), "{go}: {text}");
        assert!(!text.contains("first legal move"), "{go}: {text}");
        bestmove(&out, &uci.position().clone());
    }
    // Without a stop, FixedDepth N searches depth 1, then N.
    let (mut uci, out) = session(1);
    uci.handle_line("setoption name FixedDepth value 3");
    uci.handle_line(&format!("position fen {MIDDLEGAME}"));
    uci.handle_line("go");
    out.wait_for("bestmove", Duration::from_secs(5));
    let depths: Vec<String> = out
        .lines()
        .into_iter()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| l.split(' ').take(3).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(depths, ["info depth 1", "info depth 3"], "{}", out.text());
}

/// `quit` ends the engine at once, depth 1 too; a search cut there answers no move.
#[test]
fn quit_during_depth_one_answers_no_move() {
    let (mut uci, out) = session(2000);
    uci.handle_line(&format!("position fen {MIDDLEGAME}"));
    uci.handle_line("go infinite");
    thread::sleep(Duration::from_millis(50));
    let t0 = Instant::now();
    assert!(!uci.handle_line("quit"));
    assert!(
        t0.elapsed() < Duration::from_millis(500),
        "{:?}",
        t0.elapsed()
    );
    let text = out.text();
    assert!(text.contains("quit before depth 1 completed"), "{text}");
    assert_eq!(
        out.lines().last().map(String::as_str),
        Some("bestmove 0000")
    );
}

#[test]
fn stop_during_infinite() {
    let (mut uci, out) = session(20);
    uci.handle_line(&format!("position fen {MIDDLEGAME}"));
    uci.handle_line("go infinite");
    thread::sleep(Duration::from_millis(300));
    assert!(uci.is_searching());
    assert!(!out.text().contains("bestmove"), "{}", out.text());
    // isready is answered during the search.
    uci.handle_line("isready");
    assert!(out.lines().iter().any(|l| l == "readyok"));
    let t0 = Instant::now();
    uci.handle_line("stop");
    assert!(
        t0.elapsed() < Duration::from_millis(500),
        "{:?}",
        t0.elapsed()
    );
    assert!(!uci.is_searching());
    let pos = uci.position().clone();
    bestmove(&out, &pos);
    assert!(out.text().contains("info depth 2 "), "{}", out.text());
    // The engine is ready for the next search.
    out.clear();
    uci.handle_line("go depth 2");
    out.wait_for("bestmove", Duration::from_secs(5));
    bestmove(&out, &pos);
}

#[test]
fn infinite_waits_for_stop_even_when_done() {
    let (mut uci, out) = session(0);
    uci.handle_line("position fen 8/8/8/8/8/5k2/8/4K3 w - - 0 60");
    uci.handle_line("go infinite");
    thread::sleep(Duration::from_millis(400));
    assert!(!out.text().contains("bestmove"));
    assert!(out.text().contains("info depth 8 "), "{}", out.text());
    uci.handle_line("stop");
    bestmove(&out, &uci.position().clone());
}

#[test]
fn illegal_moves_and_garbage_are_explained() {
    let (mut uci, out) = session(0);
    uci.handle_line("position startpos moves e2e4 e7e5 e4e5 d7d5");
    let lines = out.lines();
    assert!(
        lines[0].starts_with("info string position refused: move 3 `e4e5` is illegal"),
        "{lines:?}"
    );
    out.clear();
    for garbage in [
        "fly me to the moon",
        "position",
        "position fen",
        "position fen 8/8/8 w",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "go depth banana",
        "setoption name Colour value blue",
        "setoption name FixedDepth value deep",
        "setoption",
        "\u{1F600}",
    ] {
        assert!(uci.handle_line(garbage));
        uci.wait();
    }
    let lines = out.lines();
    assert!(lines.len() >= 9, "{lines:?}");
    assert!(
        lines
            .iter()
            .filter(|l| !l.starts_with("bestmove"))
            .all(|l| l.starts_with("info string ")),
        "{lines:?}"
    );
    // The position is still the refused one: "go depth banana" played nothing.
    assert!(lines.iter().any(|l| l == "bestmove 0000"), "{lines:?}");
    assert!(uci.position_problem().is_some());
}

#[test]
fn no_move_is_played_for_a_position_nobody_set() {
    let (mut uci, out) = session(0);
    // An illegal last move (a bishop to c9), then an invalid FEN: each go answers 0000.
    for bad in [
        "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c9",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    ] {
        out.clear();
        uci.handle_line("position startpos moves e2e4");
        uci.handle_line(bad);
        for _ in 0..2 {
            uci.handle_line("go depth 2");
            uci.wait();
        }
        let lines = out.lines();
        let answers: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(answers, ["bestmove 0000", "bestmove 0000"], "{lines:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string go: no valid position (")),
            "{lines:?}"
        );
    }
    // A valid position ends it.
    out.clear();
    uci.handle_line("position startpos moves e2e4 e7e5");
    uci.handle_line("go depth 1");
    out.wait_for("bestmove", Duration::from_secs(5));
    uci.wait();
    let pos = uci.position().clone();
    assert_eq!(pos.turn(), shakmaty::Color::White);
    bestmove(&out, &pos);
}

#[test]
fn malformed_go_words_are_named_and_the_rest_applies() {
    let (mut uci, out) = session(1);
    uci.handle_line(&format!("position fen {MIDDLEGAME}"));
    uci.handle_line("go movetime abc depth 2");
    out.wait_for("bestmove", Duration::from_secs(5));
    uci.wait();
    let text = out.text();
    assert!(
        text.contains("info string go movetime `abc`: not"),
        "{text}"
    );
    assert!(
        text.contains("info depth 2 ") && !text.contains("info depth 3 "),
        "{text}"
    );
    out.clear();
    uci.handle_line("go depth -1 movetime 100");
    out.wait_for("bestmove", Duration::from_secs(5));
    uci.wait();
    assert!(
        out.text().contains("info string go depth `-1`: not"),
        "{}",
        out.text()
    );
}

#[test]
fn echoed_input_is_cut_and_escaped() {
    let (mut uci, out) = session(1);
    let long = format!("{}\u{1b}[2J", "x".repeat(5000));
    uci.handle_line(&long);
    uci.handle_line(&format!("position fen {long}"));
    uci.handle_line(&format!("setoption name {long} value 1"));
    let lines = out.lines();
    assert_eq!(lines.len(), 3, "{lines:?}");
    for l in &lines {
        assert!(l.chars().count() < 400, "{} characters: {l:.200}", l.len());
        assert!(!l.contains('\u{1b}'), "{l:.200}");
        assert!(l.contains("more characters"), "{l:.300}");
    }
}

/// A line of megabytes (a GUI or a pipe gone wrong) is read up to 64 KB, with one info
/// string, and the session goes on; a line that is not UTF-8 is named and skipped.
/// (What a cut `position` or `go` gets: `a_cut_or_unreadable_line_is_refused_whole`.)
#[test]
fn a_huge_line_is_cut_and_the_session_goes_on() {
    let (mut uci, out) = session(1);
    let mut input = format!("position fen {}\n", "x".repeat(4 << 20)).into_bytes();
    input.extend_from_slice(b"\xff\xfe\n");
    input.extend_from_slice(b"isready\n");
    uci.run(std::io::Cursor::new(input)).unwrap();
    let lines = out.lines();
    let cut: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains("longer than 64 KB"))
        .collect();
    assert_eq!(cut.len(), 1, "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("not UTF-8")), "{lines:?}");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("readyok"),
        "{lines:?}"
    );
    assert!(lines.iter().all(|l| l.len() < 1000), "every answer short");
}

/// Issue 32 item 6: a `position ... moves` line over 64 KB is not cut at a move boundary
/// and the shorter game searched: the line is refused whole, and the next `go` answers
/// `bestmove 0000` as after any refused position. A cut `go` is not searched, and a line
/// that is not UTF-8 is refused the same way.
#[test]
fn a_cut_or_unreadable_line_is_refused_whole() {
    let (mut uci, out) = session(1);
    // Spaced so that the first 64 KB end after a whole move: the cut game is a legal one.
    let moves = ["g1f3", "g8f6", "f3g1", "f6g8"].repeat(4000).join(" ");
    let mut input = format!("position startpos   moves {moves}\ngo depth 1\n").into_bytes();
    input.extend_from_slice(b"position startpos\n");
    input.extend_from_slice(format!("go depth 1 {}\n", "x ".repeat(40_000)).as_bytes());
    input.extend_from_slice(b"position startpos moves e2e4 e7e5 \xff\ngo depth 1\n");
    input.extend_from_slice(b"go \xff depth 1\n");
    uci.run(Cursor::new(input)).unwrap();
    let lines = out.lines();
    let answers: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(answers, ["bestmove 0000"; 4], "{lines:?}");
    for said in [
        "info string position refused: its line is longer than 64 KB; every go answers \
         bestmove 0000 until a valid position",
        "info string go: no valid position (its line is longer than 64 KB)",
        "info string go refused: its line is longer than 64 KB; no search",
        "info string position refused: its line is not UTF-8",
        "info string go refused: its line is not UTF-8; no search",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(said)),
            "{said}: {lines:?}"
        );
    }
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
}

#[test]
fn depth_beyond_the_engine_is_said() {
    let (mut uci, out) = session(0);
    uci.handle_line(&format!("position fen {MIDDLEGAME}"));
    uci.handle_line("go depth 30");
    out.wait_for("bestmove", Duration::from_secs(5));
    uci.wait();
    let text = out.text();
    assert!(
        text.contains("info string depth 30 is beyond this engine's maximum: searching to depth 8"),
        "{text}"
    );
    assert!(text.contains("info depth 8 "), "{text}");
}

#[test]
fn an_unknown_searchmove_is_named() {
    let (mut uci, out) = session(0);
    uci.handle_line(&format!("position fen {MIDDLEGAME}"));
    uci.handle_line("go depth 1 searchmoves e2e4 a2a3");
    out.wait_for("bestmove", Duration::from_secs(3));
    uci.wait();
    let text = out.text();
    assert!(
        text.contains("go searchmoves e2e4: not legal here; ignored"),
        "{text}"
    );
}

#[test]
fn no_legal_move_is_0000() {
    let (mut uci, out) = session(1);
    // Fool's mate: White is checkmated.
    uci.handle_line("position startpos moves f2f3 e7e5 g2g4 d8h4");
    uci.handle_line("go depth 3");
    out.wait_for("bestmove", Duration::from_secs(2));
    assert!(out.lines().iter().any(|l| l == "bestmove 0000"));
}

#[test]
fn scripted_stream_to_the_end() {
    let (mut uci, out) = session(1);
    let script = "uci\nisready\nucinewgame\nposition startpos moves d2d4 d7d5\ngo depth 2\n";
    uci.run(Cursor::new(script)).unwrap();
    let pos = uci.position().clone();
    bestmove(&out, &pos);
    assert!(out.text().contains("uciok\nreadyok\n"), "{}", out.text());
    // quit during an infinite search stops it.
    let (mut uci, out) = session(50);
    let script = "position startpos moves d2d4 d7d5\ngo infinite\nquit\ngo depth 1\n";
    uci.run(Cursor::new(script)).unwrap();
    assert_eq!(
        out.lines()
            .iter()
            .filter(|l| l.starts_with("bestmove"))
            .count(),
        1
    );
}
