//! The set-up for Sargon: its board, side, move number and a move to replay ([`Setup`], [`setup`], [`board_of`]).

use shakmaty::{CastlingMode, CastlingSide, Chess, Color, EnPassantMode, Position, Role, Square};

use super::error::{PositionError, Unrepresentable};
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
    ///
    /// ```
    /// use sargon_core::position::{read_position, setup, Book};
    /// use sargon_core::vocab::Side;
    ///
    /// // One White move after the initial position: the initial board is written and 1.e4
    /// // replayed inside Sargon, so the board's side is White and the search's Black.
    /// let pos = read_position("startpos moves e2e4")?.position;
    /// let s = setup(&pos, Book::Allowed)?;
    /// assert_eq!((s.side, s.replay.is_some()), (Side::White, true));
    /// assert_eq!(s.search_color(), Side::Black.byte());
    /// # Ok::<(), sargon_core::position::PositionError>(())
    /// ```
    pub fn search_color(&self) -> u8 {
        color_byte(self.position.turn())
    }

    /// The search will play its move from the opening book instead of searching: FNDMOV
    /// consults the book when MOVENO is 1. Both engines report this as
    /// [`crate::engine::SearchOutcome::from_book`], decided here once.
    ///
    /// ```
    /// use sargon_core::{setup, Book};
    /// let start = shakmaty::Chess::default();
    /// assert!(setup(&start, Book::Allowed)?.plays_from_book());
    /// assert!(!setup(&start, Book::Off)?.plays_from_book());
    /// # Ok::<(), sargon_core::position::PositionError>(())
    /// ```
    pub fn plays_from_book(&self) -> bool {
        self.moveno == 1
    }
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
///
/// ```
/// use sargon_core::position::{parse_position, setup, Book};
///
/// let s = setup(&shakmaty::Chess::default(), Book::Off)?;
/// assert_eq!((s.moveno, s.replay), (2, None)); // move 2: no book move
/// // A middlegame FEN saying "0 1": the move number is estimated from the men moved.
/// let middlegame = parse_position("r2n2k1/5ppp/b5q1/1P3N2/8/8/3Q1PPP/3R2K1 w - - 0 1")?;
/// assert!(setup(&middlegame, Book::Allowed)?.moveno >= 2);
/// # Ok::<(), sargon_core::position::PositionError>(())
/// ```
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

/// The first square where `kept`, a board as a game's memory holds it, has another man
/// than `pos` (type and colour; the moved and castled flags are the memory's to keep, and a
/// FEN cannot say them), or `None` when every square agrees.
///
/// ```
/// use sargon_core::position::{board_of, kept_board_differs, parse_position};
/// let start = parse_position("startpos")?;
/// let mut kept = board_of(&start);
/// kept[32] |= 0x08; // the moved flag: not a difference
/// assert_eq!(kept_board_differs(&kept, &start), None);
/// kept[35] = 0; // e2 emptied
/// assert_eq!(kept_board_differs(&kept, &start).map(|s| s.to_string()), Some("e2".into()));
/// # Ok::<(), sargon_core::position::PositionError>(())
/// ```
pub fn kept_board_differs(kept: &[u8; BOARD_SIZE], pos: &Chess) -> Option<Sq> {
    const MAN: u8 = 0x87;
    let wanted = board_of(pos);
    (21..99u8)
        .find(|&i| {
            let (k, w) = (kept[i as usize], wanted[i as usize]);
            w != OFF_BOARD && (k & MAN) != (w & MAN)
        })
        .map(Sq)
}

/// Sargon's board for a position: piece codes, colour bit, and the moved flag on every
/// man not on its home square; king and rooks on their home squares are marked moved only
/// where that is needed to take a castling right away.
///
/// ```
/// use sargon_core::position::board_of;
/// use sargon_core::vocab::{Board, PieceKind, Side, Sq};
///
/// let board = Board(board_of(&shakmaty::Chess::default()));
/// let e1 = board.piece_at(Sq::from_file_rank(4, 0)).unwrap();
/// assert_eq!((e1.kind, e1.side, e1.moved), (PieceKind::King, Side::White, false));
/// assert_eq!(board.piece_at(Sq::from_file_rank(4, 3)), None); // e4 is empty
/// assert_eq!(board.byte(Sq(0)), 0xff); // the border
/// ```
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
