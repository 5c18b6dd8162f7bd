//! Sargon's data as an engine holds it ([`SargonMemory`]): the one interface an engine
//! implements for its hooks ([`crate::hooks`]) and for the whole-state comparison
//! ([`crate::state`]).
//!
//! It is a module of its own so that both can use it without using each other; its names
//! are public as `sargon_core::hooks::{SargonMemory, Var, Pointer, Table}` and
//! `sargon_core::state::Area`.

/// Sargon's one-byte variables the views read.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Var {
    /// NPLY: the current ply.
    Nply,
    /// PLYMAX: the nominal search depth.
    Plymax,
    /// COLOR: the side to move at this ply (0 or 0x80).
    Color,
    /// P1: the board byte of the piece whose moves MPIECE generates.
    P1,
    /// T1: that piece's row in the direction tables (its type, 0 for a black pawn).
    T1,
    /// M1: the square that piece stands on (the low byte of the original's index word).
    M1,
    /// M2: the square PATH has just looked at.
    M2,
}

/// Sargon's pointer variables the views read.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Pointer {
    /// MLPTRI: the ply table slot of the current ply (the head link of its move list).
    Mlptri,
    /// MLPTRJ: the move entry just made, scored or decided on.
    Mlptrj,
    /// SCRIX: the score table byte two plies above the current ply; the byte after it is
    /// the best score one ply above.
    Scrix,
}

/// Where Sargon's tables start.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Table {
    /// BOARDA: the 120-byte board.
    Board,
    /// PLYIX: the ply table, a (list head, current move) pair of words per ply.
    PlyIndex,
}

/// Sargon's data as an engine holds it: where the variables and tables are, and the bytes.
///
/// This is all an engine implements for its hooks; every view is built on it, so both
/// engines show a hook the same thing. Addresses are the engine's own (the emulator's are
/// the imported program's, the port's are its layout's); the views only follow pointers
/// found in memory and offsets the two layouts share.
pub trait SargonMemory {
    /// A one-byte variable.
    fn var(&self, var: Var) -> u8;
    /// A pointer variable's value.
    fn pointer(&self, pointer: Pointer) -> u16;
    /// The address where a table starts.
    fn table(&self, table: Table) -> u16;
    /// The byte at an address of the engine's memory.
    fn peek(&self, addr: u16) -> u8;

    /// For the whole-state comparison ([`crate::state`]): the one-byte variable `name`
    /// (one of [`crate::state::VARIABLES`]), or `None` if the engine does not keep it.
    fn state_var(&self, name: &str) -> Option<u8> {
        let _ = name;
        None
    }

    /// For the whole-state comparison: the pointer variable `name` (one of
    /// [`crate::state::POINTERS`]) as an address of this engine's memory.
    fn state_pointer(&self, name: &str) -> Option<u16> {
        let _ = name;
        None
    }

    /// For the whole-state comparison: where an area of Sargon's data starts in this
    /// engine's memory.
    fn area(&self, area: Area) -> Option<u16> {
        let _ = area;
        None
    }
}

/// The areas of Sargon's data an engine says the address of.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Area {
    /// The table area, from DIRECT (TBASE - 0x80).
    Tables,
    /// The book's moves (BMOVES).
    Book,
    /// The move list (MLIST).
    MoveList,
    /// The zeroed entry MLPTRJ points at before a search (the harness's, in the original;
    /// the port's own).
    Scratch,
}
