//! `setoption` (FixedDepth, the engine) and an engine that cannot start.

use std::time::Duration;

use sargon_chess::uci::{EngineFactory, Settings, Uci};
use sargon_engines::engines::OpenError;
use sargon_engines::uci_client::ClientError;

use super::real::{real_engine, real_session};
use super::stand_in::{session, Sink, MIDDLEGAME};

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

/// An engine that does not open, as a UCI port that does not start does.
fn not_started(reason: &str) -> OpenError {
    OpenError::Uci(ClientError::Start {
        command: "engine".into(),
        reason: reason.into(),
    })
}

#[test]
fn engine_that_cannot_start_answers_0000() {
    let sink = Sink::default();
    let factory: EngineFactory = Box::new(|_| Err(not_started("no engine today")));
    let mut uci = Uci::new(factory, sink.clone(), Settings::default());
    assert!(uci.open_engine().is_err());
    uci.handle_line("isready");
    uci.handle_line("position startpos moves e2e4");
    uci.handle_line("go depth 2");
    sink.wait_for("bestmove", Duration::from_secs(2));
    let text = sink.text();
    assert!(
        text.contains(
            "info string cannot start the port engine: cannot start the UCI port: \
             cannot start `engine`: no engine today"
        ),
        "{text}"
    );
    assert!(text.contains("bestmove 0000"), "{text}");
    // The reason is told once per cause: not again at every isready and go.
    let tries = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = tries.clone();
    let sink = Sink::default();
    let factory: EngineFactory = Box::new(move |_| {
        counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Err(not_started("no engine today\nsecond line of the reason"))
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
