//! Reading positions: strict FEN ([`parse_position`]), what people type ([`read_position`]), and writing FEN.

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

use super::error::{FenField, PositionError, Unrepresentable, FEN_FIELDS};
use crate::input::echo;

/// A position read from a person's input, and what had to be assumed to read it.
#[derive(Clone, Debug)]
pub struct ReadPosition {
    /// The position read.
    pub position: Chess,
    /// One sentence per assumption or ignored part (a board without the other FEN fields,
    /// EPD operations); the caller shows them (the CLI on stderr, as `note: ...`).
    pub notices: Vec<String>,
}

/// What a missing field is taken to be, in the order of [`FEN_FIELDS`].
const FEN_DEFAULTS: [&str; 6] = ["", "w", "-", "-", "0", "1"];

/// The half-move clock's largest value: two half-moves a move, up to the largest move
/// number. Not the 75-move rule's 150: a `moves` list is played as UCI's `position` plays it,
/// without ending the game there, and the FEN of the position reached (`... - 154 78` after
/// 77 moves of knights going back and forth) must read back.
const MAX_HALF_MOVES: u64 = 2 * MAX_FULL_MOVES;

/// The full-move number's largest value: no game of chess reaches move 10000 (the 75-move
/// rule ends every game before move 8850).
const MAX_FULL_MOVES: u64 = 10_000;

/// Parse `startpos` or a standard chess FEN of exactly six fields into a legal position.
///
/// This is the strict reading for programs and files of positions: anything else is
/// refused with the field named (a FEN with fields missing or added, crazyhouse pockets,
/// Chess960 castling, counters out of range, a `moves` list). [`read_position`] is the
/// lenient reading for what people type.
///
/// ```
/// use sargon_core::position::{fen_of, parse_position};
///
/// let pos = parse_position("startpos")?;
/// assert_eq!(fen_of(&pos), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
/// let e = parse_position("startpos moves e2e4").unwrap_err();
/// assert!(e.to_string().contains("a `moves` list is not accepted here"));
/// # Ok::<(), sargon_core::position::PositionError>(())
/// ```
pub fn parse_position(text: &str) -> Result<Chess, PositionError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if let [word] = words[..]
        && word.eq_ignore_ascii_case("startpos")
    {
        return Ok(Chess::default());
    }
    if words.len() > 6 {
        // The fields first, so that an EPD line's operations are named as the counters
        // they stand in place of.
        check_fields(text, &words[..6])?;
        return Err(invalid(
            text,
            format!(
                "`{}` after field 6 ({}): a FEN has 6 fields",
                echo(words[6]),
                FEN_FIELDS[5]
            ),
        ));
    }
    if words.len() != 6 {
        let reason = if words.contains(&"moves") {
            "a `moves` list is not accepted here: give the position reached as a FEN".to_string()
        } else {
            format!(
                "a FEN has 6 fields ({}); this has {}",
                FEN_FIELDS.join(", "),
                words.len()
            )
        };
        return Err(invalid(text, reason));
    }
    let fields: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    position_of_fields(text, &fields)
}

/// Read a position as a person may give it: `startpos` or a FEN, then possibly `moves` and
/// moves in UCI notation (as the UCI `position` command takes them), each checked for
/// legality. Also read, each with a notice of what was assumed or ignored:
///
/// * a FEN cut short after the board, the side to move or the castling rights: the missing
///   fields are taken from `w - - 0 1`;
/// * the four position fields of an EPD line, with or without operations: the counters are
///   taken as `0 1` and the operations ignored.
///
/// Everything [`parse_position`] refuses besides is refused here too.
///
/// ```
/// use sargon_core::position::{fen_of, read_position};
///
/// let read = read_position("startpos moves e2e4 e7e5")?;
/// assert_eq!(fen_of(&read.position), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
/// assert!(read.notices.is_empty());
/// // A board alone: the other fields are assumed, and a notice says so.
/// let board_only = read_position("4k3/8/8/8/8/8/8/4K3")?;
/// assert_eq!(fen_of(&board_only.position), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
/// assert_eq!(board_only.notices.len(), 1);
/// assert!(read_position("startpos moves e2e5").is_err());
/// # Ok::<(), sargon_core::position::PositionError>(())
/// ```
pub fn read_position(text: &str) -> Result<ReadPosition, PositionError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let (head, moves) = match words.iter().position(|&w| w == "moves") {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (&words[..], &[][..]),
    };
    let mut notices = Vec::new();
    let mut position =
        match head {
            [] if words.is_empty() => {
                return Err(invalid(
                    text,
                    "nothing to read: give a FEN or `startpos`".into(),
                ))
            }
            [] => return Err(invalid(
                text,
                "`moves` without a position before it (`startpos moves ...` or `<FEN> moves ...`)"
                    .into(),
            )),
            [word] if word.eq_ignore_ascii_case("startpos") => Chess::default(),
            [word, rest @ ..] if word.eq_ignore_ascii_case("startpos") => {
                return Err(invalid(
                    text,
                    format!(
                        "`startpos` followed by `{}`: only `moves ...` may follow it",
                        echo(&rest.join(" "))
                    ),
                ))
            }
            _ => {
                let fields = complete_fields(text, head, &mut notices)?;
                position_of_fields(text, &fields)?
            }
        };
    for (i, &word) in moves.iter().enumerate() {
        let bad = |reason| PositionError::BadMove {
            number: i + 1,
            uci: echo(word),
            reason,
            fen: fen_of(&position),
        };
        let uci = word
            .parse::<UciMove>()
            .map_err(|_| bad("is not a move in UCI notation (such as e2e4 or e7e8q)"))?;
        let m = uci.to_move(&position).map_err(|_| bad("is not legal"))?;
        // What is read must stay within what a FEN is read with, so that the FEN written
        // for the position reached reads back.
        let mut next = position.clone();
        next.play_unchecked(m);
        if u64::from(next.fullmoves().get()) > MAX_FULL_MOVES
            || u64::from(next.halfmoves()) > MAX_HALF_MOVES
        {
            return Err(bad(
                "goes past the longest game read (move 10000, or 20000 half-moves without a capture or a pawn move)",
            ));
        }
        position = next;
    }
    Ok(ReadPosition { position, notices })
}

/// A FEN refused as a whole (too few or too many fields, and the like).
fn invalid(text: &str, problem: String) -> PositionError {
    PositionError::InvalidFen {
        fen: echo(text.trim()),
        field: None,
        problem,
    }
}

/// The six FEN fields of `words` (the part of the input before any `moves`): the missing
/// counters or trailing fields filled in, EPD operations dropped, each with a notice.
fn complete_fields(
    text: &str,
    words: &[&str],
    notices: &mut Vec<String>,
) -> Result<Vec<String>, PositionError> {
    let mut fields: Vec<String> = words.iter().take(4).map(|w| w.to_string()).collect();
    let rest = words.get(4..).unwrap_or(&[]);
    // A counter starts with a digit or a sign; anything else after the four position
    // fields is an EPD operation.
    let is_counter = |w: &str| w.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+');
    match rest {
        [] => {}
        [half, full] if is_counter(half) => {
            fields.push(half.to_string());
            fields.push(full.to_string());
            return Ok(fields);
        }
        [half] if is_counter(half) => {
            return Err(invalid(
                text,
                format!(
                    "field 6 ({}) is missing after the half-move clock `{}`",
                    FEN_FIELDS[5],
                    echo(half)
                ),
            ))
        }
        [half, _, extra, ..] if is_counter(half) => {
            return Err(invalid(
                text,
                format!(
                    "`{}` after field 6 ({}): a FEN has 6 fields",
                    echo(extra),
                    FEN_FIELDS[5]
                ),
            ))
        }
        operations => notices.push(format!(
            "read as EPD: its operations `{}` are ignored",
            echo(&operations.join(" "))
        )),
    }
    let given = fields.len();
    if given < 6 {
        let assumed = FEN_DEFAULTS[given..].join(" ");
        let names = FEN_FIELDS[given..].join(", ");
        notices.push(format!(
            "the position gives {given} of a FEN's 6 fields: assumed `{assumed}` for the {names}"
        ));
        fields.extend(FEN_DEFAULTS[given..].iter().map(|d| d.to_string()));
    }
    Ok(fields)
}

/// A check of one FEN field: why it is wrong, if it is.
type FieldCheck = fn(&str) -> Result<(), String>;

/// Check the fields of a FEN one by one, so that a message names the field at fault.
fn check_fields(text: &str, fields: &[impl AsRef<str>]) -> Result<(), PositionError> {
    let checks: [FieldCheck; 6] = [
        check_board,
        check_side,
        check_castling,
        check_en_passant,
        check_half_moves,
        check_full_moves,
    ];
    for (i, (field, check)) in fields.iter().zip(checks).enumerate() {
        check(field.as_ref()).map_err(|problem| PositionError::InvalidFen {
            fen: echo(text.trim()),
            field: Some(FenField::ALL[i]),
            problem,
        })?;
    }
    Ok(())
}

/// The position of a FEN's six fields: each field checked, then the position's legality.
fn position_of_fields(text: &str, fields: &[String]) -> Result<Chess, PositionError> {
    check_fields(text, fields)?;
    let fen =
        Fen::from_ascii(fields.join(" ").as_bytes()).map_err(|e| invalid(text, e.to_string()))?;
    fen.into_position(CastlingMode::Standard).map_err(|e| {
        let kinds = e.kinds();
        use shakmaty::PositionErrorKinds as K;
        use Unrepresentable as U;
        let mut why = Vec::new();
        if kinds.contains(K::EMPTY_BOARD) || kinds.contains(K::MISSING_KING) {
            why.push(U::MissingKing);
        }
        for (kind, reason) in [
            (K::TOO_MANY_KINGS, U::TooManyKings),
            (K::PAWNS_ON_BACKRANK, U::PawnsOnBackRank),
            (K::TOO_MUCH_MATERIAL, U::TooMuchMaterial),
            (K::OPPOSITE_CHECK, U::OppositeCheck),
            (K::IMPOSSIBLE_CHECK, U::ImpossibleCheck),
            (K::INVALID_CASTLING_RIGHTS, U::InvalidCastlingRights),
            (K::INVALID_EP_SQUARE, U::InvalidEnPassantSquare),
        ] {
            if kinds.contains(kind) {
                why.push(reason);
            }
        }
        if why.is_empty() {
            why.push(U::Illegal);
        }
        PositionError::Unrepresentable(why)
    })
}

/// Eight ranks separated by `/`, each covering eight squares with piece letters and counts
/// of empty squares. Crazyhouse's pockets and promotion marks are named as such.
fn check_board(board: &str) -> Result<(), String> {
    const PIECES: &str = "PNBRQKpnbrqk";
    if let Some(at) = board.find('[') {
        return Err(format!(
            "`{}` looks like crazyhouse pockets: only standard chess is played",
            echo(&board[at..])
        ));
    }
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() == 9 && ranks[8].is_empty() {
        return Err("a `/` after the 8th rank".into());
    }
    if ranks.len() == 9 && ranks[8].chars().all(|c| PIECES.contains(c)) {
        return Err(format!(
            "a 9th part `{}` after the 8 ranks looks like crazyhouse pockets: only standard chess is played",
            echo(ranks[8])
        ));
    }
    if ranks.len() != 8 {
        return Err(format!(
            "{} ranks; a board has 8, separated by `/`",
            ranks.len()
        ));
    }
    for (i, rank) in ranks.iter().enumerate() {
        let number = 8 - i;
        let mut squares = 0;
        for c in rank.chars() {
            match c {
                '1'..='8' => squares += c as usize - '0' as usize,
                c if PIECES.contains(c) => squares += 1,
                '~' => {
                    return Err(format!(
                        "rank {number} `{}`: `~` marks a promoted piece in crazyhouse: only standard chess is played",
                        echo(rank)
                    ))
                }
                c => {
                    return Err(format!(
                        "rank {number} `{}`: `{}` is neither a piece (PNBRQK, pnbrqk) nor a count of empty squares (1-8)",
                        echo(rank),
                        echo(&c.to_string())
                    ))
                }
            }
        }
        if squares != 8 {
            return Err(format!(
                "rank {number} `{}` covers {squares} squares; a rank has 8",
                echo(rank)
            ));
        }
    }
    Ok(())
}

fn check_side(side: &str) -> Result<(), String> {
    match side {
        "w" | "b" => Ok(()),
        _ => Err(format!("`{}`: expected `w` or `b`", echo(side))),
    }
}

/// `-` or some of `KQkq`, each once. Chess960's rook files (Shredder-FEN, X-FEN) are not
/// standard chess.
fn check_castling(castling: &str) -> Result<(), String> {
    if castling == "-" {
        return Ok(());
    }
    let mut seen = String::new();
    for c in castling.chars() {
        if "KQkq".contains(c) {
            if seen.contains(c) {
                return Err(format!("`{}`: `{c}` twice", echo(castling)));
            }
            seen.push(c);
        } else if c.is_ascii_alphabetic() && ('a'..='h').contains(&c.to_ascii_lowercase()) {
            return Err(format!(
                "`{}`: castling named by a rook's file (`{c}`) is Chess960's; standard chess writes K, Q, k, q",
                echo(castling)
            ));
        } else {
            return Err(format!(
                "`{}`: expected `-` or some of `KQkq`",
                echo(castling)
            ));
        }
    }
    Ok(())
}

/// `-` or a square of the 3rd or 6th rank (where a double pawn push can be taken).
fn check_en_passant(ep: &str) -> Result<(), String> {
    if ep == "-" {
        return Ok(());
    }
    match ep.as_bytes() {
        [b'a'..=b'h', b'3' | b'6'] => Ok(()),
        [b'a'..=b'h', b'1'..=b'8'] => Err(format!(
            "`{ep}` is not on the 3rd or 6th rank, where a pawn can be taken en passant"
        )),
        _ => Err(format!(
            "`{}`: expected `-` or a square such as e3",
            echo(ep)
        )),
    }
}

/// A whole number in `0..=max`, without a sign.
fn check_counter(text: &str, min: u64, max: u64, why_max: &str) -> Result<(), String> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "`{}` is not a whole number from {min} to {max}",
            echo(text)
        ));
    }
    match text.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(()),
        _ => Err(format!(
            "`{}` is out of the range {min}..={max} ({why_max})",
            echo(text)
        )),
    }
}

fn check_half_moves(text: &str) -> Result<(), String> {
    check_counter(
        text,
        0,
        MAX_HALF_MOVES,
        "no game of chess reaches move 10000, so no clock counts 20000 half-moves",
    )
}

fn check_full_moves(text: &str) -> Result<(), String> {
    check_counter(
        text,
        1,
        MAX_FULL_MOVES,
        "the count starts at 1, and no game of chess reaches move 10000",
    )
}

/// FEN of a position (en passant written only when a capture is legal).
///
/// ```
/// use sargon_core::position::{fen_of, parse_position};
/// // En passant is written only where a capture is legal.
/// let fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
/// assert_eq!(fen_of(&parse_position(fen)?), fen);
/// let no_capture = "4k3/8/8/3p4/8/8/8/4K3 w - d6 0 2";
/// assert_eq!(fen_of(&parse_position(no_capture)?), "4k3/8/8/3p4/8/8/8/4K3 w - - 0 2");
/// # Ok::<(), sargon_core::position::PositionError>(())
/// ```
pub fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}
