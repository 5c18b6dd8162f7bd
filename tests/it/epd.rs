//! `sargon analyze --epd FILE --format epd`: every position written back with its own
//! operations and the results (acd, acn, acs, ce, pm, pv), read back by python-chess
//! (`chess.Board.from_epd`, tests/pychess/check_epd.py) and by our own EPD reader.

use crate::common;

use sargon_chess::batch;

use common::{sargon, temp_file};

const SUITE: &str = r#"r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - bm Qxd8+; id "mate in 2"; c0 "from the \"Window\" paper";
6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id "back rank"; acd 99; ce 1;
r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4 id "italian"; eco "C50"; noop;
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - am d5; id "book";
4k3/8/8/3pP3/8/8/8/4K3 w - d6 bm exd6; id "en passant"; hmvc 0; fmvn 30;
"#;

#[test]
fn results_written_back_as_epd() {
    let input = temp_file(".epd", SUITE);
    let path = input.path().to_str().unwrap();
    let out = sargon(&[
        "analyze", "--epd", path, "--depth", "3", "--format", "epd", "--jobs", "2",
    ]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success());
    assert!(
        stderr.contains("solved 3 / 4") || stderr.contains("solved 4 / 4"),
        "{stderr}"
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 5);
    // Our own reader: the same positions and verdict moves, results replacing old ones.
    let before = batch::parse_epd(SUITE).unwrap();
    let after = batch::parse_epd(&stdout).unwrap();
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(a.fen, b.fen);
        assert_eq!(a.id, b.id);
        assert_eq!(a.bm, b.bm);
        assert_eq!(a.am, b.am);
        for opcode in ["acd", "acn", "acs", "pm", "pv"] {
            let n = a.ops.iter().filter(|o| o.opcode == opcode).count();
            assert_eq!(n, 1, "{opcode} once in {}", lines[a.line - 1]);
        }
    }
    assert!(
        lines[0].contains(r#"c0 "from the \"Window\" paper";"#),
        "{}",
        lines[0]
    );
    assert!(
        lines[0].contains("pm Qxd8+; pv Qxd8+ Rxd8 Rxd8#;"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].contains("acd 3;") && !lines[1].contains("acd 99"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].contains(r#"eco "C50"; noop; hmvc 4; fmvn 4;"#),
        "{}",
        lines[2]
    );
    assert!(
        lines[3].contains("acd 0;") && !lines[3].contains("ce "),
        "a book move: {}",
        lines[3]
    );
    assert!(
        lines[4].starts_with("4k3/8/8/3pP3/8/8/8/4K3 w - d6 "),
        "{}",
        lines[4]
    );
    if common::python_chess("results_written_back_as_epd") {
        let out_file = temp_file(".epd", &stdout);
        common::pychess_check(
            "check_epd.py",
            &[path, out_file.path().to_str().unwrap(), "3"],
            "epd checks",
        );
    }
}
