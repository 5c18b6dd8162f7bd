//! `sargon analyze --epd`: one row per position in file order, the bm/am verdicts and the
//! `solved S / T` summary, CSV and JSON Lines, on the port (and on the emulator, where a ROM
//! is imported, with two worker threads).

use crate::common;

use std::process::Output;

use common::sargon;

const EPD: &str = r#"# a small suite
r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - bm Qxd8+; id "mate in 2";
6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id "back rank, \"quoted\"";
r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4 id "no verdict";
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 am e5; id "book";

4k3/8/8/8/8/8/8/4K2R w K - bm Kd2; id "wrong on purpose";
"#;

fn epd_file(text: &str) -> tempfile::NamedTempFile {
    common::temp_file(".epd", text)
}

/// `engine`: how the last column, the engine's name, starts.
fn check_csv(out: &Output, engine: &str) {
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    let stderr = String::from_utf8(out.stderr.clone()).unwrap();
    assert!(out.status.success(), "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        "id,fen,best_uci,best_san,score_cp,depth,bm,am,solved,from_book,time_ms,error,engine"
    );
    assert_eq!(lines.len(), 6, "header and five rows");
    let ids = [
        "mate in 2",
        "\"back rank, \"\"quoted\"\"\"",
        "no verdict",
        "book",
        "wrong on purpose",
    ];
    for (line, id) in lines[1..].iter().zip(ids) {
        assert!(line.starts_with(&format!("{id},")), "{line}");
        let last = line.rsplit(',').next().unwrap();
        assert!(last.starts_with(engine), "{line}");
    }
    let field = |row: usize, col: usize| lines[row].rsplit(',').nth(12 - col).unwrap().to_string();
    // Depth 3 finds the mate in two; the back-rank mate; book: Sargon answers e4 with e5.
    assert!(lines[1].contains(",d2d8,Qxd8+,"), "{}", lines[1]);
    assert_eq!(field(1, 8), "true");
    assert_eq!(field(2, 8), "true");
    assert_eq!(field(3, 8), "");
    assert_eq!(field(4, 8), "false");
    assert_eq!(field(4, 9), "true");
    assert_eq!(field(5, 8), "false");
    assert!(stderr.lines().any(|l| l == "solved 2 / 4"), "{stderr}");
    // No progress bar when stderr is not a terminal.
    assert!(
        !stderr.contains('\r') && !stderr.contains("\x1b["),
        "{stderr:?}"
    );
}

#[test]
fn epd_csv_on_the_port() {
    let f = epd_file(EPD);
    let path = f.path().to_str().unwrap();
    check_csv(&sargon(&["analyze", "--epd", path, "--depth", "3"]), "port");
}

#[test]
fn epd_csv_on_the_emulator_in_parallel() {
    if common::rom("epd_csv_on_the_emulator_in_parallel").is_none() {
        return;
    }
    let f = epd_file(EPD);
    let path = f.path().to_str().unwrap();
    check_csv(
        &sargon(&[
            "analyze", "--epd", path, "--depth", "3", "--engine", "emulator", "--jobs", "2",
        ]),
        "emulator (ROM ",
    );
}

#[test]
fn epd_jsonl() {
    let f = epd_file(EPD);
    let path = f.path().to_str().unwrap();
    let out = sargon(&["analyze", "--epd", path, "-d", "2", "--format", "jsonl"]);
    assert!(out.status.success());
    let rows: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[1]["id"], "back rank, \"quoted\"");
    assert_eq!(rows[1]["best_san"], "Ra8#");
    assert_eq!(rows[1]["solved"], true);
    assert_eq!(rows[1]["depth"], 2);
    assert_eq!(rows[2]["solved"], serde_json::Value::Null);
    assert_eq!(rows[3]["am"], serde_json::json!(["e5"]));
    assert!(rows[0]["time_ms"].as_f64().is_some());
}

#[test]
fn bad_input_is_refused_clearly() {
    let f = epd_file("4k3/8/8/8/8/8/8/4K2R w K - bm Qh8;\nnot a position\n");
    let path = f.path().to_str().unwrap();
    let out = sargon(&["analyze", "--epd", path]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!out.status.success());
    assert!(stderr.contains("line 1: `bm Qh8`"), "{stderr}");
    assert!(stderr.contains("line 2:"), "{stderr}");
    let out = sargon(&["analyze", "startpos", "--epd", path]);
    assert!(!out.status.success());
    let out = sargon(&["analyze", "--epd", path, "--format", "text"]);
    assert!(!out.status.success());
    let out = sargon(&["analyze", "startpos", "--format", "csv"]);
    assert!(!out.status.success());
}

/// A file's `startpos moves ...` and `<FEN> moves ...` lines are searched where their moves
/// lead, as the same text on the command line is (they were searched before the moves).
#[test]
fn lines_with_moves_are_searched_after_their_moves() {
    let f = epd_file(
        "startpos moves e2e4\n\
         4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e4 e8e7\n",
    );
    let out = sargon(&[
        "analyze",
        "--epd",
        f.path().to_str().unwrap(),
        "--depth",
        "1",
        "--format",
        "csv",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = String::from_utf8_lossy(&out.stdout);
    assert!(
        csv.contains("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
        "{csv}"
    );
    assert!(csv.contains("8/4k3/8/8/4P3/8/8/4K3 w - - 1 2"), "{csv}");
    let bad = epd_file("startpos moves e2e5\n");
    let out = sargon(&[
        "analyze",
        "--epd",
        bad.path().to_str().unwrap(),
        "--depth",
        "1",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 1") && err.contains("e2e5"), "{err}");
}
