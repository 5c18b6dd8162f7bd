//! The memo's board geometry, worked out at compile time: square indexes, rays, knight jumps, who reads a square.

use crate::faithful::state::DIRECTIONS;
use sargon_core::vocab::BOARD_SIZE;

/// INDEX[i]: the memo's place for board index `i` (a1 = 0 .. h8 = 63), or 0xFF off the
/// board.
pub(crate) static INDEX: [u8; BOARD_SIZE] = index_table();

pub(super) const fn index_table() -> [u8; BOARD_SIZE] {
    let mut t = [0xFFu8; BOARD_SIZE];
    let mut i = 0;
    while i < BOARD_SIZE {
        if on_board(i) {
            t[i] = ((i / 10 - 2) * 8 + i % 10 - 1) as u8;
        }
        i += 1;
    }
    t
}

/// The memo's place for the board square `s`, if it is one.
#[inline]
pub(crate) fn index(s: u8) -> Option<usize> {
    let i = *INDEX.get(usize::from(s))?;
    (i != 0xFF).then_some(usize::from(i))
}

/// SQUARES[k]: the board index of the memo's place `k` (the inverse of [`index`]), in
/// POINTS's order.
pub(crate) static SQUARES: [u8; 64] = squares_table();

pub(super) const fn squares_table() -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut k = 0;
    while k < 64 {
        t[k] = (21 + (k / 8) * 10 + k % 8) as u8;
        k += 1;
    }
    t
}

/// RAYS[k][line]: the squares (memo places, one bit each) that line `line` (DIRECTIONS
/// index) passes over from the memo's place `k` before the frame.
pub(crate) static RAYS: [[u64; 8]; 64] = rays_table();

pub(super) const fn rays_table() -> [[u64; 8]; 64] {
    let mut t = [[0u64; 8]; 64];
    let mut k = 0;
    while k < 64 {
        let mut line = 0;
        while line < 8 {
            let c = DIRECTIONS[line] as i8 as isize as usize;
            let mut s = (SQUARES[k] as usize).wrapping_add(c);
            while s < BOARD_SIZE && on_board(s) {
                t[k][line] |= 1 << INDEX[s];
                s = s.wrapping_add(c);
            }
            line += 1;
        }
        k += 1;
    }
    t
}

/// RAY_LEN[k][line]: how many squares RAYS[k][line] has.
pub(crate) static RAY_LEN: [[u8; 8]; 64] = ray_len_table();

pub(super) const fn ray_len_table() -> [[u8; 8]; 64] {
    let mut t = [[0u8; 8]; 64];
    let mut k = 0;
    while k < 64 {
        let mut line = 0;
        while line < 8 {
            t[k][line] = RAYS[k][line].count_ones() as u8;
            line += 1;
        }
        k += 1;
    }
    t
}

/// JUMPS[k]: the knight jumps (DIRECTIONS indexes 8..15, in ATTACK's order) from the
/// memo's place `k` that land on the board (there are at least two), ended by [`NONE`].
pub(super) static JUMPS: [[u8; 8]; 64] = jumps_table();

pub(super) const fn jumps_table() -> [[u8; 8]; 64] {
    let mut t = [[NONE; 8]; 64];
    let mut k = 0;
    while k < 64 {
        let mut n = 0;
        let mut iy = 8;
        while iy < 16 {
            let s = (SQUARES[k] as usize).wrapping_add(DIRECTIONS[iy] as i8 as isize as usize);
            if s < BOARD_SIZE && on_board(s) {
                t[k][n] = iy as u8;
                n += 1;
            }
            iy += 1;
        }
        k += 1;
    }
    t
}

/// Not a square (ends the lists of [`Readers`]).
pub(super) const NONE: u8 = 0xFF;

/// The squares (memo places) whose scans can read a square: a knight's jump away, and
/// for each line the squares behind it, nearest first (as many as are on the board;
/// lists end with [`NONE`]).
#[derive(Copy, Clone)]
pub(super) struct Readers {
    pub(super) knights: [u8; 8],
    pub(super) lines: [[u8; 7]; 8],
    /// How many squares each of `lines` has before its end.
    pub(super) line_len: [u8; 8],
}

/// READERS[k]: the [`Readers`] of the memo's place `k`.
pub(super) static READERS: [Readers; 64] = readers_table();

pub(super) const fn readers_table() -> [Readers; 64] {
    let mut t = [Readers {
        knights: [NONE; 8],
        lines: [[NONE; 7]; 8],
        line_len: [0; 8],
    }; 64];
    let mut k = 0;
    while k < 64 {
        let q = SQUARES[k] as usize;
        let mut n = 0;
        let mut j = 8;
        while j < 16 {
            let s = q.wrapping_sub(DIRECTIONS[j] as i8 as isize as usize);
            if s < BOARD_SIZE && on_board(s) {
                t[k].knights[n] = INDEX[s];
                n += 1;
            }
            j += 1;
        }
        let mut line = 0;
        while line < 8 {
            let c = DIRECTIONS[line] as i8 as isize as usize;
            let mut s = q;
            let mut dist = 0;
            while dist < 7 {
                s = s.wrapping_sub(c);
                if !(s < BOARD_SIZE && on_board(s)) {
                    break;
                }
                t[k].lines[line][dist] = INDEX[s];
                dist += 1;
            }
            t[k].line_len[line] = dist as u8;
            line += 1;
        }
        k += 1;
    }
    t
}

/// Is board index `i` one of a1..h8?
pub(crate) const fn on_board(i: usize) -> bool {
    i >= 21 && i < 99 && i % 10 >= 1 && i % 10 <= 8
}

/// Is every square outside a1..h8 a border byte, and none inside?
pub(super) fn frame_intact(board: &[u8; BOARD_SIZE]) -> bool {
    (0..BOARD_SIZE).all(|i| on_board(i) != (board[i] == 0xFF))
}
