//! `sargon annotate`: Sargon's comments and variations on a Scholar's mate and on Morphy's
//! Opera Game, read back by python-chess (tests/pychess/check_annotated.py): the same tags
//! and moves, a comment on every move, a legal variation wherever Sargon prefers another
//! move, and the summary.

use crate::common;

use common::{sargon, temp_file};

const GAMES: &str = r#"[Event "Scholar's mate"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "White"]
[Black "Black"]
[Result "1-0"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 {the blunder} 4. Qxf7# 1-0

[Event "Paris"]
[Site "Paris"]
[Date "1858.??.??"]
[Round "?"]
[White "Paul Morphy"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7
8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7
14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0
"#;

#[test]
fn annotates_two_games() {
    let input = temp_file(".pgn", GAMES);
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("annotated.pgn");
    let out = sargon(&[
        "annotate",
        input.path().to_str().unwrap(),
        "--depth",
        "2",
        "-o",
        output.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    // With -o, the summaries are on stdout, one per game.
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("game 1 (White - Black): Sargon 1978 (port, depth 2): the move played was Sargon's choice in "));
    assert!(stdout.contains("game 2 (Paul Morphy - Duke Karl / Count Isouard): "));
    assert!(stdout.contains("biggest swings: "));
    let text = std::fs::read_to_string(&output).unwrap().replace('\n', " ");
    assert!(
        text.contains("{the blunder}"),
        "the game's own comments are kept"
    );
    assert!(text.contains("17. Rd8# {Sargon agrees: #1/2"), "{text}");
    if common::python_chess("annotates_two_games") {
        let report = common::pychess_check(
            "check_annotated.py",
            &[input.path().to_str().unwrap(), output.to_str().unwrap()],
            "annotations check",
        );
        assert!(report.contains("game 2: 33 plies"), "{report}");
    }

    // Without -o: the games on stdout, the summaries on stderr.
    let out = sargon(&["annotate", input.path().to_str().unwrap(), "-d", "1"]);
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stdout.starts_with("[Event \"Scholar's mate\"]"), "{stdout}");
    assert!(stdout.contains("[Annotator \"Sargon 1978 (port, depth 1)\"]"));
    assert!(stderr.contains("game 2 (Paul Morphy"), "{stderr}");
}

#[test]
fn bad_games_are_refused_clearly() {
    let input = temp_file(
        ".pgn",
        "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Ke3 *\n",
    );
    let out = sargon(&["annotate", input.path().to_str().unwrap()]);
    assert!(!out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("game 1, line 4: move 2.Ke3 is not legal"),
        "{stderr}"
    );
    let out = sargon(&["annotate", input.path().to_str().unwrap(), "--depth", "0"]);
    assert!(!out.status.success());
    let out = sargon(&["annotate", "/nonexistent.pgn"]);
    assert!(!out.status.success());
}
