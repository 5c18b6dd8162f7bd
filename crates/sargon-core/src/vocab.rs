//! Sargon's own vocabulary, shared by both engines: its board squares, piece codes,
//! move-list flags and the one-byte score scale.
//!
//! Everything here is a *fact about the data* Sargon works on (documented in the book and
//! visible in any memory dump of a running search), not code of Sargon's. Both the emulator
//! harness and the native port speak in these terms, so a trace from one can be compared
//! with a trace from the other byte for byte.

use std::fmt;

use shakmaty::{Chess, Move, Position, Role};

/// Piece type codes (bits 0-2 of a board byte).
pub const PAWN: u8 = 1;
/// Knight.
pub const KNIGHT: u8 = 2;
/// Bishop.
pub const BISHOP: u8 = 3;
/// Rook.
pub const ROOK: u8 = 4;
/// Queen.
pub const QUEEN: u8 = 5;
/// King.
pub const KING: u8 = 6;

/// Colour bit of a board byte and of `COLOR`/`KOLOR`: set for Black.
pub const BLACK: u8 = 0x80;
/// Board byte bit 3: the piece has moved.
pub const MOVED: u8 = 0x08;
/// Board byte bit 4 (kings only): the king has castled.
pub const CASTLED: u8 = 0x10;
/// Board bytes outside the 8x8 playing area.
pub(crate) const OFF_BOARD: u8 = 0xff;

/// Move-list flag bits (the `MLFLG` byte of an entry).
pub mod flag {
    /// Colour of a captured piece (set: Black).
    pub const CAPTURED_BLACK: u8 = 0x80;
    /// Castling or en passant: the next entry is the second half of the move.
    pub const DOUBLE: u8 = 0x40;
    /// Pawn promotion (always to a queen: Sargon knows no under-promotion).
    pub const PROMOTE: u8 = 0x20;
    /// First move of the moving piece.
    pub const FIRST_MOVE: u8 = 0x10;
    /// The captured piece had moved before.
    pub const CAPTURED_MOVED: u8 = 0x08;
    /// Type of the captured piece (0: no capture).
    pub const CAPTURED_TYPE: u8 = 0x07;
}

/// Size of Sargon's board array: 10 columns x 12 rows with a border of `0xff`.
pub const BOARD_SIZE: usize = 120;

/// A square as Sargon numbers it on its 10x12 board: a1 = 21, h1 = 28, a8 = 91, h8 = 98.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Sq(pub u8);

impl Sq {
    /// The Sargon index of a chess square (file 0-7 = a-h, rank 0-7 = 1-8).
    ///
    /// ```
    /// use sargon_core::Sq;
    /// assert_eq!(Sq::from_file_rank(4, 1), Sq(35)); // e2
    /// assert_eq!(Sq::from_file_rank(4, 1).to_string(), "e2");
    /// ```
    pub fn from_file_rank(file: u8, rank: u8) -> Sq {
        debug_assert!(file < 8 && rank < 8);
        Sq(21 + rank * 10 + file)
    }

    /// File and rank (0-7 each), or `None` for a border index.
    ///
    /// ```
    /// use sargon_core::Sq;
    /// assert_eq!(Sq(98).file_rank(), Some((7, 7))); // h8
    /// assert_eq!(Sq(20).file_rank(), None); // the border left of a1
    /// ```
    pub fn file_rank(self) -> Option<(u8, u8)> {
        let i = self.0;
        if !(21..=98).contains(&i) {
            return None;
        }
        let (rank, file) = ((i - 21) / 10, (i - 21) % 10);
        (file < 8 && rank < 8).then_some((file, rank))
    }

    /// The square in shakmaty's terms; `None` off the board.
    pub(crate) fn to_shakmaty(self) -> Option<shakmaty::Square> {
        let (file, rank) = self.file_rank()?;
        Some(shakmaty::Square::from_coords(
            shakmaty::File::new(file as u32),
            shakmaty::Rank::new(rank as u32),
        ))
    }

    /// The board index of a shakmaty square.
    ///
    /// ```
    /// use sargon_core::Sq;
    /// assert_eq!(Sq::from_shakmaty(shakmaty::Square::A8), Sq(91));
    /// ```
    pub fn from_shakmaty(sq: shakmaty::Square) -> Sq {
        Sq::from_file_rank(u32::from(sq.file()) as u8, u32::from(sq.rank()) as u8)
    }
}

impl fmt::Display for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.file_rank() {
            Some((file, rank)) => write!(f, "{}{}", (b'a' + file) as char, rank + 1),
            None => write!(f, "#{}", self.0),
        }
    }
}

/// A move as it stands in Sargon's move list: from and to squares, plus the flag byte.
///
/// Castling and en passant are two list entries in Sargon; this is the first of them,
/// which is the king's or the capturing pawn's move, so `from`-`to` is also the move's UCI.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct SMove {
    /// The from square.
    pub from: Sq,
    /// The to square.
    pub to: Sq,
    /// The move list entry's flag byte, as Sargon set it.
    pub flags: u8,
}

impl SMove {
    /// A move without flags, from Sargon's square numbers: what a hand-made trace or a test
    /// writes (`SMove::plain(35, 55)` is e2-e4).
    ///
    /// ```
    /// use sargon_core::{SMove, Sq};
    /// let e2e4 = SMove::plain(35, 55);
    /// assert_eq!((e2e4.from, e2e4.to, e2e4.flags), (Sq(35), Sq(55), 0));
    /// assert_eq!(e2e4.uci(), "e2e4");
    /// ```
    pub fn plain(from: u8, to: u8) -> SMove {
        SMove {
            from: Sq(from),
            to: Sq(to),
            flags: 0,
        }
    }

    /// The move in UCI coordinates (`e2e4`, `e7e8q` for Sargon's only promotion).
    ///
    /// ```
    /// use sargon_core::SMove;
    /// assert_eq!(SMove::plain(35, 55).uci(), "e2e4");
    /// ```
    pub fn uci(&self) -> String {
        let promo = if self.flags & flag::PROMOTE != 0 {
            "q"
        } else {
            ""
        };
        format!("{}{}{}", self.from, self.to, promo)
    }

    /// The legal chess move of `pos` that this move of Sargon's stands for, found by its
    /// squares (no detour through text): the legal move from `from` that lands on `to`,
    /// counting a castling move as the king's move (which is how Sargon lists it) and
    /// promoting to a queen exactly when the promotion flag is set. `None` when no legal
    /// move fits: Sargon generates moves that leave its king in check and drops them only
    /// when it plays them, so its trace may name such moves.
    ///
    /// ```
    /// use sargon_core::SMove;
    /// use shakmaty::{Chess, Position};
    ///
    /// let start = Chess::default();
    /// let e4 = SMove::plain(35, 55).to_chess(&start).expect("legal");
    /// assert_eq!(e4.to(), shakmaty::Square::E4);
    /// assert!(SMove::plain(35, 65).to_chess(&start).is_none()); // e2-e5
    /// ```
    pub fn to_chess(&self, pos: &Chess) -> Option<Move> {
        let from = self.from.to_shakmaty()?;
        let to = self.to.to_shakmaty()?;
        let promotion = (self.flags & flag::PROMOTE != 0).then_some(Role::Queen);
        pos.legal_moves().into_iter().find(|m| {
            let lands_on = match m.castling_side() {
                Some(side) => side.king_to(pos.turn()),
                None => m.to(),
            };
            m.from() == Some(from) && lands_on == to && m.promotion() == promotion
        })
    }
}

impl fmt::Display for SMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.uci())
    }
}

/// Sargon's one-byte score.
///
/// Sargon scores a position from the point of view of the side that has just moved, as
/// `0x80 - (4 * material + board control)` in a byte, where material counts a pawn as 2:
/// 0x80 is level, **smaller bytes are better** for the side that moved, one pawn is 8 units.
/// So plain unsigned byte comparisons order scores, which is how the search compares them.
/// Byte 0 is the initial value of the score table ("MAX", +16 pawns) and 0xff is what a
/// checkmated side scores.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Score(pub u8);

impl Score {
    /// Units per pawn on the byte scale.
    pub(crate) const UNITS_PER_PAWN: i32 = 8;

    /// The score in pawns for the side the byte belongs to (positive: good for that side).
    ///
    /// ```
    /// use sargon_core::Score;
    /// assert_eq!(Score(0x80).pawns(), 0.0);
    /// assert_eq!(Score(0x78).pawns(), 1.0); // smaller bytes are better
    /// ```
    pub fn pawns(self) -> f64 {
        f64::from(self.units()) / f64::from(Self::UNITS_PER_PAWN)
    }

    /// Signed units (eighths of a pawn), positive when good for the side the byte belongs to.
    pub(crate) fn units(self) -> i32 {
        0x80 - i32::from(self.0)
    }

    /// Centipawns, rounded toward zero where an eighth of a pawn is not whole (12.5 cp).
    ///
    /// ```
    /// use sargon_core::Score;
    /// assert_eq!(Score(0x7f).centipawns(), 12);
    /// assert_eq!(Score(0x90).centipawns(), -200);
    /// ```
    pub fn centipawns(self) -> i32 {
        self.units() * 100 / Self::UNITS_PER_PAWN
    }

    /// The byte for a score in pawns, clamped into the range Sargon can express.
    ///
    /// ```
    /// use sargon_core::Score;
    /// assert_eq!(Score::from_pawns(1.5), Score(0x74));
    /// assert_eq!(Score::from_pawns(-100.0), Score(0xff));
    /// ```
    pub fn from_pawns(pawns: f64) -> Score {
        let units = (pawns * f64::from(Self::UNITS_PER_PAWN)).round() as i32;
        Score((0x80 - units).clamp(0, 0xff) as u8)
    }

    /// The same score seen from the other side, as the search's `NEG` makes it.
    ///
    /// ```
    /// use sargon_core::Score;
    /// assert_eq!(Score(0x78).negated(), Score(0x88));
    /// assert_eq!(Score(0x78).negated().pawns(), -1.0);
    /// ```
    pub fn negated(self) -> Score {
        Score(self.0.wrapping_neg())
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#04x}", self.0)
    }
}

/// Which side: Sargon's colour byte is 0 for White and 0x80 for Black.
pub(crate) fn is_black(color: u8) -> bool {
    color & BLACK != 0
}

/// A side, as Sargon's colour bit (bit 7 of `COLOR`, `KOLOR` and of every board byte).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    /// White (colour byte 0).
    White,
    /// Black (colour byte 0x80).
    Black,
}

impl Side {
    /// The side of a colour byte or board byte: bit 7 set is Black.
    pub(crate) fn of_byte(byte: u8) -> Side {
        if is_black(byte) {
            Side::Black
        } else {
            Side::White
        }
    }

    /// Sargon's colour byte for the side (0 or 0x80).
    ///
    /// ```
    /// use sargon_core::vocab::Side;
    /// assert_eq!((Side::White.byte(), Side::Black.byte()), (0, 0x80));
    /// ```
    pub fn byte(self) -> u8 {
        match self {
            Side::White => 0,
            Side::Black => BLACK,
        }
    }
}

/// A piece type, with Sargon's codes (bits 0-2 of a board byte).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum PieceKind {
    /// Pawn (code 1).
    Pawn = PAWN as isize,
    /// Knight (code 2).
    Knight = KNIGHT as isize,
    /// Bishop (code 3).
    Bishop = BISHOP as isize,
    /// Rook (code 4).
    Rook = ROOK as isize,
    /// Queen (code 5).
    Queen = QUEEN as isize,
    /// King (code 6).
    King = KING as isize,
}

impl PieceKind {
    /// The type of a code 1-6; `None` for 0 (an empty square) and 7 (no such piece).
    pub(crate) fn from_code(code: u8) -> Option<PieceKind> {
        Some(match code {
            PAWN => PieceKind::Pawn,
            KNIGHT => PieceKind::Knight,
            BISHOP => PieceKind::Bishop,
            ROOK => PieceKind::Rook,
            QUEEN => PieceKind::Queen,
            KING => PieceKind::King,
            _ => return None,
        })
    }

    /// Sargon's code, 1-6.
    ///
    /// ```
    /// use sargon_core::vocab::PieceKind;
    /// assert_eq!((PieceKind::Pawn.code(), PieceKind::King.code()), (1, 6));
    /// ```
    pub fn code(self) -> u8 {
        self as u8
    }
}

/// A piece as a board byte describes it: type, colour and the "has moved" bit.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// The piece type.
    pub kind: PieceKind,
    /// The piece's side.
    pub side: Side,
    /// Bit 3 of the board byte: the piece has moved (Sargon's castling and development
    /// terms read it).
    pub moved: bool,
}

impl Piece {
    /// The piece a board byte holds; `None` for an empty square and for the border.
    pub(crate) fn from_board_byte(byte: u8) -> Option<Piece> {
        if byte == OFF_BOARD {
            return None;
        }
        Some(Piece {
            kind: PieceKind::from_code(byte & 7)?,
            side: Side::of_byte(byte),
            moved: byte & MOVED != 0,
        })
    }
}

/// Sargon's 10x12 board as its bytes: a piece byte, 0 for an empty square, 0xff on the
/// border.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Board(pub [u8; BOARD_SIZE]);

impl Board {
    /// The byte at a square index (any index 0-119, border included).
    ///
    /// ```
    /// use sargon_core::{position::board_of, vocab::Board, Sq};
    /// let board = Board(board_of(&shakmaty::Chess::default()));
    /// assert_eq!(board.byte(Sq(21)), 4); // a1: a White rook (code 4) that has not moved
    /// assert_eq!(board.byte(Sq(91)), 0x84); // a8: a Black one
    /// assert_eq!(board.byte(Sq(55)), 0); // e4: empty
    /// ```
    pub fn byte(&self, sq: Sq) -> u8 {
        self.0[sq.0 as usize]
    }

    /// The piece on a square; `None` when it is empty or on the border.
    ///
    /// ```
    /// use sargon_core::{position::board_of, vocab::{Board, PieceKind, Side}, Sq};
    /// let board = Board(board_of(&shakmaty::Chess::default()));
    /// let d8 = board.piece_at(Sq(94)).unwrap();
    /// assert_eq!((d8.kind, d8.side), (PieceKind::Queen, Side::Black));
    /// assert_eq!(board.piece_at(Sq(0)), None); // the border
    /// ```
    pub fn piece_at(&self, sq: Sq) -> Option<Piece> {
        Piece::from_board_byte(self.byte(sq))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip() {
        assert_eq!(Sq::from_file_rank(0, 0), Sq(21));
        assert_eq!(Sq::from_file_rank(7, 7), Sq(98));
        assert_eq!(Sq(25).to_string(), "e1");
        assert_eq!(Sq(20).file_rank(), None);
        assert_eq!(Sq(29).file_rank(), None);
        for sq in shakmaty::Square::ALL {
            assert_eq!(Sq::from_shakmaty(sq).to_shakmaty(), Some(sq));
        }
    }

    /// A move of Sargon's from its squares in UCI notation, with Sargon's flags.
    fn smove(uci: &str, flags: u8) -> SMove {
        let sq = |s: &str| {
            let sq: shakmaty::Square = s.parse().unwrap();
            Sq::from_shakmaty(sq)
        };
        SMove {
            from: sq(&uci[0..2]),
            to: sq(&uci[2..4]),
            flags,
        }
    }

    // Through shakmaty itself, not `crate::position`: the vocabulary comes before the
    // positions (which use it), even in its tests.
    fn position(fen: &str) -> Chess {
        if fen == "startpos" {
            return Chess::default();
        }
        let fen = shakmaty::fen::Fen::from_ascii(fen.as_bytes()).unwrap();
        fen.into_position(shakmaty::CastlingMode::Standard).unwrap()
    }

    #[test]
    fn ordinary_moves_convert_by_their_squares() {
        let pos = Chess::default();
        let m = smove("g1f3", flag::FIRST_MOVE).to_chess(&pos).unwrap();
        assert_eq!(m.role(), Role::Knight);
        assert_eq!(m.from(), Some(shakmaty::Square::G1));
        assert_eq!(m.to(), shakmaty::Square::F3);
        let capture = position("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 30");
        let m = smove("e4d5", PAWN).to_chess(&capture).unwrap();
        assert_eq!(m.capture(), Some(Role::Pawn));
    }

    #[test]
    fn castling_is_the_kings_move() {
        let pos = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 12");
        let short = smove("e1g1", flag::DOUBLE | flag::FIRST_MOVE)
            .to_chess(&pos)
            .unwrap();
        assert_eq!(
            short.castling_side(),
            Some(shakmaty::CastlingSide::KingSide)
        );
        let long = smove("e1c1", flag::DOUBLE | flag::FIRST_MOVE)
            .to_chess(&pos)
            .unwrap();
        assert_eq!(
            long.castling_side(),
            Some(shakmaty::CastlingSide::QueenSide)
        );
        let black = position("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 12");
        let m = smove("e8c8", flag::DOUBLE).to_chess(&black).unwrap();
        assert!(m.is_castle());
        // Without the right, the king's two-square move is no move at all.
        let no_rights = position("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 12");
        assert_eq!(smove("e1g1", flag::DOUBLE).to_chess(&no_rights), None);
    }

    #[test]
    fn en_passant_is_the_capturing_pawns_move() {
        let pos = position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 30");
        let m = smove("e5d6", flag::DOUBLE | PAWN).to_chess(&pos).unwrap();
        assert!(m.is_en_passant());
        assert_eq!(m.to(), shakmaty::Square::D6);
        // Without the en passant square the same squares are not a legal move.
        let late = position("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 30");
        assert_eq!(smove("e5d6", flag::DOUBLE | PAWN).to_chess(&late), None);
    }

    #[test]
    fn promotion_is_to_a_queen_when_flagged() {
        let pos = position("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 40");
        let push = smove("a7a8", flag::PROMOTE).to_chess(&pos).unwrap();
        assert_eq!(push.promotion(), Some(Role::Queen));
        let capture = smove("a7b8", flag::PROMOTE | KNIGHT)
            .to_chess(&pos)
            .unwrap();
        assert_eq!(capture.promotion(), Some(Role::Queen));
        assert_eq!(capture.capture(), Some(Role::Knight));
        // A pawn reaching the last rank must promote; a promotion flag on a move that does
        // not promote fits no legal move either.
        assert_eq!(smove("a7a8", 0).to_chess(&pos), None);
        assert_eq!(smove("e1e2", flag::PROMOTE).to_chess(&pos), None);
    }

    #[test]
    fn illegal_and_off_board_moves_convert_to_none() {
        // The king may take the rook, but not step beside it into its line.
        let rook = position("4k3/8/8/8/8/8/4r3/4K3 w - - 0 30");
        assert!(smove("e1e2", ROOK).to_chess(&rook).unwrap().is_capture());
        assert_eq!(smove("e1f2", 0).to_chess(&rook), None);
        // A move of the side not to move, a move of nothing, a square off the board.
        let pos = Chess::default();
        assert_eq!(smove("e7e5", 0).to_chess(&pos), None);
        assert_eq!(smove("e4e5", 0).to_chess(&pos), None);
        let border = SMove::plain(20, 35);
        assert_eq!(border.to_chess(&pos), None);
    }

    /// Every legal move Sargon can name (all but under-promotions) comes back from its squares.
    #[test]
    fn every_legal_move_comes_back_from_its_squares() {
        for fen in [
            "startpos",
            "r3k2r/pPp2ppp/8/3pP3/8/8/P1P2PPP/R3K2R w KQkq d6 0 20",
            "r3k2r/8/8/8/4pP2/8/1p6/R3K2R b KQkq f3 0 20",
        ] {
            let pos = position(fen);
            for m in pos.legal_moves() {
                if m.promotion().is_some_and(|r| r != Role::Queen) {
                    continue;
                }
                let to = match m.castling_side() {
                    Some(side) => side.king_to(pos.turn()),
                    None => m.to(),
                };
                let flags = if m.is_promotion() { flag::PROMOTE } else { 0 };
                let s = SMove {
                    from: Sq::from_shakmaty(m.from().unwrap()),
                    to: Sq::from_shakmaty(to),
                    flags,
                };
                assert_eq!(s.to_chess(&pos), Some(m), "{fen}: {s}");
            }
        }
    }

    #[test]
    fn score_scale() {
        assert_eq!(Score(0x80).pawns(), 0.0);
        assert_eq!(Score(0x80 - 27).pawns(), 3.375);
        assert_eq!(Score(0).pawns(), 16.0);
        assert_eq!(Score::from_pawns(-10.0), Score(0x80 + 80));
        assert_eq!(Score(0x80 - 27).negated(), Score(0x80 + 27));
        assert_eq!(Score(0x80 + 8).centipawns(), -100);
    }

    #[test]
    fn board_bytes_read_as_pieces() {
        let black_moved_rook = BLACK | MOVED | ROOK;
        assert_eq!(
            Piece::from_board_byte(black_moved_rook),
            Some(Piece {
                kind: PieceKind::Rook,
                side: Side::Black,
                moved: true
            })
        );
        assert_eq!(Piece::from_board_byte(0), None);
        assert_eq!(Piece::from_board_byte(OFF_BOARD), None);
        let mut bytes = [OFF_BOARD; BOARD_SIZE];
        bytes[25] = KING;
        let board = Board(bytes);
        assert_eq!(
            board.piece_at(Sq(25)).map(|p| p.kind),
            Some(PieceKind::King)
        );
        assert_eq!(board.piece_at(Sq(20)), None);
        assert_eq!(Side::of_byte(0x80), Side::Black);
        assert_eq!(Side::Black.byte(), 0x80);
    }
}
