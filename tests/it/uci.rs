//! The UCI protocol driven with scripted input, its output checked.
//!
//! Most tests run on a stand-in engine (it plays the first legal move after a delay that
//! grows with the depth, and honours the stop flag), so that the protocol, the clock and
//! `stop` are tested exactly and everywhere. The tests at the end run the real engine chosen
//! by `SARGON_UCI_ENGINE` (`port` by default, or `emulator`, which needs an imported ROM
//! and is skipped without one).

use crate::common;

use std::io::{self, Cursor, Write};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position};

use sargon_core::engine::{Capabilities, Engine, SearchError, SearchOptions, SearchOutcome};
use sargon_core::hooks::Hooks;
use sargon_core::position::{self, Setup};
use sargon_core::vocab::{flag, SMove, Score, Sq};
use sargon_tools::engines::{EngineSpec, OpenOptions};
use sargon_tools::uci::{EngineFactory, Settings, Uci};

/// What the session wrote, shared with the test.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Sink {
    fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
    fn lines(&self) -> Vec<String> {
        self.text().lines().map(str::to_string).collect()
    }
    fn clear(&self) {
        self.0.lock().unwrap().clear();
    }
    /// Wait until `count` lines start with `prefix`.
    fn wait_for_count(&self, prefix: &str, count: usize, timeout: Duration) {
        let t0 = Instant::now();
        while t0.elapsed() < timeout {
            if self
                .lines()
                .iter()
                .filter(|l| l.starts_with(prefix))
                .count()
                >= count
            {
                return;
            }
            thread::sleep(Duration::from_millis(2));
        }
        panic!(
            "no {count} `{prefix}` within {timeout:?}; output:\n{}",
            self.text()
        );
    }

    /// Wait until a line starting with `prefix` appears; the time it took.
    fn wait_for(&self, prefix: &str, timeout: Duration) -> Duration {
        let t0 = Instant::now();
        while t0.elapsed() < timeout {
            if self.lines().iter().any(|l| l.starts_with(prefix)) {
                return t0.elapsed();
            }
            thread::sleep(Duration::from_millis(2));
        }
        panic!("no `{prefix}` within {timeout:?}; output:\n{}", self.text());
    }
}

/// A stand-in engine: depth d takes `base * 4^(d-1)`, then the first legal move (the book
/// move at once in a book position).
struct Fake {
    base: Duration,
}

impl Engine for Fake {
    fn id(&self) -> String {
        "fake".into()
    }
    fn max_depth(&self) -> u8 {
        8
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities::hooked(false, false)
    }
    fn search(
        &mut self,
        setup: &Setup,
        opts: &SearchOptions,
        _hooks: &mut Hooks,
    ) -> Result<SearchOutcome, SearchError> {
        self.check_depth(opts.depth)?;
        let from_book = setup.plays_from_book();
        if !from_book {
            let t = self.base * 4u32.pow(u32::from(opts.depth) - 1);
            let t0 = Instant::now();
            while t0.elapsed() < t {
                if opts.stop_requested() {
                    return Err(SearchError::Stopped);
                }
                thread::sleep(Duration::from_micros(300));
            }
        }
        let m = setup
            .position
            .legal_moves()
            .into_iter()
            .find(|m| !m.is_castle())
            .expect("a test position with a move");
        let best = SMove {
            from: Sq::from_shakmaty(m.from().unwrap()),
            to: Sq::from_shakmaty(m.to()),
            flags: if m.is_promotion() { flag::PROMOTE } else { 0 },
        };
        Ok(SearchOutcome {
            best: Some(best),
            root_score: Score(0x88),
            from_book,
            stats: Default::default(),
        })
    }
}

fn fake_factory(base_ms: u64) -> EngineFactory {
    Box::new(move |_kind| {
        Ok(Box::new(Fake {
            base: Duration::from_millis(base_ms),
        }) as Box<dyn Engine + Send>)
    })
}

fn session(base_ms: u64) -> (Uci<Sink>, Sink) {
    let sink = Sink::default();
    let uci = Uci::new(fake_factory(base_ms), sink.clone(), Settings::default());
    (uci, sink)
}

/// The move of the `bestmove` line, checked legal in `pos`.
fn bestmove(sink: &Sink, pos: &Chess) -> Move {
    let lines = sink.lines();
    let line = lines
        .iter()
        .find(|l| l.starts_with("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove in:\n{}", sink.text()));
    let uci: UciMove = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    uci.to_move(pos)
        .unwrap_or_else(|_| panic!("{line} is not legal in {}", position::fen_of(pos)))
}

const MIDDLEGAME: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

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

#[test]
fn fixed_depth_option() {
    let (mut uci, out) = session(1);
    uci.handle_line("setoption name FixedDepth value 3");
    uci.handle_line(&format!("position fen {MIDDLEGAME}"));
    uci.handle_line("go depth 6");
    out.wait_for("bestmove", Duration::from_secs(5));
    let infos: Vec<String> = out
        .lines()
        .into_iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    // Depth 1 first, so that a `stop` would find a searched move (issue 32 item 4).
    assert_eq!(infos.len(), 2, "{infos:?}");
    assert!(infos[0].starts_with("info depth 1 "));
    assert!(infos[1].starts_with("info depth 3 "));
}

#[test]
fn engine_that_cannot_start_answers_0000() {
    let sink = Sink::default();
    let factory: EngineFactory = Box::new(|_| anyhow::bail!("no engine today"));
    let mut uci = Uci::new(factory, sink.clone(), Settings::default());
    assert!(uci.open_engine().is_err());
    uci.handle_line("isready");
    uci.handle_line("position startpos moves e2e4");
    uci.handle_line("go depth 2");
    sink.wait_for("bestmove", Duration::from_secs(2));
    let text = sink.text();
    assert!(
        text.contains("info string cannot start the port engine: no engine today"),
        "{text}"
    );
    assert!(text.contains("bestmove 0000"), "{text}");
    // The reason is told once per cause: not again at every isready and go.
    let tries = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = tries.clone();
    let sink = Sink::default();
    let factory: EngineFactory = Box::new(move |_| {
        counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        anyhow::bail!("no engine today\nsecond line of the reason")
    });
    let mut uci = Uci::new(factory, sink.clone(), Settings::default());
    uci.handle_line("position startpos moves e2e4");
    for n in 1..=3 {
        uci.handle_line("isready");
        uci.handle_line("go depth 2");
        sink.wait_for_count("bestmove", n, Duration::from_secs(2));
    }
    let text = sink.text();
    assert_eq!(text.matches("no engine today").count(), 1, "{text}");
    assert_eq!(text.matches("bestmove 0000").count(), 3, "{text}");
    assert_eq!(
        text.matches("go: the port engine cannot start (the reason was given above)")
            .count(),
        3,
        "{text}"
    );
    assert_eq!(tries.load(std::sync::atomic::Ordering::SeqCst), 1);
    // Asking for the engine again tries it again, and tells the reason again.
    uci.handle_line("setoption name Engine value port");
    assert_eq!(tries.load(std::sync::atomic::Ordering::SeqCst), 2);
    assert_eq!(sink.text().matches("no engine today").count(), 2);
}

#[test]
fn fixed_depth_under_a_node_limit_plays_a_searched_move() {
    // FixedDepth 6 and go nodes 100: depth 1 (about 30 positions) completes, depth 6 does
    // not; the move played is depth 1's, not the first legal move.
    let Some(kind) = real_engine("fixed_depth_under_a_node_limit_plays_a_searched_move") else {
        return;
    };
    let (mut uci, out) = real_session(kind);
    uci.handle_line("setoption name FixedDepth value 6");
    uci.handle_line(&format!("position fen {MIDDLEGAME}"));
    uci.handle_line("go nodes 100");
    out.wait_for("bestmove", Duration::from_secs(20));
    let text = out.text();
    assert!(text.contains("info depth 1 "), "{text}");
    assert!(!text.contains("first legal move"), "{text}");
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

// The real engines.

/// The engine the real-engine tests use: `SARGON_UCI_ENGINE`, `port` by default.
fn real_engine(test: &str) -> Option<EngineSpec> {
    let kind: EngineSpec = std::env::var("SARGON_UCI_ENGINE")
        .unwrap_or_else(|_| "port".into())
        .parse()
        .expect("SARGON_UCI_ENGINE: port or emulator");
    if kind == EngineSpec::EMULATOR {
        common::rom(test)?;
    }
    Some(kind)
}

fn real_session(kind: EngineSpec) -> (Uci<Sink>, Sink) {
    let sink = Sink::default();
    let store = sargon_original::rom::RomStore::open(None);
    let options = OpenOptions {
        store,
        timeout: sargon_tools::external::DEFAULT_TIMEOUT,
    };
    let factory: EngineFactory =
        Box::new(move |spec| Ok(sargon_tools::engines::open(spec, &options)?.engine));
    let settings = Settings {
        engine: kind,
        // currmove lines from the start, for the test that counts them.
        currmove_after: Duration::ZERO,
        ..Settings::default()
    };
    (Uci::new(factory, sink.clone(), settings), sink)
}

#[test]
fn real_engine_depth_and_mate() {
    let Some(kind) = real_engine("real_engine_depth_and_mate") else {
        return;
    };
    let (mut uci, out) = real_session(kind);
    uci.handle_line("uci");
    uci.handle_line("isready");
    out.wait_for("readyok", Duration::from_secs(10));
    uci.handle_line(&format!("position fen {MIDDLEGAME}"));
    uci.handle_line("go depth 2");
    out.wait_for("bestmove", Duration::from_secs(120));
    uci.wait();
    let text = out.text();
    println!("{text}");
    assert!(text.contains("info depth 2 score cp "), "{text}");
    // Each root move is announced as Sargon starts on it (from depth 2).
    let numbers: Vec<u32> = text
        .lines()
        .filter(|l| l.starts_with("info currmove "))
        .map(|l| l.rsplit(' ').next().unwrap().parse().unwrap())
        .collect();
    assert!(numbers.len() > 10 && numbers[0] == 1, "{text}");
    assert!(numbers.windows(2).all(|w| w[1] == w[0] + 1), "{numbers:?}");
    bestmove(&out, &uci.position().clone());
    // A mate in two (the README's position): Sargon finds it at depth 3.
    out.clear();
    uci.handle_line("position fen r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - 0 20");
    uci.handle_line("go depth 3");
    out.wait_for("bestmove", Duration::from_secs(120));
    uci.wait();
    let text = out.text();
    println!("{text}");
    assert!(text.contains("score mate 2 "), "{text}");
    assert!(text.contains("bestmove d2d8"), "{text}");
}

#[test]
fn real_engine_stops_promptly() {
    let Some(kind) = real_engine("real_engine_stops_promptly") else {
        return;
    };
    let (mut uci, out) = real_session(kind);
    uci.handle_line(&format!("position fen {MIDDLEGAME}"));
    uci.handle_line("go infinite");
    out.wait_for("info depth 1 ", Duration::from_secs(60));
    thread::sleep(Duration::from_millis(200));
    let t0 = Instant::now();
    uci.handle_line("stop");
    let took = t0.elapsed();
    println!("{}stop answered in {took:?}", out.text());
    assert!(took < Duration::from_millis(500), "{took:?}");
    bestmove(&out, &uci.position().clone());
    // And plays on afterwards.
    out.clear();
    uci.handle_line("position startpos moves e2e4 c7c5");
    uci.handle_line("go movetime 300");
    out.wait_for("bestmove", Duration::from_secs(10));
    bestmove(&out, &uci.position().clone());
}

/// The `info depth` lines of a session's output without what depends on the clock (`nps`,
/// `time`) and without `currmove` lines.
fn search_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let mut kept = Vec::new();
            let mut i = 0;
            while i < words.len() {
                if words[i] == "nps" || words[i] == "time" {
                    i += 2;
                    continue;
                }
                kept.push(words[i]);
                i += 1;
            }
            kept.join(" ")
        })
        .collect()
}

/// MultiPV 3 and a searchmoves search at depth 2 on `kind`: the search lines and the
/// bestmoves.
fn multipv_and_searchmoves(kind: EngineSpec) -> (Vec<String>, Vec<String>) {
    let (mut uci, out) = real_session(kind.clone());
    uci.handle_line(&format!("position fen {MIDDLEGAME}"));
    uci.handle_line("setoption name MultiPV value 3");
    uci.handle_line("go depth 2");
    out.wait_for("bestmove", Duration::from_secs(300));
    uci.wait();
    uci.handle_line("setoption name MultiPV value 1");
    uci.handle_line("go depth 2 searchmoves a2a3 h2h4 e1g1");
    out.wait_for_count("bestmove", 2, Duration::from_secs(300));
    uci.wait();
    // Castling kept out after line 1: Sargon lists it as two entries, and it must go whole.
    uci.handle_line("setoption name MultiPV value 4");
    uci.handle_line("go depth 2 searchmoves e1g1 a2a3 h2h4 e1f1");
    out.wait_for_count("bestmove", 3, Duration::from_secs(300));
    uci.wait();
    let text = out.text();
    println!("{kind}:\n{text}");
    let best = text
        .lines()
        .filter(|l| l.starts_with("bestmove"))
        .map(str::to_string)
        .collect();
    (search_lines(&text), best)
}

#[test]
fn real_engine_multipv_and_searchmoves() {
    let Some(kind) = real_engine("real_engine_multipv_and_searchmoves") else {
        return;
    };
    let (lines, best) = multipv_and_searchmoves(kind);
    // Depth 2 of MultiPV 3: three lines, three different first moves, scores not rising.
    // (The first search's lines: depths 1 and 2, three lines each.)
    let depth2: Vec<&String> = lines[..6]
        .iter()
        .filter(|l| l.starts_with("info depth 2 multipv"))
        .collect();
    assert_eq!(depth2.len(), 3, "{lines:?}");
    let first = |l: &str| {
        l.split(" pv ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .to_string()
    };
    let score = |l: &str| -> i32 {
        l.split(" score cp ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let firsts: Vec<String> = depth2.iter().map(|l| first(l)).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert!(score(depth2[0]) >= score(depth2[1]) && score(depth2[1]) >= score(depth2[2]));
    // Line 1 is the plain search's line: bestmove is its move.
    assert_eq!(best[0].split(' ').nth(1).unwrap(), firsts[0]);
    // searchmoves: the move is one of those given.
    let chosen = best[1].split(' ').nth(1).unwrap();
    assert!(["a2a3", "h2h4", "e1g1"].contains(&chosen), "{best:?}");
    // MultiPV 4 over four given moves: each of them once, castling first here.
    let last: Vec<String> = lines[lines.len() - 4..].iter().map(|l| first(l)).collect();
    let mut sorted = last.clone();
    sorted.sort();
    assert_eq!(sorted, ["a2a3", "e1f1", "e1g1", "h2h4"], "{lines:?}");
    assert_eq!(last[0], "e1g1", "{lines:?}");
}

#[test]
fn emulator_and_port_give_the_same_lines() {
    if common::rom("emulator_and_port_give_the_same_lines").is_none() {
        return;
    }
    let port = multipv_and_searchmoves(EngineSpec::Port);
    let emulator = multipv_and_searchmoves(EngineSpec::EMULATOR);
    assert_eq!(port, emulator);
}

#[test]
fn infinite_with_a_node_limit_still_waits_for_stop() {
    let Some(kind) = real_engine("infinite_with_a_node_limit_still_waits_for_stop") else {
        return;
    };
    let (mut uci, out) = real_session(kind);
    uci.handle_line(&format!("position fen {MIDDLEGAME}"));
    uci.handle_line("go infinite nodes 100");
    out.wait_for("info depth 1 ", Duration::from_secs(60));
    thread::sleep(Duration::from_millis(300));
    assert!(!out.text().contains("bestmove"), "{}", out.text());
    uci.handle_line("stop");
    bestmove(&out, &uci.position().clone());
}

#[test]
fn real_engine_node_limit() {
    let Some(kind) = real_engine("real_engine_node_limit") else {
        return;
    };
    let (mut uci, out) = real_session(kind);
    uci.handle_line(&format!("position fen {MIDDLEGAME}"));
    uci.handle_line("go nodes 500");
    out.wait_for("bestmove", Duration::from_secs(120));
    uci.wait();
    let text = out.text();
    println!("{text}");
    let lines = search_lines(&text);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 1 ")),
        "{text}"
    );
    // Every depth reported finished under the limit; the one that passed it was dropped.
    for l in &lines {
        let nodes: u64 = l
            .split(" nodes ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(nodes <= 500, "{l}");
    }
    assert!(!text.contains("info depth 4 "), "{text}");
    bestmove(&out, &uci.position().clone());
}
