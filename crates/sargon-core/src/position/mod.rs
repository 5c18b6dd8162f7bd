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

mod diagram;
mod error;
mod fen;
mod setup;
#[cfg(test)]
mod tests;

pub use diagram::BoardDiagram;
pub use error::{FenField, PositionError, Unrepresentable};
pub use fen::{fen_of, parse_position, read_position, ReadPosition};
pub use setup::{board_of, kept_board_differs, setup, Book, Setup};
