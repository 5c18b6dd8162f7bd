//! Chess positions in, Sargon's board out.
//!
//! FEN parsing, legality and SAN come from `shakmaty`; this module turns a legal position
//! into what Sargon needs before a search ([`Setup`]): its 10x12 board with the "moved"
//! flag on every piece that is not on its home square, castling rights expressed through
//! the moved flags of king and rooks, the side to move, a move number, and possibly one
//! move to *replay inside Sargon* so that Sargon's own move list holds it:
//!
//! * an en passant square: Sargon only knows en passant through the previous move in its
//!   move list, so the position before the double pawn push is written and the push replayed;
//! * a position one White move after the initial one (Black to move): the book answers
//!   White's first move by looking at it in the move list, so the initial position is
//!   written and White's move replayed.
//!
//! Positions come in two readings: [`parse_position`] takes `startpos` or a standard FEN
//! of exactly six fields (for programs and files), [`read_position`] also takes what
//! people type: a FEN cut short, an EPD line, `moves` after the position. Both refuse
//! what is not standard chess with the field at fault named, and quote the input through
//! [`crate::input::echo`].
//!
//! The move number: Sargon's scoring penalises early rook and queen moves while MOVENO < 7
//! and plays its book when MOVENO = 1. A FEN full-move counter above 1 is used as it is
//! (capped at 255, Sargon's byte). A counter of 1 outside the book positions (most
//! hand-written FENs say "0 1") is replaced by an estimate, half the number of men off their
//! initial squares and at least 2, so that no book move is played in a middlegame.

use std::fmt;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, CastlingSide, Chess, Color, EnPassantMode, Position, Role, Square};

use crate::input::echo;
use crate::vocab::{self, Side, Sq, BLACK, BOARD_SIZE, MOVED, OFF_BOARD};

/// Everything an engine writes into Sargon before a search.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The board to write (BOARDA), before any replayed move.
    pub board: [u8; BOARD_SIZE],
    /// The side to move before any replayed move (COLOR for that board: [`Side::byte`]).
    pub side: Side,
    /// MOVENO. 1 makes FNDMOV play from its book.
    pub moveno: u8,
    /// A move to play inside Sargon (with its own move generator) after writing the board.
    pub replay: Option<(Sq, Sq)>,
    /// The position the search starts from (after the replayed move), for SAN and checks.
    pub position: Chess,
}

impl Setup {
    /// The side to move when the search starts (after any replay), as Sargon's colour byte.
    pub fn search_color(&self) -> u8 {
        color_byte(self.position.turn())
    }

    /// The search will play its move from the opening book instead of searching: FNDMOV
    /// consults the book when MOVENO is 1. Both engines report this as
    /// [`crate::engine::SearchOutcome::from_book`], decided here once.
    pub fn plays_from_book(&self) -> bool {
        self.moveno == 1
    }
}

/// Why a position cannot be given to Sargon. Every input quoted here has been through
/// [`echo`]: cut to a hundred characters, control characters escaped.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum PositionError {
    /// The FEN could not be read.
    #[error("invalid FEN `{fen}`: {}{problem}", field.map(|f| format!("field {} ({}): ", f.number(), f.name())).unwrap_or_default())]
    InvalidFen {
        /// The FEN given.
        fen: String,
        /// The field at fault, where one is (not for a FEN with too few or too many fields).
        field: Option<FenField>,
        /// What is wrong, in words.
        problem: String,
    },
    /// The position is legal chess, or nearly, but Sargon's board cannot hold it.
    #[error("Sargon cannot represent this position: {}", join(.0))]
    Unrepresentable(Vec<Unrepresentable>),
    /// A move of a `moves` list (numbered from 1) that cannot be played.
    #[error("move {number} after `moves`, `{uci}`, {reason} in {fen}")]
    BadMove {
        /// Its number in the list, from 1.
        number: usize,
        /// The move as given.
        uci: String,
        /// Why it cannot be played.
        reason: &'static str,
        /// The position it was to be played in.
        fen: String,
    },
}

impl PositionError {
    /// Does the message quote the text that was read? An invalid FEN's does; the others
    /// quote a part (a move) or nothing, so a caller that names the input quotes it itself.
    pub fn quotes_the_input(&self) -> bool {
        matches!(self, PositionError::InvalidFen { .. })
    }

    /// The same error quoting `text`, what the person wrote, where it quotes the FEN that
    /// was read from it: a reader that puts a FEN together (an EPD line's four fields with
    /// `0 1` added) quotes the line, not a FEN nobody wrote.
    pub fn quoting(self, text: &str) -> PositionError {
        match self {
            PositionError::InvalidFen { field, problem, .. } => PositionError::InvalidFen {
                fen: echo(text),
                field,
                problem,
            },
            other => other,
        }
    }
}

/// The six fields of a FEN, in order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FenField {
    /// Field 1: the pieces, rank 8 first.
    Board,
    /// Field 2: `w` or `b`.
    SideToMove,
    /// Field 3: `KQkq`, a part of it, or `-`.
    CastlingRights,
    /// Field 4: the square a pawn passed over, or `-`.
    EnPassantSquare,
    /// Field 5: half-moves since the last capture or pawn move.
    HalfMoveClock,
    /// Field 6: the move number.
    FullMoveNumber,
}

impl FenField {
    /// The fields in their order in a FEN.
    pub(crate) const ALL: [FenField; 6] = [
        FenField::Board,
        FenField::SideToMove,
        FenField::CastlingRights,
        FenField::EnPassantSquare,
        FenField::HalfMoveClock,
        FenField::FullMoveNumber,
    ];

    /// The field's number in a FEN, from 1.
    pub(crate) fn number(self) -> usize {
        self as usize + 1
    }

    /// The field's name, as messages give it ("castling rights").
    pub(crate) fn name(self) -> &'static str {
        FEN_FIELDS[self as usize]
    }
}

/// Why Sargon cannot take a position that was read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unrepresentable {
    /// A side has no king (Sargon keeps one king square per side).
    MissingKing,
    /// A side has two kings or more.
    TooManyKings,
    /// Pawns on the first or last rank.
    PawnsOnBackRank,
    /// More than 16 men for a side, or more than 8 pawns plus promotions.
    TooMuchMaterial,
    /// The side not to move is in check.
    OppositeCheck,
    /// A check that cannot arise in a game.
    ImpossibleCheck,
    /// Castling rights without king and rook on their home squares.
    InvalidCastlingRights,
    /// An en passant square that no double pawn push explains.
    InvalidEnPassantSquare,
    /// Not a legal chess position, for a reason none of the above names.
    Illegal,
    /// An en passant square on the wrong rank.
    EnPassantWrongRank(Square),
    /// An en passant square without the pawn that made the double push.
    EnPassantWithoutPawn(Square),
    /// The position before the double push to this square (Sargon replays the push to set
    /// up en passant) is not legal.
    BeforeDoublePushIllegal(Square),
}

impl std::fmt::Display for Unrepresentable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use Unrepresentable as U;
        match self {
            U::MissingKing => f.write_str("each side needs exactly one king (a king is missing)"),
            U::TooManyKings => {
                f.write_str("each side needs exactly one king (a side has two or more)")
            }
            U::PawnsOnBackRank => f.write_str("pawns on the first or last rank"),
            U::TooMuchMaterial => f.write_str(
                "too many pieces for a side (more than 16 men, or more than 8 pawns plus promotions)",
            ),
            U::OppositeCheck => f.write_str("the side not to move is in check"),
            U::ImpossibleCheck => f.write_str("the check on the board cannot arise in a game"),
            U::InvalidCastlingRights => {
                f.write_str("castling rights without king and rook on their home squares")
            }
            U::InvalidEnPassantSquare => {
                f.write_str("an en passant square that no double pawn push explains")
            }
            U::Illegal => f.write_str("not a legal chess position"),
            U::EnPassantWrongRank(ep) => write!(f, "en passant square {ep} on the wrong rank"),
            U::EnPassantWithoutPawn(ep) => write!(
                f,
                "en passant square {ep} without the pawn that made the double push"
            ),
            U::BeforeDoublePushIllegal(to) => write!(
                f,
                "the position before the double push to {to} (needed for en passant) is not legal"
            ),
        }
    }
}

fn join(reasons: &[Unrepresentable]) -> String {
    let words: Vec<String> = reasons.iter().map(ToString::to_string).collect();
    words.join("; ")
}

/// A position read from a person's input, and what had to be assumed to read it.
#[derive(Clone, Debug)]
pub struct ReadPosition {
    /// The position read.
    pub position: Chess,
    /// One sentence per assumption or ignored part (a board without the other FEN fields,
    /// EPD operations); the caller shows them (the CLI on stderr, as `note: ...`).
    pub notices: Vec<String>,
}

/// The six fields of a FEN, as messages name them.
const FEN_FIELDS: [&str; 6] = [
    "board",
    "side to move",
    "castling rights",
    "en passant square",
    "half-move clock",
    "full-move number",
];

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
pub fn parse_position(text: &str) -> Result<Chess, PositionError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if let [word] = words[..] {
        if word.eq_ignore_ascii_case("startpos") {
            return Ok(Chess::default());
        }
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
pub fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// May Sargon answer from its opening book? (It has one for the first move of each side.)
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Book {
    /// In a book position Sargon plays the book's move, as the original does at move 1.
    Allowed,
    /// Sargon searches every position, book positions included.
    Off,
}

/// `true`: [`Book::Allowed`], as a command's `!no_book` reads.
impl From<bool> for Book {
    fn from(allowed: bool) -> Book {
        if allowed {
            Book::Allowed
        } else {
            Book::Off
        }
    }
}

/// Build Sargon's set-up for `pos`. With [`Book::Off`], a book position gets move number 2
/// so that Sargon searches instead of playing from its book.
pub fn setup(pos: &Chess, book: Book) -> Result<Setup, PositionError> {
    let book = book == Book::Allowed;
    let initial = Chess::default();
    // A book position: the initial one, or one White move after it.
    let mut book_reply: Option<shakmaty::Move> = None;
    let is_initial = same_position(pos, &initial);
    if !is_initial && pos.turn() == Color::Black {
        for m in initial.legal_moves() {
            let mut after = initial.clone();
            after.play_unchecked(m);
            if same_position(pos, &after) {
                book_reply = Some(m);
                break;
            }
        }
    }
    let in_book = is_initial || book_reply.is_some();

    let moveno = if in_book {
        if book {
            1
        } else {
            2
        }
    } else if pos.fullmoves().get() > 1 {
        pos.fullmoves().get().min(255) as u8
    } else {
        estimated_moveno(pos)
    };

    // The position written before any replay, and the replayed move.
    let (written, replay): (Chess, Option<(Square, Square)>) = match (book && in_book, book_reply) {
        (true, Some(m)) => (initial, Some((m.from().expect("normal move"), m.to()))),
        _ => match pos.maybe_ep_square() {
            Some(ep) => {
                let (before, from, to) = before_double_push(pos, ep)?;
                (before, Some((from, to)))
            }
            None => (pos.clone(), None),
        },
    };

    Ok(Setup {
        board: board_of(&written),
        side: Side::of_byte(color_byte(written.turn())),
        moveno,
        replay: replay.map(|(f, t)| (Sq::from_shakmaty(f), Sq::from_shakmaty(t))),
        position: pos.clone(),
    })
}

fn color_byte(c: Color) -> u8 {
    match c {
        Color::White => 0,
        Color::Black => BLACK,
    }
}

fn same_position(a: &Chess, b: &Chess) -> bool {
    a.board() == b.board()
        && a.turn() == b.turn()
        && a.castles().castling_rights() == b.castles().castling_rights()
        && a.ep_square(EnPassantMode::Legal) == b.ep_square(EnPassantMode::Legal)
}

/// Half the number of men not on their initial squares, at least 2 (1 would start the book).
fn estimated_moveno(pos: &Chess) -> u8 {
    let initial = Chess::default();
    let moved = Square::ALL
        .iter()
        .filter(|&&sq| {
            let home = initial.board().piece_at(sq);
            home.is_some() && pos.board().piece_at(sq) != home
        })
        .count();
    (moved / 2).max(2) as u8
}

/// Undo the double pawn push that the en passant square `ep` stands for.
fn before_double_push(pos: &Chess, ep: Square) -> Result<(Chess, Square, Square), PositionError> {
    let pusher = !pos.turn();
    let (from, to) = match pusher {
        Color::White => (ep.offset(-8), ep.offset(8)),
        Color::Black => (ep.offset(8), ep.offset(-8)),
    };
    let (Some(from), Some(to)) = (from, to) else {
        return Err(PositionError::Unrepresentable(vec![
            Unrepresentable::EnPassantWrongRank(ep),
        ]));
    };
    let mut setup = pos.to_setup(EnPassantMode::Always);
    let pawn = setup.board.remove_piece_at(to);
    if pawn != Some(pusher.pawn()) || setup.board.piece_at(from).is_some() {
        return Err(PositionError::Unrepresentable(vec![
            Unrepresentable::EnPassantWithoutPawn(ep),
        ]));
    }
    setup.board.set_piece_at(from, pusher.pawn());
    setup.turn = pusher;
    setup.ep_square = None;
    let before = <Chess as shakmaty::FromSetup>::from_setup(setup, CastlingMode::Standard)
        .map_err(|_| {
            PositionError::Unrepresentable(vec![Unrepresentable::BeforeDoublePushIllegal(to)])
        })?;
    Ok((before, from, to))
}

/// Sargon's board for a position: piece codes, colour bit, and the moved flag on every
/// man not on its home square; king and rooks on their home squares are marked moved only
/// where that is needed to take a castling right away.
pub fn board_of(pos: &Chess) -> [u8; BOARD_SIZE] {
    let mut board = [OFF_BOARD; BOARD_SIZE];
    let castles = pos.castles();
    for rank in 0..8u32 {
        for file in 0..8u32 {
            let sq = Square::from_coords(shakmaty::File::new(file), shakmaty::Rank::new(rank));
            let idx = Sq::from_shakmaty(sq).0 as usize;
            board[idx] = match pos.board().piece_at(sq) {
                None => 0,
                Some(piece) => {
                    let code = role_code(piece.role) | color_byte(piece.color);
                    let unmoved = on_home_square(pos, castles, piece, sq);
                    if unmoved {
                        code
                    } else {
                        code | MOVED
                    }
                }
            };
        }
    }
    board
}

fn role_code(role: Role) -> u8 {
    match role {
        Role::Pawn => vocab::PAWN,
        Role::Knight => vocab::KNIGHT,
        Role::Bishop => vocab::BISHOP,
        Role::Rook => vocab::ROOK,
        Role::Queen => vocab::QUEEN,
        Role::King => vocab::KING,
    }
}

/// Is `piece` on `sq` to be treated as never moved?
fn on_home_square(
    pos: &Chess,
    castles: &shakmaty::Castles,
    piece: shakmaty::Piece,
    sq: Square,
) -> bool {
    let c = piece.color;
    let back = c.fold_wb(shakmaty::Rank::First, shakmaty::Rank::Eighth);
    let pawns = c.fold_wb(shakmaty::Rank::Second, shakmaty::Rank::Seventh);
    let file = sq.file();
    use shakmaty::File as F;
    let king_home = Square::from_coords(F::E, back);
    let king_at_home = pos.board().piece_at(king_home) == Some(c.king());
    let k_side = castles.has(c, CastlingSide::KingSide);
    let q_side = castles.has(c, CastlingSide::QueenSide);
    if piece.role == Role::Pawn {
        return sq.rank() == pawns;
    }
    if sq.rank() != back {
        return false;
    }
    match (piece.role, file) {
        (Role::Knight, F::B | F::G) | (Role::Bishop, F::C | F::F) | (Role::Queen, F::D) => true,
        // The king keeps its castling ability only through its unmoved flag.
        (Role::King, F::E) => k_side || q_side,
        // A rook at home is unmoved unless that would let the king castle without the right.
        (Role::Rook, F::H) => k_side || !king_at_home,
        (Role::Rook, F::A) => q_side || !king_at_home,
        _ => false,
    }
}

/// A board as 8 text lines (rank 8 first), Sargon's flags shown: `*` after a moved piece.
pub struct BoardDiagram<'a>(pub &'a [u8; BOARD_SIZE]);

impl fmt::Display for BoardDiagram<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8u8).rev() {
            write!(f, "{} ", rank + 1)?;
            for file in 0..8u8 {
                let b = self.0[Sq::from_file_rank(file, rank).0 as usize];
                let letter = match b & 7 {
                    1 => 'p',
                    2 => 'n',
                    3 => 'b',
                    4 => 'r',
                    5 => 'q',
                    6 => 'k',
                    _ => '.',
                };
                let letter = if b & BLACK == 0 {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                };
                let mark = if b & 7 != 0 && b & MOVED != 0 {
                    '*'
                } else {
                    ' '
                };
                write!(f, " {letter}{mark}")?;
            }
            writeln!(f)?;
        }
        write!(f, "   a  b  c  d  e  f  g  h")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let pos =
            parse_position("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1").unwrap();
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
        let r = read_position(
            r#"r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - bm Qxd8+; id "mate.1";"#,
        )
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
}
