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
//! The move number: Sargon's scoring penalises early rook and queen moves while MOVENO < 7
//! and plays its book when MOVENO = 1. A FEN full-move counter above 1 is used as it is
//! (capped at 255, Sargon's byte). A counter of 1 outside the book positions (most
//! hand-written FENs say "0 1") is replaced by an estimate, half the number of men off their
//! initial squares and at least 2, so that no book move is played in a middlegame.

use std::fmt;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, CastlingSide, Chess, Color, EnPassantMode, Position, Role, Square};

use crate::base::vocab::{self, Sq, BLACK, BOARD_SIZE, MOVED, OFF_BOARD};

/// Everything an engine writes into Sargon before a search.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The board to write (BOARDA), before any replayed move.
    pub board: [u8; BOARD_SIZE],
    /// COLOR for that board: the side to move before any replayed move.
    pub color: u8,
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
    /// [`crate::base::engine::SearchOutcome::from_book`], decided here once.
    pub fn plays_from_book(&self) -> bool {
        self.moveno == 1
    }
}

/// Why a position cannot be given to Sargon.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PositionError {
    #[error("invalid FEN `{fen}`: {reason}")]
    /// The FEN could not be read.
    InvalidFen {
        /// The FEN given.
        fen: String,
        /// Why it could not be read.
        reason: String,
    },
    #[error("Sargon cannot represent this position: {0}")]
    /// The position is legal but Sargon's board cannot hold it (the text says why).
    Unrepresentable(String),
}

/// Parse `startpos` or a FEN into a legal position.
pub fn parse_position(text: &str) -> Result<Chess, PositionError> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("startpos") {
        return Ok(Chess::default());
    }
    let fen = Fen::from_ascii(text.as_bytes()).map_err(|e| PositionError::InvalidFen {
        fen: text.to_string(),
        reason: e.to_string(),
    })?;
    fen.into_position(CastlingMode::Standard).map_err(|e| {
        let kinds = e.kinds();
        use shakmaty::PositionErrorKinds as K;
        let mut why = Vec::new();
        if kinds.contains(K::EMPTY_BOARD) || kinds.contains(K::MISSING_KING) {
            why.push("each side needs exactly one king (a king is missing)");
        }
        if kinds.contains(K::TOO_MANY_KINGS) {
            why.push("each side needs exactly one king (a side has two or more)");
        }
        if kinds.contains(K::PAWNS_ON_BACKRANK) {
            why.push("pawns on the first or last rank");
        }
        if kinds.contains(K::TOO_MUCH_MATERIAL) {
            why.push("too many pieces for a side (more than 16 men, or more than 8 pawns plus promotions)");
        }
        if kinds.contains(K::OPPOSITE_CHECK) {
            why.push("the side not to move is in check");
        }
        if kinds.contains(K::IMPOSSIBLE_CHECK) {
            why.push("the check on the board cannot arise in a game");
        }
        if kinds.contains(K::INVALID_CASTLING_RIGHTS) {
            why.push("castling rights without king and rook on their home squares");
        }
        if kinds.contains(K::INVALID_EP_SQUARE) {
            why.push("an en passant square that no double pawn push explains");
        }
        if why.is_empty() {
            why.push("not a legal chess position");
        }
        PositionError::Unrepresentable(why.join("; "))
    })
}

/// FEN of a position (en passant written only when a capture is legal).
pub fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// Build Sargon's set-up for `pos`. With `book` false, a book position gets move number 2
/// so that Sargon searches instead of playing from its book.
pub fn setup(pos: &Chess, book: bool) -> Result<Setup, PositionError> {
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
        color: color_byte(written.turn()),
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
        return Err(PositionError::Unrepresentable(format!(
            "en passant square {ep} on the wrong rank"
        )));
    };
    let mut setup = pos.to_setup(EnPassantMode::Always);
    let pawn = setup.board.remove_piece_at(to);
    if pawn != Some(pusher.pawn()) || setup.board.piece_at(from).is_some() {
        return Err(PositionError::Unrepresentable(format!(
            "en passant square {ep} without the pawn that made the double push"
        )));
    }
    setup.board.set_piece_at(from, pusher.pawn());
    setup.turn = pusher;
    setup.ep_square = None;
    let before = <Chess as shakmaty::FromSetup>::from_setup(setup, CastlingMode::Standard)
        .map_err(|_| {
            PositionError::Unrepresentable(format!(
                "the position before the double push to {to} (needed for en passant) is not legal"
            ))
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
    fn initial_position_is_the_books() {
        let s = setup(&Chess::default(), true).unwrap();
        assert_eq!(s.moveno, 1);
        assert_eq!(s.replay, None);
        assert_eq!(s.board[21], vocab::ROOK);
        assert_eq!(s.board[25], vocab::KING);
        assert_eq!(s.board[95], vocab::KING | BLACK);
        assert_eq!(s.board[31], vocab::PAWN);
        assert_eq!(s.board[20], OFF_BOARD);
        assert!(s.plays_from_book());
        let s = setup(&Chess::default(), false).unwrap();
        assert_eq!(s.moveno, 2);
        assert!(!s.plays_from_book());
    }

    #[test]
    fn one_white_move_replays_it_from_the_initial_position() {
        let pos =
            parse_position("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1").unwrap();
        let s = setup(&pos, true).unwrap();
        assert_eq!(s.moveno, 1);
        assert_eq!(s.replay, Some((Sq(27), Sq(46))));
        assert_eq!(s.color, 0);
        assert_eq!(s.board[27], vocab::KNIGHT);
        assert_eq!(s.search_color(), BLACK);
    }

    #[test]
    fn en_passant_replays_the_double_push() {
        let pos = parse_position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 30").unwrap();
        let s = setup(&pos, true).unwrap();
        assert_eq!(s.moveno, 30);
        assert!(
            !s.plays_from_book(),
            "not a book position, whatever `book` says"
        );
        assert_eq!(s.color, BLACK);
        assert_eq!(s.replay, Some((Sq(84), Sq(64))));
        assert_eq!(s.board[84], vocab::PAWN | BLACK);
        assert_eq!(s.board[64], 0);
    }

    #[test]
    fn castling_rights_become_moved_flags() {
        let pos = parse_position("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 12").unwrap();
        let b = setup(&pos, true).unwrap().board;
        assert_eq!(b[25], vocab::KING); // white king keeps a right
        assert_eq!(b[28], vocab::ROOK); // h1 rook: O-O allowed
        assert_eq!(b[21], vocab::ROOK | MOVED); // a1 rook: O-O-O not allowed
        assert_eq!(b[91], vocab::ROOK | BLACK);
        assert_eq!(b[98], vocab::ROOK | BLACK | MOVED);
        let none = parse_position("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 12").unwrap();
        let b = setup(&none, true).unwrap().board;
        assert_eq!(b[25], vocab::KING | MOVED);
    }

    #[test]
    fn move_number_estimate_avoids_the_book() {
        let pos = parse_position("r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - 0 1").unwrap();
        let s = setup(&pos, true).unwrap();
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
}
