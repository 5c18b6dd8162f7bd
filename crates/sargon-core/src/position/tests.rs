//! Tests of reading positions, the set-up for Sargon and the board diagram.

use shakmaty::{Chess, Color, Position};

use super::*;
use crate::vocab::{self, Side, Sq, BLACK, MOVED, OFF_BOARD};

#[test]
fn a_fen_error_names_its_field_as_data() {
    let bad = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1";
    let Err(PositionError::InvalidFen { field, problem, .. }) = parse_position(bad) else {
        panic!("{bad} is refused");
    };
    assert_eq!(field, Some(FenField::CastlingRights));
    assert_eq!(FenField::CastlingRights.number(), 3);
    let shown = parse_position(bad).unwrap_err().to_string();
    assert!(
        shown.contains(&format!("field 3 (castling rights): {problem}")),
        "{shown}"
    );
    let Err(PositionError::InvalidFen { field: None, .. }) = parse_position("8/8 w") else {
        panic!("too few fields is the FEN's fault, not a field's");
    };
    let two_kings = "4k3/8/8/8/8/8/8/K3K3 w - - 0 1";
    assert_eq!(
        parse_position(two_kings),
        Err(PositionError::Unrepresentable(vec![
            Unrepresentable::TooManyKings
        ]))
    );
}

#[test]
fn initial_position_is_the_books() {
    let s = setup(&Chess::default(), Book::Allowed).unwrap();
    assert_eq!(s.moveno, 1);
    assert_eq!(s.replay, None);
    assert_eq!(s.board[21], vocab::ROOK);
    assert_eq!(s.board[25], vocab::KING);
    assert_eq!(s.board[95], vocab::KING | BLACK);
    assert_eq!(s.board[31], vocab::PAWN);
    assert_eq!(s.board[20], OFF_BOARD);
    assert!(s.plays_from_book());
    let s = setup(&Chess::default(), Book::Off).unwrap();
    assert_eq!(s.moveno, 2);
    assert!(!s.plays_from_book());
}

#[test]
fn one_white_move_replays_it_from_the_initial_position() {
    let pos = parse_position("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1").unwrap();
    let s = setup(&pos, Book::Allowed).unwrap();
    assert_eq!(s.moveno, 1);
    assert_eq!(s.replay, Some((Sq(27), Sq(46))));
    assert_eq!(s.side, Side::White);
    assert_eq!(s.board[27], vocab::KNIGHT);
    assert_eq!(s.search_color(), BLACK);
}

#[test]
fn en_passant_replays_the_double_push() {
    let pos = parse_position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 30").unwrap();
    let s = setup(&pos, Book::Allowed).unwrap();
    assert_eq!(s.moveno, 30);
    assert!(
        !s.plays_from_book(),
        "not a book position, whatever `book` says"
    );
    assert_eq!(s.side, Side::Black);
    assert_eq!(s.replay, Some((Sq(84), Sq(64))));
    assert_eq!(s.board[84], vocab::PAWN | BLACK);
    assert_eq!(s.board[64], 0);
}

#[test]
fn castling_rights_become_moved_flags() {
    let pos = parse_position("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 12").unwrap();
    let b = setup(&pos, Book::Allowed).unwrap().board;
    assert_eq!(b[25], vocab::KING); // white king keeps a right
    assert_eq!(b[28], vocab::ROOK); // h1 rook: O-O allowed
    assert_eq!(b[21], vocab::ROOK | MOVED); // a1 rook: O-O-O not allowed
    assert_eq!(b[91], vocab::ROOK | BLACK);
    assert_eq!(b[98], vocab::ROOK | BLACK | MOVED);
    let none = parse_position("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 12").unwrap();
    let b = setup(&none, Book::Allowed).unwrap().board;
    assert_eq!(b[25], vocab::KING | MOVED);
}

#[test]
fn move_number_estimate_avoids_the_book() {
    let pos = parse_position("r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - 0 1").unwrap();
    let s = setup(&pos, Book::Allowed).unwrap();
    assert!(s.moveno >= 2);
    assert_eq!(s.board[28 - 1], vocab::KING | MOVED); // g1
}

#[test]
fn refuses_what_sargon_cannot_represent() {
    for (fen, needle) in [
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", "king"),
        ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "two or more"),
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "first or last rank"),
        ("qqqqkqqq/qqqqqqqq/8/8/8/8/8/4K3 w - - 0 1", "too many"),
    ] {
        let err = parse_position(fen).unwrap_err().to_string();
        assert!(err.contains(needle), "{fen}: {err}");
    }
    assert!(matches!(
        parse_position("not a fen"),
        Err(PositionError::InvalidFen { .. })
    ));
}

const INITIAL: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

/// The message of `text`'s refusal by both readings.
fn refusal(text: &str) -> String {
    let strict = parse_position(text).unwrap_err().to_string();
    let lenient = read_position(text).unwrap_err().to_string();
    assert_eq!(strict, lenient, "{text}");
    strict
}

#[test]
fn what_is_not_a_standard_fen_is_refused_with_the_field_named() {
    for (text, needles) in [
        (
            format!("{INITIAL}/8 w KQkq - 0 1"),
            &["field 1 (board)", "9 ranks"][..],
        ),
        (
            format!("{INITIAL}/QQ w KQkq - 0 1"),
            &["field 1 (board)", "`QQ`", "crazyhouse pockets"],
        ),
        (
            format!("{INITIAL}[Qq] w KQkq - 0 1"),
            &["field 1 (board)", "crazyhouse pockets"],
        ),
        (format!("{INITIAL}/ w KQkq - 0 1"), &["after the 8th rank"]),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK~BNR w KQkq - 0 1".into(),
            &["rank 1", "promoted piece"],
        ),
        (
            "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            &["rank 7 `ppppxppp`", "`x` is neither a piece"],
        ),
        (
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            &["rank 7", "covers 7 squares"],
        ),
        (
            "8/8/8/8/8/8/8 w - - 0 1".into(),
            &["7 ranks; a board has 8"],
        ),
        (
            format!("{INITIAL} x KQkq - 0 1"),
            &["field 2 (side to move)", "expected `w` or `b`"],
        ),
        (
            format!("{INITIAL} w HAha - 0 1"),
            &["field 3 (castling rights)", "Chess960"],
        ),
        (format!("{INITIAL} w KK - 0 1"), &["field 3", "`K` twice"]),
        (
            format!("{INITIAL} w KQkq e4 0 1"),
            &["field 4 (en passant square)", "3rd or 6th rank"],
        ),
        (
            format!("{INITIAL} w KQkq xx 0 1"),
            &["field 4", "expected `-` or a square"],
        ),
        (
            format!("{INITIAL} w KQkq - 99999999999 1"),
            &[
                "field 5 (half-move clock)",
                "`99999999999` is out of the range 0..=20000",
            ],
        ),
        (
            format!("{INITIAL} w KQkq - 20001 1"),
            &["field 5", "no clock counts 20000 half-moves"],
        ),
        (
            format!("{INITIAL} w KQkq - -1 1"),
            &["field 5", "not a whole number"],
        ),
        (
            format!("{INITIAL} w KQkq - 0 99999999999"),
            &["field 6 (full-move number)", "out of the range 1..=10000"],
        ),
        (
            format!("{INITIAL} w KQkq - 0 99999999999999999999999999"),
            &["field 6 (full-move number)", "out of the range"],
        ),
        (
            format!("{INITIAL} w KQkq - 0 0"),
            &["field 6", "starts at 1"],
        ),
    ] {
        let err = refusal(&text);
        for needle in needles {
            assert!(err.contains(needle), "{text}: {err}");
        }
    }
}

#[test]
fn fields_missing_or_added_are_refused_by_the_strict_reading() {
    for (text, needle) in [
        (INITIAL.to_string(), "a FEN has 6 fields"),
        (format!("{INITIAL} w"), "a FEN has 6 fields"),
        (format!("{INITIAL} w KQkq -"), "a FEN has 6 fields"),
        (
            format!("{INITIAL} w KQkq - bm e4;"),
            "field 5 (half-move clock): `bm`",
        ),
    ] {
        let err = parse_position(&text).unwrap_err().to_string();
        assert!(err.contains(needle), "{text}: {err}");
        assert!(read_position(&text).is_ok(), "{text}");
    }
    let err = parse_position("startpos moves e2e4")
        .unwrap_err()
        .to_string();
    assert!(err.contains("`moves` list is not accepted here"), "{err}");
    // Added fields and a lone half-move clock: refused by both.
    let err = refusal(&format!("{INITIAL} w KQkq - 0 1 extra"));
    assert!(err.contains("`extra` after field 6"), "{err}");
    let err = read_position(&format!("{INITIAL} w KQkq - 0"))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("field 6 (full-move number) is missing"),
        "{err}"
    );
    let err = read_position("").unwrap_err().to_string();
    assert!(err.contains("nothing to read"), "{err}");
}

#[test]
fn a_board_alone_is_read_with_a_notice_of_what_was_assumed() {
    let r = read_position(INITIAL).unwrap();
    assert_eq!(fen_of(&r.position), format!("{INITIAL} w - - 0 1"));
    assert_eq!(r.notices.len(), 1);
    assert!(
        r.notices[0].contains("gives 1 of a FEN's 6 fields: assumed `w - - 0 1`"),
        "{:?}",
        r.notices
    );
    let r = read_position(&format!("{INITIAL} b KQkq")).unwrap();
    assert_eq!(fen_of(&r.position), format!("{INITIAL} b KQkq - 0 1"));
    assert!(r.notices[0].contains("assumed `- 0 1`"), "{:?}", r.notices);
    // A whole FEN has nothing to say.
    let r = read_position(&format!("{INITIAL} w KQkq - 0 1")).unwrap();
    assert!(r.notices.is_empty());
}

#[test]
fn an_epd_line_is_read_with_its_operations_ignored() {
    let r =
        read_position(r#"r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - bm Qxd8+; id "mate.1";"#)
            .unwrap();
    assert_eq!(
        fen_of(&r.position),
        "r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - 0 1"
    );
    assert_eq!(r.notices.len(), 2, "{:?}", r.notices);
    assert!(r.notices[0].contains(r#"operations `bm Qxd8+; id "mate.1";` are ignored"#));
    assert!(r.notices[1].contains("assumed `0 1`"));
}

#[test]
fn moves_are_played_with_legality_checked() {
    let r = read_position("startpos moves e2e4 e7e5 g1f3").unwrap();
    assert_eq!(
        fen_of(&r.position),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    assert!(r.notices.is_empty());
    let r = read_position(&format!("{INITIAL} w KQkq - 0 1 moves d2d4")).unwrap();
    assert_eq!(r.position.turn(), Color::Black);
    assert_eq!(
        read_position("startpos moves").unwrap().position,
        Chess::default()
    );
    let err = read_position("startpos moves e2e4 e2e4").unwrap_err();
    assert_eq!(
        err.to_string(),
        "move 2 after `moves`, `e2e4`, is not legal in \
         rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    let err = read_position("startpos moves e2e4 Nf6")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("move 2 after `moves`, `Nf6`, is not a move in UCI notation"),
        "{err}"
    );
    let err = read_position("startpos e2e4").unwrap_err().to_string();
    assert!(err.contains("only `moves ...` may follow it"), "{err}");
    let err = read_position("moves e2e4").unwrap_err().to_string();
    assert!(err.contains("`moves` without a position"), "{err}");
}

/// Knights out and back: `plies` half-moves without a capture or a pawn move.
fn shuffling(plies: usize) -> String {
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves: Vec<&str> = cycle.iter().copied().cycle().take(plies).collect();
    format!("startpos moves {}", moves.join(" "))
}

#[test]
fn the_fen_of_a_position_read_reads_back() {
    // Past the 75-move rule's 150 half-moves, which a `moves` list does not stop at.
    let r = read_position(&shuffling(154)).unwrap();
    let fen = fen_of(&r.position);
    assert_eq!(
        fen,
        "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 154 78"
    );
    assert_eq!(fen_of(&parse_position(&fen).unwrap()), fen);
    // Up to the last move number a FEN is read with, and no further.
    let r = read_position(&shuffling(19_998)).unwrap();
    let fen = fen_of(&r.position);
    assert!(fen.ends_with(" 19998 10000"), "{fen}");
    assert_eq!(fen_of(&parse_position(&fen).unwrap()), fen);
    let err = read_position(&shuffling(20_000)).unwrap_err().to_string();
    assert!(
        err.starts_with("move 20000 after `moves`, `f6g8`, goes past the longest game read"),
        "{err}"
    );
}

#[test]
fn long_input_is_cut_in_the_message() {
    let long = format!("{INITIAL}/{} w - - 0 1", "Q".repeat(2_000_000));
    let err = refusal(&long);
    assert!(err.len() < 400, "{} bytes", err.len());
    assert!(err.contains("more characters)"), "{err}");
    let err = refusal("8/8/8/8/8/8/8/8\u{1b}[2J w - - 0 1");
    assert!(!err.contains('\u{1b}'), "{err}");
}
