//! Files: every reader of a PGN refuses a malformed game with its game and line; every
//! text file is read with a byte-order mark and, where its format allows (PGN, EPD), in
//! ISO 8859-1; an EPD error quotes the line as it was written. (Issue 32, items 5, 16, 18.)

use super::{accepted, refused, sargon, INITIAL};

/// A file in a temporary directory.
struct Files(tempfile::TempDir);

impl Files {
    fn new() -> Files {
        Files(tempfile::tempdir().unwrap())
    }

    fn write(&self, name: &str, bytes: &[u8]) -> String {
        let path = self.0.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path.display().to_string()
    }
}

/// Malformed games, each with the start of its error. Each was read before as a game (or
/// as fewer moves), exit 0.
const MALFORMED: [(&str, &str); 8] = [
    (
        "1. e4 (1. d4 e5 2. Nf3 *\n",
        "game 1, line 1: the result `*` inside the variation opened at line 1: a `)` is missing",
    ),
    (
        "1. e4 ((((((\n",
        "game 1, line 1: a variation `(` before any move",
    ),
    (
        "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 d5\n(1... Nf6\n",
        "game 2, line 8: the variation `(` opened here is never closed",
    ),
    (
        "1. e4 e5 ) 2. Nf3 *\n",
        "game 1, line 1: a `)` with no `(` before it",
    ),
    (
        "1. e4 } e5 *\n",
        "game 1, line 1: a `}` with no `{` before it",
    ),
    (
        "[White \"Sargon\"\n\n1. e4 e5 *\n",
        "game 1, line 1: a tag pair that is never closed",
    ),
    (
        "[White \"Sargon\"]\n\n1. e4 e5\n\n[White \"Sargon\"]\n\n1. d4 d5 *\n",
        "game 1, line 5: the game has no result",
    ),
    (
        "[White \"Sargon\"]\n\n1. e4 hello e5 *\n",
        "game 1, line 3: `hello` is not a move",
    ),
];

#[test]
fn a_malformed_pgn_is_refused_by_every_reader_with_its_game_and_line() {
    let files = Files::new();
    for (i, (text, expected)) in MALFORMED.iter().enumerate() {
        let pgn = files.write(&format!("bad{i}.pgn"), text.as_bytes());
        let said = format!("{pgn}: {expected}");
        refused(&["annotate", &pgn, "--depth", "1"], 1, &[&said]);
        refused(&["history", "strength", &pgn], 1, &[expected]);
        refused(
            &[
                "play",
                "--opponent",
                "sargon:depth=1",
                "--depth",
                "1",
                "--openings",
                &pgn,
                "--games",
                "1",
            ],
            1,
            &[&said],
        );
        refused(&["history", "games", "--openings", &pgn], 1, &[&said]);
    }
    // A games file to resume is read the same way.
    let (text, expected) = MALFORMED[0];
    let pgn = files.write("resume.pgn", text.as_bytes());
    refused(
        &[
            "play",
            "--opponent",
            "sargon:depth=1",
            "--depth",
            "1",
            "--games",
            "2",
            "--pgn",
            &pgn,
            "--resume",
        ],
        1,
        &[expected],
    );
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

fn with_bom(text: &str) -> Vec<u8> {
    [BOM, text.as_bytes()].concat()
}

/// A byte-order mark (Windows editors write one) is no part of the text: an EPD file with
/// one was refused, quoting an invisible character; a positions file too.
#[test]
fn a_byte_order_mark_is_read_in_every_text_file() {
    let files = Files::new();
    let epd = files.write(
        "bom.epd",
        &with_bom(&format!("{INITIAL} w KQkq - bm e4; id \"first\";\n")),
    );
    let csv = accepted(&["analyze", "--epd", &epd, "--depth", "1"], &[]);
    assert!(csv.contains("first,"), "{csv}");
    let out = accepted(
        &[
            "diff", "--epd", &epd, "--depth", "1", "--left", "port", "--right", "port",
        ],
        &[],
    );
    assert!(out.contains("positions: 1"), "{out}");
    accepted(
        &[
            "play",
            "--opponent",
            "sargon:depth=1",
            "--depth",
            "1",
            "--openings",
            &epd,
            "--games",
            "1",
            "--max-moves",
            "1",
        ],
        &[],
    );
    let pgn = files.write(
        "bom.pgn",
        &with_bom("[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 1-0\n"),
    );
    accepted(&["annotate", &pgn, "--depth", "1"], &[]);
    accepted(&["history", "strength", &pgn], &[]);
    // The positions of `history levels`, checked before the ROM is looked for: the first
    // line is read, the second is the one refused.
    let positions = files.write("bom.txt", &with_bom("startpos\n8/8/8 w\n"));
    refused(
        &["history", "levels", "--positions", &positions],
        1,
        &["position 2: invalid FEN `8/8/8 w`"],
    );
    // The transcription `rom import` assembles (here a file of two lines, in a store of
    // its own): its first line was "unexpected `\u{feff}        ORG 0`".
    let asm = files.write("bom.asm", &with_bom("        ORG 0\n        NOP\n"));
    let store = files.0.path().join("roms");
    let said = refused(
        &["--roms", store.to_str().unwrap(), "rom", "import", &asm],
        1,
        &["assembles only in part"],
    );
    assert!(!said.contains("feff"), "{said}");
    // A UTF-16 file is named for what it is.
    let utf16: Vec<u8> = "\u{feff}startpos\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let utf16 = files.write("utf16.epd", &utf16);
    refused(
        &["analyze", "--epd", &utf16, "--depth", "1"],
        1,
        &["a UTF-16 file (its byte-order mark says so): save it as UTF-8"],
    );
}

/// ISO 8859-1 is the PGN standard's character set (EPD's too, defined by the same
/// standard): such a file is read, with a note, and written back in UTF-8. It was refused as
/// a whole, with no line. JSON is UTF-8: a results file that is not is refused with the line.
#[test]
fn latin1_pgn_and_epd_are_read_and_json_is_refused_with_the_line() {
    let files = Files::new();
    let note = "is not UTF-8 (line 2 is the first that is not): read as ISO 8859-1";
    let pgn = files.write(
        "latin1.pgn",
        b"[Event \"x\"]\n[White \"D\xFCrer\"]\n[Black \"B\"]\n\n1. e4 {G\xE9nial} e5 *\n",
    );
    let out = accepted(&["annotate", &pgn, "--depth", "1"], &[note]);
    assert!(out.contains("[White \"Dürer\"]"), "{out}");
    assert!(out.contains("{Génial}"), "{out}");
    accepted(&["history", "strength", &pgn], &[note]);
    let epd = files.write(
        "latin1.epd",
        &[
            format!("# positions\n{INITIAL} w KQkq - bm e4; id \"D").as_bytes(),
            b"\xFCrer\";\n",
        ]
        .concat(),
    );
    let csv = accepted(&["analyze", "--epd", &epd, "--depth", "1"], &[note]);
    assert!(csv.contains("Dürer,"), "{csv}");
    let jsonl = files.write("latin1.jsonl", b"\n{\"white\": \"D\xFCrer\"}\n");
    refused(
        &["history", "games", "--load", &jsonl],
        1,
        &["line 2 is not UTF-8 (JSON files are UTF-8)"],
    );
}

/// An EPD error quotes the line as it was written: `0 1` was added to it (the counters the
/// reader put in), and `diff` named it "position 0" after reading the whole file. An
/// invisible character is shown escaped.
#[test]
fn an_epd_error_quotes_the_line_as_written() {
    let files = Files::new();
    let line = format!("{INITIAL} w KQkq x bm e4;");
    let epd = files.write("bad.epd", format!("startpos\n{line}\n").as_bytes());
    let quoted = format!("line 2: invalid FEN `{line}`: field 4 (en passant square)");
    let said = refused(&["analyze", "--epd", &epd, "--depth", "1"], 1, &[&quoted]);
    assert!(!said.contains(" 0 1"), "{said}");
    for args in [
        &["diff", "--epd", &epd, "--depth", "1"][..],
        &[
            "diff", "--epd", &epd, "--depth", "1", "--left", "port", "--right", "port",
        ][..],
    ] {
        let said = refused(args, 2, &[&quoted]);
        assert!(!said.contains(" 0 1"), "{said}");
    }
    let hidden = files.write(
        "hidden.epd",
        format!("{INITIAL}\u{200b} w KQkq - bm e4;\n").as_bytes(),
    );
    refused(
        &["analyze", "--epd", &hidden, "--depth", "1"],
        1,
        &["\\u{200b}"],
    );
}

/// `sargon` on a file of nothing but a byte-order mark: no games, no positions, as an
/// empty file.
#[test]
fn a_file_of_only_a_byte_order_mark_is_empty() {
    let files = Files::new();
    let pgn = files.write("only.pgn", BOM);
    refused(&["annotate", &pgn, "--depth", "1"], 1, &["no games"]);
    let run = sargon(&["analyze", "--epd", &files.write("only.epd", BOM)]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(!run.stderr.contains("\u{feff}"), "{}", run.stderr);
}
