//! `sargon play`: matches against Sargon at another depth, against Stockfish where it is
//! installed, and against engines that break the rules or die. Every PGN written is read
//! back by python-chess (tests/pychess/check_games.py), which checks the moves and that each
//! result is what the final position says. Depths 1 and 2 and a move cap keep it fast.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::{sargon, temp_file};

/// The JSON lines check_games.py prints, one per game.
fn checked_games(pgn: &Path, max_moves: Option<u32>) -> Vec<serde_json::Value> {
    let mut args = vec![pgn.to_str().unwrap().to_string()];
    if let Some(m) = max_moves {
        args.extend(["--max-moves".to_string(), m.to_string()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = common::pychess_check("check_games.py", &args, "all games check");
    out.lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn two_games_against_the_port_at_another_depth() {
    if !common::python_chess("two_games_against_the_port_at_another_depth") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let out = sargon(&[
        "play",
        "--depth",
        "2",
        "--opponent",
        "sargon:depth=1",
        "--games",
        "2",
        "--max-moves",
        "12",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("game 1/2: Sargon 1978 (port, depth 2) - Sargon 1978 (port, depth 1): ")
    );
    assert!(
        stderr.contains("game 2/2: Sargon 1978 (port, depth 1) - Sargon 1978 (port, depth 2): ")
    );
    assert!(stdout.starts_with("Engine "), "{stdout}");
    assert!(stdout
        .contains("Elo difference, Sargon 1978 (port, depth 2) - Sargon 1978 (port, depth 1): "));
    let games = checked_games(&pgn, Some(12));
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["white"], "Sargon 1978 (port, depth 2)");
    assert_eq!(games[1]["white"], "Sargon 1978 (port, depth 1)");
    // From the initial position both sides open from Sargon's book.
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("1. e4 {book} 1... e5 {book}"), "{text}");
    assert!(
        !text.contains("[FEN "),
        "no FEN tag from the initial position"
    );
}

/// Two Sargons are deterministic: a third game from the one opening repeats the first move
/// for move. `play` says so before it starts, and `history strength` counts the repeat once.
#[test]
fn repeated_games_are_announced_and_counted_once() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let out = sargon(&[
        "play",
        "--depth",
        "1",
        "--opponent",
        "sargon:depth=1,book=off",
        "--games",
        "3",
        "--max-moves",
        "8",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("only the first 2 of 3 games can differ"),
        "{stderr}"
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games = sargon_chess::pgn::read_games(&text).unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].moves, games[2].moves);
    let out = sargon(&["history", "strength", pgn.to_str().unwrap()]);
    assert!(out.status.success());
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.contains(" | 2 | 1 | "), "{table}");
}

/// Openings where the rules end the game: a mate in one, a knight to take (then bare
/// kings), the fifty-move rule two plies away.
const ENDINGS: &str = r#"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - id "mate in one"; hmvc 0; fmvn 30;
k7/8/8/8/8/8/1n6/K7 w - - id "knight"; hmvc 10; fmvn 50;
8/8/4k3/8/8/3RK3/8/8 w - - id "fifty"; hmvc 98; fmvn 80;
"#;

#[test]
fn games_the_rules_end_from_epd_openings() {
    if !common::python_chess("games_the_rules_end_from_epd_openings") {
        return;
    }
    let openings = temp_file(".epd", ENDINGS);
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("endings.pgn");
    let out = sargon(&[
        "play",
        "--depth",
        "2",
        "--opponent",
        "sargon:depth=1",
        "--openings",
        openings.path().to_str().unwrap(),
        "--max-moves",
        "30",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let games = checked_games(&pgn, Some(30));
    assert_eq!(games.len(), 6, "each opening twice");
    // Whoever has White mates at once.
    for g in &games[..2] {
        assert_eq!(g["result"], "1-0");
        assert_eq!(g["termination"], "normal");
        assert_eq!(g["plies"], 1);
    }
    for g in &games[2..] {
        assert_eq!(g["result"], "1/2-1/2", "{g}");
        assert_eq!(g["termination"], "normal", "{g}");
    }
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[SetUp \"1\"]"));
    assert!(text.contains("[FEN \"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 30\"]"));
    assert!(text.contains("[Opening \"fifty\"]"));
    assert!(text.contains("White mates"));
}

#[test]
fn pgn_openings_are_played_first() {
    if !common::python_chess("pgn_openings_are_played_first") {
        return;
    }
    let openings = temp_file(
        ".pgn",
        "[Opening \"Italian\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 *\n",
    );
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("italian.pgn");
    let out = sargon(&[
        "play",
        "--depth",
        "1",
        "--opponent",
        "sargon:depth=2,book=off",
        "--openings",
        openings.path().to_str().unwrap(),
        "--max-moves",
        "5",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let games = checked_games(&pgn, Some(5));
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g["plies"], 6 + 10);
        assert_eq!(g["engine_plies"], 10);
    }
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        text.contains("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. "),
        "{text}"
    );
    assert!(text.contains("no book"));
}

/// Stockfish on the PATH or where Debian puts it.
fn stockfish() -> Option<String> {
    for candidate in ["stockfish", "/usr/games/stockfish"] {
        let found = Command::new(candidate)
            .stdin(std::process::Stdio::null())
            .output()
            .is_ok();
        if found {
            return Some(candidate.to_string());
        }
    }
    None
}

#[test]
fn against_stockfish() {
    let Some(stockfish) = stockfish() else {
        common::skip_for_want_of_tool(
            "SARGON_STOCKFISH_TEST",
            "against_stockfish",
            "Stockfish not installed (apt-get install stockfish)",
        );
        return;
    };
    if !common::python_chess("against_stockfish") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("stockfish.pgn");
    let out = sargon(&[
        "play",
        "--depth",
        "1",
        "--opponent",
        &stockfish,
        "--opponent-option",
        "UCI_LimitStrength=true",
        "--opponent-option",
        "UCI_Elo=1350",
        "--opponent-movetime",
        "20",
        "--max-moves",
        "15",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("Stockfish"), "{stdout}");
    let games = checked_games(&pgn, Some(15));
    assert_eq!(games.len(), 2);
    let black = games[0]["black"].as_str().unwrap();
    assert!(
        black.contains("movetime 20 ms, UCI_LimitStrength=true, UCI_Elo=1350"),
        "{black}"
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[WhiteTimeControl \"-\"]"), "{text}");
    assert!(text.contains("[BlackTimeControl \"1/0.02\"]"), "{text}");
}

/// A UCI "engine" in a shell script that answers `go` with `answer`.
fn fake_engine(answer: &str) -> String {
    format!(
        "sh -c 'while read l; do case \"$l\" in uci) echo \"id name fake\"; echo uciok;; \
         isready) echo readyok;; go*) {answer};; quit) exit 0;; esac; done'"
    )
}

#[test]
fn engines_that_cheat_or_die_lose() {
    if !common::python_chess("engines_that_cheat_or_die_lose") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (answer, termination, why) in [
        (
            "echo bestmove e2e5",
            "rules infraction",
            "played an illegal move",
        ),
        ("exit 1", "abandoned", "exited"),
    ] {
        let pgn = dir
            .path()
            .join(format!("{}.pgn", termination.replace(' ', "-")));
        let out = sargon(&[
            "play",
            "--depth",
            "1",
            "--opponent",
            &fake_engine(answer),
            "--pgn",
            pgn.to_str().unwrap(),
        ]);
        assert!(out.status.success());
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains(why), "{stderr}");
        assert!(stderr.contains("the engine failed: fake "), "{stderr}");
        let games = checked_games(&pgn, None);
        // The fake engine is started again for the second game, and fails again.
        assert_eq!(games[0]["result"], "1-0");
        assert_eq!(games[1]["result"], "0-1");
        for g in &games {
            assert_eq!(g["termination"], termination);
        }
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(stdout.contains("100.0%"), "{stdout}");
    }
}

#[test]
fn bad_requests_are_refused_clearly() {
    for (args, needle) in [
        (
            vec!["--opponent", "/nonexistent/engine"],
            "cannot start `/nonexistent/engine`",
        ),
        (
            vec!["--opponent", "sargon:depth=x"],
            "expected a whole number from 1 to 255, got `x`",
        ),
        (
            vec!["--opponent", "sargon:depth=7,engine=emulator"],
            "1..=6",
        ),
        (
            vec!["--opponent", "sargon", "--depth", "0"],
            "at least 1 ply; 0 asked",
        ),
        (
            vec!["--opponent", "sargon", "--opponent-option", "Hash"],
            "NAME=VALUE",
        ),
        (
            vec!["--opponent", "sargon", "--opponent-option", "Hash=1"],
            "for UCI engines",
        ),
        (
            vec!["--opponent", "sargon", "--depth", "2", "--movetime", "100"],
            "not both",
        ),
        (
            vec!["--opponent", "sargon", "--openings", "/nonexistent.epd"],
            "/nonexistent.epd",
        ),
    ] {
        let mut all = vec!["play"];
        all.extend(args);
        let out = sargon(&all);
        assert!(!out.status.success(), "{all:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains(needle), "{all:?}: {stderr}");
    }
    let Some(sf) = stockfish() else {
        return;
    };
    let out = sargon(&[
        "play",
        "--opponent",
        &sf,
        "--opponent-option",
        "NoSuchOption=1",
    ]);
    assert!(!out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("has no option `NoSuchOption`"), "{stderr}");
}
