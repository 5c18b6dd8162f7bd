//! What changed since the previous POINTS ([`Changes`]), and the pin list as PNCK can read it.

use crate::faithful::state::{Machine, PLISTA};
use sargon_core::vocab::BOARD_SIZE;

/// The pin list as PNCK can read it: NPINS, then the first NPINS squares and directions
/// (unused entries zero). NPINS above 10 never matches: see [`pin_key`].
pub(super) type PinKey = [u8; 21];

/// What changed since the previous POINTS, from `PointsMemo::changes`.
pub(crate) struct Changes {
    /// Scan every square afresh.
    pub(super) all: bool,
    /// The pin list differs in a way that matters to every square with attackers.
    pub(super) pins_all: bool,
    /// The squares that are in the pin list now or were in the previous one (one bit
    /// per board index): the attackers PNCK may now judge otherwise.
    pub(super) pinned: u128,
    /// Per square (see `index`): the parts that read a changed square.
    pub(super) dirty: [u16; 64],
    /// The squares with dirty parts, one bit each.
    pub(super) dirty_squares: u64,
    /// The squares whose byte changed, one bit each.
    pub(super) changed: u64,
    /// The board, pin list and occupied squares the changes were found for, and whether
    /// the board's frame is broken (see `PointsMemo::take`).
    pub(super) board: [u8; BOARD_SIZE],
    pub(super) pins: PinKey,
    pub(super) occ: u64,
    pub(super) off: bool,
}

/// More changed squares than this and every square is scanned afresh.
pub(super) const MAX_CHANGES: usize = 16;

/// All 9 parts of a square.
pub(super) const ALL_PARTS: u16 = 0x1FF;
/// The knight jumps' part.
pub(super) const KNIGHTS: u16 = 0x100;

pub(super) fn pin_key(m: &Machine) -> PinKey {
    let mut key = [0u8; 21];
    let n = usize::from(m.npins);
    if n > 10 {
        // The pin list overflowed into the royalty table: a key no list matches.
        key[0] = 0xFF;
        return key;
    }
    key[0] = m.npins;
    key[1..1 + n].copy_from_slice(m.bytes(PLISTA, n));
    key[11..11 + n].copy_from_slice(m.bytes(PLISTA + 10, n));
    key
}
