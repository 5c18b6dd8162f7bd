//! PINFND by occupancy bits: not part of the original, the same result as
//! [`Machine::pinfnd`] in fewer steps.
//!
//! PINFND walks the eight lines out of each royal piece (POSK, POSQ) square by square with
//! PATH. Along a line it only looks for the first two pieces: a pin is a piece of the
//! royal piece's colour with an enemy slider behind it. With the board's occupied squares
//! as bits (from the cache's key, which holds the squares a1..h8) those two pieces are
//! found with a bit scan each, and what PATH leaves behind is known from them:
//!
//! * M2: where the last line's scan stopped (the second piece, the first if it is an
//!   enemy, or the border square after the line's last square), or where PF19's ATTACK
//!   left it if that came last;
//! * P2/T2: the last square on the board that PATH read in the whole of PINFND (on the
//!   border PATH leaves them alone): the square the scan stopped on, or the line's last
//!   square when the scan ran into the border (an empty square, unless it was the first
//!   piece);
//! * M4: the last line's candidate (its first piece if that is of the royal piece's
//!   colour, else 0); M3 and P1: the last royal piece's square and board byte.
//!
//! A queen with a queen behind one of its pieces is PF19's case: PINFND runs ATTACK on the
//! queen's square, with the pins found so far in memory (PNCK reads them), and so does
//! this (see `pf19`). Where PINFND does what this does not follow, the original's steps
//! run instead, from the memory as it was: more than 10 pins (the pin list runs into the
//! royalty table), a royalty table that does not end after its four squares or names a
//! square off the board, and a border byte on the board.

use super::memo::{index, on_board, RAYS, SQUARES};
use crate::faithful::state::{
    Machine, ATKLST, BACT, DIRECTIONS, PLIST, PLISTD, POSK, ROYAL_END, WACT,
};
use sargon_core::vocab::{BISHOP, BOARD_SIZE, QUEEN, ROOK};

/// The board's occupied squares (memo places, a1 = bit 0), from its 8 ranks of 8 bytes
/// (a1..h1 first, each rank's a-file in the low byte); None if a square holds a border
/// byte (0xff), which PATH takes for the border.
pub(crate) fn occupancy(ranks: &[u64; 8]) -> Option<u64> {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Gathers the top bit of each byte (moved down to its bottom) into the top byte.
    const GATHER: u64 = 0x0102_0408_1020_4080;
    /// The bytes of `w` that are not 0: bit 7 of each set.
    fn nonzero(w: u64) -> u64 {
        (((w & LOW7) + LOW7) | w) & HIGH
    }
    let mut occ = 0u64;
    let mut border = 0u64;
    for (r, &w) in ranks.iter().enumerate() {
        occ |= (((nonzero(w) >> 7).wrapping_mul(GATHER)) >> 56) << (8 * r);
        border |= !nonzero(!w) & HIGH;
    }
    (border == 0).then_some(occ)
}

/// What PINFND's scans leave so far: M2 and M4 as the last line's scan left them, the
/// last square on the board PATH read (0: none yet), the pins found, and whether the
/// original's steps must run instead.
struct Scans {
    m2: u8,
    m4: u8,
    last_read: u8,
    pins: [(u8, u8); 10],
    npins: usize,
    /// The pins already written to memory (before PF19's ATTACK, whose PNCK reads them).
    written: usize,
    /// The attack list and the pin list as they were before the first PF19 wrote to
    /// them, to put back if the original's steps must run after all.
    saved: Option<[u8; 34]>,
    refused: bool,
}

/// `EDGES[k][line]`: the last square of line `line` (DIRECT index) out of the memo place
/// `k` before the border (0 if `k` is on the edge that way), and the border square after
/// it, where a scan that meets no piece stops.
static EDGES: [[(u8, u8); 8]; 64] = edges_table();

const fn edges_table() -> [[(u8, u8); 8]; 64] {
    let mut t = [[(0u8, 0u8); 8]; 64];
    let mut k = 0;
    while k < 64 {
        let mut line = 0;
        while line < 8 {
            let c = DIRECTIONS[line];
            let mut sq = SQUARES[k];
            let mut edge = 0;
            while on_board(sq.wrapping_add(c) as usize) {
                sq = sq.wrapping_add(c);
                edge = sq;
            }
            t[k][line] = (edge, sq.wrapping_add(c));
            line += 1;
        }
        k += 1;
    }
    t
}

/// PINFND's scan of line `LINE` (DIRECT index) out of the memo place `k` for the royal
/// piece `p1`, by the occupancy bits `occ`: the first two pieces on the line decide.
#[inline(always)]
fn scan_line<const LINE: usize>(
    m: &mut Machine,
    board: &[u8; BOARD_SIZE],
    occ: u64,
    k: usize,
    p1: u8,
    s: &mut Scans,
) {
    // Towards higher places (the nearest is the lowest bit) or lower ones.
    let up = DIRECTIONS[LINE] < 0x80;
    let nearest = |bits: u64| {
        if up {
            bits.trailing_zeros() as usize
        } else {
            63 - bits.leading_zeros() as usize
        }
    };
    let pieces = RAYS[k][LINE] & occ;
    let (edge, border) = EDGES[k][LINE];
    if pieces == 0 {
        // Empty up to the border: the edge square was the last read (if there is one).
        (s.m2, s.m4) = (border, 0);
        if edge != 0 {
            s.last_read = edge;
        }
        return;
    }
    let t = nearest(pieces);
    let first = SQUARES[t];
    if (board[usize::from(first)] ^ p1) & 0x80 != 0 {
        // An enemy first: no candidate, no pin.
        (s.m2, s.m4, s.last_read) = (first, 0, first);
        return;
    }
    let rest = pieces & !(1u64 << t);
    if rest == 0 {
        (s.m2, s.m4, s.last_read) = (border, first, edge);
        return;
    }
    let second = SQUARES[nearest(rest)];
    (s.m2, s.m4, s.last_read) = (second, first, second);
    let v = board[usize::from(second)];
    if (v ^ p1) & 0x80 == 0 {
        return;
    }
    let pin = match v & 7 {
        QUEEN if p1 & 7 == QUEEN => pf19(m, s, SQUARES[k], p1),
        QUEEN => true,
        // PF10: ranks and files (DIRECT 4..8), else diagonals.
        t if LINE >= 4 => t == ROOK,
        t => t == BISHOP,
    };
    if pin {
        if s.npins == s.pins.len() {
            s.refused = true;
            return;
        }
        s.pins[s.npins] = (first, DIRECTIONS[LINE]);
        s.npins += 1;
    }
}

/// PF19 for the queen `p1` on `m3` with a queen behind one of its pieces: PINFND's
/// ATTACK on the queen's square, with the machine as PINFND has it then (the pins so far
/// in the pin list, which PNCK reads); a pin if the queen has fewer defenders than
/// attackers plus one.
fn pf19(m: &mut Machine, s: &mut Scans, m3: u8, p1: u8) -> bool {
    if s.saved.is_none() {
        s.saved = Some(m.bytes(ATKLST, 34).try_into().expect("34 bytes"));
    }
    write_pins(m, s);
    (m.m3, m.p1) = (m3, p1);
    m.clear_attack_list();
    m.t1 = 7;
    m.attack();
    // ATTACK left M2 and P2/T2 as its last knight jumps made them: PINFND's next line
    // sets M2 again, and a square read later replaces P2/T2 (none read before does).
    s.m2 = m.m2;
    s.last_read = 0;
    let (own, other) = if p1 & 0x80 == 0 {
        (WACT, BACT)
    } else {
        (BACT, WACT)
    };
    m.rd(own).wrapping_sub(m.rd(other)).wrapping_sub(1) & 0x80 != 0
}

/// Write the pins found since the last write, and NPINS.
fn write_pins(m: &mut Machine, s: &mut Scans) {
    for (n, &(sq, c)) in (1..).zip(&s.pins[..s.npins]).skip(s.written) {
        m.wr(PLISTD + n, c);
        m.wr(PLIST + n, sq);
    }
    s.written = s.npins;
    m.npins = s.npins as u8;
}

/// PINFND from the board's occupied squares `occ` (see [`occupancy`]): true if done,
/// with the machine left as [`Machine::pinfnd`] leaves it; false if nothing was written
/// and PINFND must run (see the module's notes).
pub(crate) fn pinfnd(m: &mut Machine, occ: u64) -> bool {
    if m.rd(ROYAL_END) != 0xFF {
        return false;
    }
    let royal: [u8; 4] = m.bytes(POSK, 4).try_into().expect("4 bytes");
    // (A copy: PF19 writes to the machine; nothing in PINFND writes to the board.)
    let board = &m.board_array();
    let mut s = Scans {
        m2: 0,
        m4: 0,
        last_read: 0,
        pins: [(0, 0); 10],
        npins: 0,
        written: 0,
        saved: None,
        refused: false,
    };
    // M3 and P1 as the last royal piece leaves them.
    let mut last = None;
    for &a in &royal {
        if a == 0xFF {
            break;
        }
        if a == 0 {
            continue;
        }
        let Some(k) = index(a) else {
            return false;
        };
        let p1 = board[usize::from(a)];
        scan_line::<0>(m, board, occ, k, p1, &mut s);
        scan_line::<1>(m, board, occ, k, p1, &mut s);
        scan_line::<2>(m, board, occ, k, p1, &mut s);
        scan_line::<3>(m, board, occ, k, p1, &mut s);
        scan_line::<4>(m, board, occ, k, p1, &mut s);
        scan_line::<5>(m, board, occ, k, p1, &mut s);
        scan_line::<6>(m, board, occ, k, p1, &mut s);
        scan_line::<7>(m, board, occ, k, p1, &mut s);
        last = Some((a, p1));
    }
    let Some((m3, p1)) = last else {
        return false;
    };
    if s.refused {
        if let Some(saved) = s.saved {
            m.set_bytes(ATKLST, &saved);
        }
        return false;
    }
    write_pins(m, &mut s);
    (m.m3, m.p1, m.m2, m.m4) = (m3, p1, s.m2, s.m4);
    if s.last_read != 0 {
        let p2 = board[usize::from(s.last_read)];
        (m.p2, m.t2) = (p2, p2 & 7);
    }
    true
}
