//! Why a position is refused: [`PositionError`], the FEN field at fault, what Sargon cannot represent.

use shakmaty::Square;

use crate::input::echo;

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
    ///
    /// ```
    /// use sargon_core::position::{parse_position, read_position};
    /// assert!(parse_position("8/8/8 w - - 0 1").unwrap_err().quotes_the_input());
    /// assert!(!read_position("startpos moves e2e5").unwrap_err().quotes_the_input()); // quotes the move
    /// ```
    pub fn quotes_the_input(&self) -> bool {
        matches!(self, PositionError::InvalidFen { .. })
    }

    /// The same error quoting `text`, what the person wrote, where it quotes the FEN that
    /// was read from it: a reader that puts a FEN together (an EPD line's four fields with
    /// `0 1` added) quotes the line, not a FEN nobody wrote.
    ///
    /// ```
    /// use sargon_core::position::parse_position;
    /// // An EPD line's fields, put together as a FEN with `0 1`: the error quotes the line.
    /// let e = parse_position("8/8/8 w - - 0 1").unwrap_err().quoting("8/8/8 w - - bm e4;");
    /// assert!(e.to_string().contains("8/8/8 w - - bm e4;"));
    /// assert!(!e.to_string().contains("0 1"));
    /// ```
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

/// The six fields of a FEN, as messages name them.
pub(super) const FEN_FIELDS: [&str; 6] = [
    "board",
    "side to move",
    "castling rights",
    "en passant square",
    "half-move clock",
    "full-move number",
];
