//! The real engines, chosen by `SARGON_UCI_ENGINE` (`port` by default, or `emulator`,
//! which needs an imported ROM and is skipped without one): depths, mate, `stop`, MultiPV,
//! searchmoves and node limits, and the emulator and the port giving the same lines.

use crate::common;

use std::thread;
use std::time::{Duration, Instant};

use sargon_chess::uci::{EngineFactory, Settings, Uci};
use sargon_engines::engines::{EngineSpec, OpenOptions};

use super::stand_in::{bestmove, Sink, MIDDLEGAME};

/// The engine the real-engine tests use: `SARGON_UCI_ENGINE`, `port` by default.
pub(super) fn real_engine(test: &str) -> Option<EngineSpec> {
    let kind: EngineSpec = std::env::var("SARGON_UCI_ENGINE")
        .unwrap_or_else(|_| "port".into())
        .parse()
        .expect("SARGON_UCI_ENGINE: port or emulator");
    if kind == EngineSpec::EMULATOR {
        common::rom(test)?;
    }
    Some(kind)
}

pub(super) fn real_session(kind: EngineSpec) -> (Uci<Sink>, Sink) {
    let sink = Sink::default();
    let store = sargon_original::rom::RomStore::open(None);
    let options = OpenOptions {
        store,
        timeout: sargon_engines::external::DEFAULT_TIMEOUT,
    };
    let factory: EngineFactory =
        Box::new(move |spec| Ok(sargon_engines::engines::open(spec, &options)?.engine));
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
