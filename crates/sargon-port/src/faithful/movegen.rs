//! Move generation and attack detection: PATH, MPIECE, ENPSNT, ADJPTR, CASTLE, ADMOVE,
//! GENMOV, INCHK/INCHK1, ATTACK, ATKSAV, PNCK.
//!
//! Register values that the original passes between routines (PATH's verdict in A, the
//! direction in C, ATTACK's scan flags in D) are arguments and return values here; the
//! one-byte variables (M1.., P1.., T1..) stay in the machine because routines communicate
//! through them exactly as in the original.

use super::state::{Machine, BACT, DCOUNT, DIRECT, DIRECTIONS, DPOINT, PLISTA, POSK, PVALUE, WACT};
use sargon_core::hooks::{HookPoint, Hooks};
use sargon_core::vocab::{BISHOP, KING, KNIGHT, MOVED, PAWN, QUEEN, ROOK};

/// Black pawn as a board byte without flags.
const BPAWN: u8 = 0x81;

/// ATTACK's working copy of M3, P1 and the values PATH leaves in M2, P2 and T2 (see
/// [`Machine::attack`]).
struct Scan {
    m3: u8,
    p1: u8,
    m2: u8,
    p2: u8,
    t2: u8,
}

/// AT14A..AT25 for the piece `v` (neither empty nor the border) that the scan of line B
/// for P1 met, with D counting its square: set D's colour (and queen) flags and tell
/// whether it attacks the square along the line. False: the line's scan ends.
#[inline(always)]
pub(crate) const fn line_attacker(b: u8, p1: u8, d: &mut u8, v: u8) -> bool {
    if (v ^ p1) & 0x80 != 0 {
        // AT14A: other colour, unless the same colour was met first
        if *d & 0x40 != 0 {
            return false;
        }
        *d |= 0x20;
    } else {
        // AT14B
        if *d & 0x20 != 0 {
            return false;
        }
        *d |= 0x40;
    }
    // AT14: does the piece met attack the square along this line?
    let e = v & 7;
    if e == QUEEN {
        *d |= 0x80;
        true
    } else if *d & 0x0F == 1 && e == KING {
        // AT15: king, adjacent
        true
    } else if b < 13 {
        // AT21: ranks and files
        e == ROOK
    } else if e == BISHOP {
        // AT16: diagonals
        true
    } else if *d & 0x0F != 1 || e != PAWN {
        false
    } else if v & 0x80 == 0 {
        // AT20: a white pawn attacks from below
        b < 15
    } else {
        b >= 15
    }
}

/// A pawn reaching this square promotes (rank 8 for White, rank 1 for Black).
fn promotes(to: u8) -> bool {
    !(29..91).contains(&to)
}

impl Machine {
    /// PATH: step M2 by direction `c` and classify the square reached: 0 empty, 1 piece of
    /// the other colour than P1, 2 piece of P1's colour, 3 off the board. P2/T2 receive the
    /// square's contents and type, except off the board where they are left alone.
    ///
    /// Called by: MPIECE (MP10), PINFND (PF5); ATTACK has it inlined (AT10).
    #[inline]
    pub(crate) fn path(&mut self, c: u8) -> u8 {
        self.m2 = self.m2.wrapping_add(c);
        let a = self.board(self.m2);
        if a == 0xFF {
            // PA2: border
            return 3;
        }
        self.p2 = a;
        self.t2 = a & 7;
        if self.t2 == 0 {
            return 0;
        }
        if (self.p2 ^ self.p1) & 0x80 == 0 {
            // PA1: same colour
            2
        } else {
            1
        }
    }

    /// MPIECE: the moves of the piece P1 standing on M1 go into the move list.
    ///
    /// Called by: GENMOV (GM5). Calls: PATH, ADMOVE, ENPSNT, CASTLE.
    pub(crate) fn mpiece(&mut self, hooks: &mut Hooks<'_>) {
        // A black pawn becomes type 0 so that it gets its own (downward) directions.
        let mut a = self.p1 & 0x87;
        if a == BPAWN {
            a = a.wrapping_sub(1);
        }
        self.t1 = a & 7;
        let mut b = self.rd(DCOUNT + u16::from(self.t1));
        // The direction index lives in a 16-bit index register: it may step past 255.
        let mut iy = u16::from(self.rd(DPOINT + u16::from(self.t1)));
        loop {
            // MP5: start a new direction from the piece's square
            let c = self.rd(DIRECT.wrapping_add(iy));
            self.m2 = self.m1;
            loop {
                // MP10: next square along the direction
                let mut a = self.path(c);
                if hooks.mask().contains(HookPoint::MovegenPath) {
                    (a, b) = self.fire(hooks, HookPoint::MovegenPath, a, b, 0);
                }
                if a >= 2 {
                    break; // own piece or border: next direction
                }
                let empty = a == 0;
                if self.t1 > PAWN {
                    // A piece (not a pawn)
                    self.admove();
                    if !empty || self.t1 == KING || self.t1 < BISHOP {
                        break;
                    }
                    continue; // sliding piece: keep going
                }
                // MP20: pawn logic; B tells which of the four pawn directions this is
                if b < 3 {
                    // MP35: diagonal
                    if empty {
                        // MP36
                        self.enpsnt();
                    } else {
                        if promotes(self.m2) {
                            // MP37
                            self.p2 |= 0x20;
                        }
                        // MP31
                        self.admove();
                    }
                    break;
                } else if b == 3 {
                    // MP30: two-square advance
                    if empty {
                        self.admove();
                    }
                    break;
                } else {
                    // One-square advance
                    if !empty {
                        break;
                    }
                    if promotes(self.m2) {
                        // MP25
                        self.p2 |= 0x20;
                    }
                    // MP26
                    self.admove();
                    iy = iy.wrapping_add(1);
                    b = b.wrapping_sub(1);
                    if self.p1 & MOVED == 0 {
                        // Unmoved pawn: try the second step in the same direction.
                        continue;
                    }
                    break;
                }
            }
            // MP15: next direction
            iy = iy.wrapping_add(1);
            b = b.wrapping_sub(1);
            if b == 0 {
                break;
            }
        }
        if self.t1 == KING {
            self.castle();
        }
    }

    /// ENPSNT: called for a pawn's diagonal step onto an empty square M2; adds the en passant
    /// capture (two list entries, the second unlinked) if the pawn stands on its fifth rank
    /// and the previous move (MLPTRJ) was the first move of a pawn that now stands ten
    /// board indices (one rank) away from M2.
    ///
    /// Called by: MPIECE (MP36). Calls: ADMOVE, ADJPTR.
    pub(crate) fn enpsnt(&mut self) {
        let mut a = self.m1;
        if self.p1 & 0x80 != 0 {
            a = a.wrapping_add(10);
        }
        // Only from the fifth rank (White) or fourth rank (Black).
        if !(61..69).contains(&a) {
            return;
        }
        let prev = self.mlptrj;
        if self.rd(prev.wrapping_add(4)) & 0x10 == 0 {
            return;
        }
        self.m4 = self.rd(prev.wrapping_add(3));
        self.p3 = self.board(self.m4);
        if self.p3 & 7 != PAWN {
            return;
        }
        // Note: neither the pawn's colour nor a two-square advance is checked, only the
        // first-move flag and the distance.
        let diff = self.m4.wrapping_sub(self.m2);
        let dist = if diff & 0x80 == 0 {
            diff
        } else {
            diff.wrapping_neg()
        };
        if dist != 10 {
            return;
        }
        self.p2 |= 0x40;
        self.admove();
        // The second half: a dummy move of the captured pawn onto its own square, whose
        // flags carry the captured pawn.
        self.m3 = self.m1;
        self.m1 = self.m4;
        self.m2 = self.m4;
        self.p2 = self.p3;
        self.admove();
        self.m1 = self.m3;
        self.adjptr();
    }

    /// ADJPTR: unlink the second half of a double move: MLLST goes back one entry and that
    /// entry's link is zeroed.
    ///
    /// Called by: CASTLE; ENPSNT runs on into it.
    pub(crate) fn adjptr(&mut self) {
        self.mllst = self.mllst.wrapping_sub(6);
        self.wr16(self.mllst, 0);
    }

    /// CASTLE: king-side, then queen-side castling of the king P1 on M1 go into the list if
    /// the king is unmoved and not in check, the rook square holds an unmoved rook, the
    /// squares between are empty and those squares (except b1/b8) are not attacked.
    ///
    /// Called by: MPIECE (MP15). Calls: ATTACK, ADMOVE, ADJPTR.
    pub(crate) fn castle(&mut self) {
        if self.p1 & MOVED != 0 {
            return;
        }
        if self.ckflg != 0 {
            return;
        }
        // B: step from the rook towards the king; C: rook offset from the king.
        let (mut b, mut c) = (0xFFu8, 3u8);
        loop {
            // CA5: the rook square
            c = self.m1.wrapping_add(c);
            self.m3 = c;
            // Only the colour bit is masked: an unmoved rook of either colour qualifies.
            if self.board(self.m3) & 0x7F == ROOK {
                let mut a = c;
                let clear = loop {
                    // CA15: next square towards the king
                    a = a.wrapping_add(b);
                    self.m3 = a;
                    if a == self.m1 {
                        break true;
                    }
                    // CA10: must be empty and, except on the knight squares, not attacked
                    if self.board(self.m3) != 0 {
                        break false;
                    }
                    if self.m3 != 22 && self.m3 != 92 && self.attack() != 0 {
                        break false;
                    }
                    a = self.m3;
                };
                if clear {
                    // The king moves two squares, the rook lands beside it.
                    self.m2 = a.wrapping_sub(b).wrapping_sub(b);
                    self.p2 = 0x40;
                    self.admove();
                    let king_from = self.m1;
                    self.m1 = c;
                    self.m2 = king_from.wrapping_sub(b);
                    self.p2 = 0;
                    self.admove();
                    self.adjptr();
                    self.m1 = self.m3;
                }
            }
            // CA20: queen side next, or done
            if b == 1 {
                return;
            }
            (b, c) = (1, 0xFC);
        }
    }

    /// ADMOVE: append the move M1-M2 with flags P2 to the move list (setting the first-move
    /// flag if P1 has never moved). Out of space, it writes two zero bytes at the address
    /// MLEND - MLNXT (a wrapped difference, 0xFFFA in practice) and adds nothing.
    ///
    /// Called by: MPIECE, ENPSNT, CASTLE.
    pub(crate) fn admove(&mut self) {
        let de = self.mlnxt;
        let mlend = self.layout.mlend;
        let diff = mlend.wrapping_sub(de);
        if de > mlend {
            // AM10: the original's out-of-space path writes through the difference.
            self.wr16(diff, 0);
            return;
        }
        let prev = self.mllst;
        self.mllst = de;
        self.wr16(prev, de);
        if self.p1 & MOVED == 0 {
            self.p2 |= 0x10;
        }
        self.wr16(de, 0);
        self.wr(de.wrapping_add(2), self.m1);
        self.wr(de.wrapping_add(3), self.m2);
        self.wr(de.wrapping_add(4), self.p2);
        self.wr(de.wrapping_add(5), 0);
        self.mlnxt = de.wrapping_add(6);
    }

    /// GENMOV: CKFLG is set, the next ply's slot in the ply table is opened (its list start
    /// and its list head), and the moves of every piece of colour COLOR are generated.
    ///
    /// Called by: FNDMOV (FM5), VALMOV. Calls: INCHK, MPIECE.
    pub(crate) fn genmov(&mut self, hooks: &mut Hooks<'_>) {
        self.ckflg = self.inchk();
        let de = self.mlnxt;
        let slot = self.mlptri.wrapping_add(2);
        self.wr16(slot, de);
        self.mlptri = slot.wrapping_add(2);
        self.mllst = self.mlptri;
        let mut sq = 21u8;
        loop {
            // GM5
            self.m1 = sq;
            let a = self.board(self.m1);
            if a != 0 && a != 0xFF {
                self.p1 = a;
                if (a ^ self.color) & 0x80 == 0 {
                    self.mpiece(hooks);
                }
            }
            // GM10
            sq = self.m1.wrapping_add(1);
            if sq == 99 {
                return;
            }
        }
    }

    /// INCHK: is the king of colour COLOR attacked? (1 yes, 0 no.) In the original an
    /// entry point that loads COLOR and runs on into INCHK1.
    ///
    /// Called by: GENMOV, EVAL, FNDMOV (FM15), VALMOV (VA7). Calls: INCHK1.
    pub(crate) fn inchk(&mut self) -> u8 {
        self.inchk1(self.color)
    }

    /// INCHK1: is the king of colour `color` attacked? Looks the king up in POSK and sets M3,
    /// P1 and T1 for ATTACK.
    ///
    /// Called by: INCHK, FNDMOV (FM15: does the move give check?). Calls: ATTACK.
    pub(crate) fn inchk1(&mut self, color: u8) -> u8 {
        let at = if color != 0 { POSK + 1 } else { POSK };
        self.m3 = self.rd(at);
        self.p1 = self.board(self.m3);
        self.t1 = self.p1 & 7;
        self.attack()
    }

    /// ATTACK: scan the 16 directions out of square M3. With T1 = 7 (the callers POINTS,
    /// PINFND) every attacker and defender goes into the attack list and the result is 0;
    /// otherwise the scan stops at the first attacker of the colour opposite to P1 and
    /// returns 1. Scans continue through pieces that attack along the line (batteries), but
    /// only through pieces of one colour.
    ///
    /// Called by: INCHK1, CASTLE (CA10), PINFND (PF19), POINTS (PT6X).
    /// Calls: PATH (inlined), ATKSAV.
    ///
    /// This is where the original spends most of its time, so PATH is inlined, M2/P2/T2
    /// live in a local `Scan` (written back before ATKSAV, which reads them, and on exit,
    /// so they end as PATH leaves them), and the direction loop (AT5 to AT13) is unrolled:
    /// B = 16..9 are lines scanned square by square, B = 8..1 knight jumps of one square.
    /// Each call below is one turn of that loop with its B and direction.
    pub(crate) fn attack(&mut self) -> u8 {
        let mut s = Scan {
            m3: self.m3,
            p1: self.p1,
            m2: self.m2,
            p2: self.p2,
            t2: self.t2,
        };
        // AT5
        let found = self.attack_line(&mut s, 16, 0)
            || self.attack_line(&mut s, 15, 1)
            || self.attack_line(&mut s, 14, 2)
            || self.attack_line(&mut s, 13, 3)
            || self.attack_line(&mut s, 12, 4)
            || self.attack_line(&mut s, 11, 5)
            || self.attack_line(&mut s, 10, 6)
            || self.attack_line(&mut s, 9, 7)
            || self.attack_jumps(&mut s);
        (self.m2, self.p2, self.t2) = (s.m2, s.p2, s.t2);
        u8::from(found)
    }

    /// One line direction of ATTACK (B >= 9; `iy` indexes DIRECT). True: an attacker of the
    /// other colour was found and ATTACK returns 1 (only when T1 is not 7).
    #[inline(always)]
    fn attack_line(&mut self, s: &mut Scan, b: u8, iy: usize) -> bool {
        let c = DIRECTIONS[iy];
        // D: bits 0-3 scan count, bit 5 other colour met, bit 6 same colour met, bit 7 a
        // queen met on this line.
        let mut d = 0u8;
        s.m2 = s.m3;
        loop {
            // AT10
            d = d.wrapping_add(1);
            s.m2 = s.m2.wrapping_add(c);
            let v = self.board(s.m2);
            if v == 0xFF {
                break false; // border
            }
            s.p2 = v;
            s.t2 = v & 7;
            // PATH calls a square empty by its type bits alone. On the board that is only
            // 0, but a king or queen square that a pin list overflow (PINFND's PF20 past its
            // ten entries) wrote into POSK/POSQ sends the scan off the board's 120 bytes,
            // where bytes like 0x80 are empty too.
            if s.t2 == 0 {
                continue; // empty: keep scanning
            }
            if !line_attacker(b, s.p1, &mut d, v) {
                break false;
            }
            // AT30
            if self.t1 == 7 {
                // AT31: ATKSAV, with M2/P2/T2 as the scan has them
                (self.m2, self.p2, self.t2) = (s.m2, s.p2, s.t2);
                self.atksav(c, d);
            } else if d & 0x20 != 0 {
                break true;
            }
            // AT32: behind a king or knight the scan stops; behind other attackers it goes on.
            if s.t2 == KING || s.t2 == KNIGHT {
                break false;
            }
        }
    }

    /// The eight knight jumps of ATTACK (B = 8..1), in order.
    #[inline(always)]
    fn attack_jumps(&mut self, s: &mut Scan) -> bool {
        self.attack_jump(s, 8)
            || self.attack_jump(s, 9)
            || self.attack_jump(s, 10)
            || self.attack_jump(s, 11)
            || self.attack_jump(s, 12)
            || self.attack_jump(s, 13)
            || self.attack_jump(s, 14)
            || self.attack_jump(s, 15)
    }

    /// One knight jump of ATTACK (B <= 8): a single square.
    #[inline(always)]
    fn attack_jump(&mut self, s: &mut Scan, iy: usize) -> bool {
        let c = DIRECTIONS[iy];
        s.m2 = s.m3.wrapping_add(c);
        let v = self.board(s.m2);
        // PATH leaves P2/T2 alone on the border; the rest is only about knights (the
        // border byte's type is 7, an empty square's 0). Written so that the compiler
        // needs no branch but the rare one for a knight.
        if v != 0xFF {
            s.p2 = v;
            s.t2 = v & 7;
        }
        // AT25
        if v & 7 != KNIGHT {
            return false;
        }
        // AT14A/AT14B on the first square: only the colour flag can be set (count 1).
        let d = if (v ^ s.p1) & 0x80 != 0 { 0x21 } else { 0x41 };
        // AT30
        if self.t1 == 7 {
            // AT31
            (self.m2, self.p2, self.t2) = (s.m2, s.p2, s.t2);
            self.atksav(c, d);
            false
        } else {
            d & 0x20 != 0
        }
    }

    /// ATKSAV: count the attacker P2 (type T2) on M2, found in direction `c` with ATTACK's
    /// scan flags `d`, for its colour in the attack list, and put its value into its slot:
    /// the slot of its type, or the queen's slot if a queen was met earlier on the line
    /// (D bit 7). A slot holds two values (low nibble first); a third goes into the next
    /// slot, whose high nibble it pushes out. From a full king's slot that is the byte
    /// after the colour's list: White's spills into BACT, Black's into the pin list.
    ///
    /// Called by: ATTACK (AT31). Calls: PNCK.
    pub(crate) fn atksav(&mut self, c: u8, d: u8) {
        let mut d = d;
        if self.npins != 0 {
            if self.pnck(self.m2, c) {
                return; // PC5: PNCK's abnormal exit straight back to ATTACK
            }
            // PNCK left the attack direction in D: the queen-slot test below then looks
            // at the direction's sign bit instead of the queen flag.
            d = c;
        }
        let list = if self.p2 & 0x80 == 0 { WACT } else { BACT };
        let mut e = self.p2 & 7;
        if d & 0x80 != 0 {
            e = QUEEN;
        }
        self.wr(list, self.rd(list).wrapping_add(1));
        let mut hl = list + u16::from(e);
        let value = self.rd(PVALUE.wrapping_add(u16::from(self.t2)));
        let x = self.rd(hl);
        if x & 0x0F != 0 {
            if x & 0xF0 == 0 {
                // AS19: the second value into the high nibble
                self.wr(hl, (value << 4) | (x & 0x0F));
                return;
            }
            // Slot full: the next slot.
            hl += 1;
        }
        // AS20: the value enters the low nibble; the old low nibble moves up, the old high
        // nibble is lost.
        self.wr(hl, (self.rd(hl) << 4) | (value & 0x0F));
    }

    /// PNCK: is the attacker on `m2` (M2) pinned in a way that stops it attacking in
    /// direction `c`? True when it must be left out (the original's abnormal exit, PC5,
    /// which returns to ATTACK past ATKSAV): pinned along another line, or listed twice.
    /// (M2 is an argument: PNCK reads nothing but it and the pin list.)
    ///
    /// Called by: ATKSAV.
    #[inline]
    pub(crate) fn pnck(&self, m2: u8, c: u8) -> bool {
        let mut hl = PLISTA;
        let mut bc = u16::from(self.npins);
        let mut found_once = false;
        loop {
            // PC1: a block compare-and-repeat over the pinned squares
            let found = loop {
                let m = self.rd(hl);
                hl = hl.wrapping_add(1);
                bc = bc.wrapping_sub(1);
                if m == m2 {
                    break true;
                }
                if bc == 0 {
                    break false;
                }
            };
            if !found {
                return false;
            }
            if found_once {
                return true; // PC5
            }
            found_once = true;
            // The pin direction sits 10 bytes after the pinned square.
            let pin_dir = self.rd(hl.wrapping_add(9));
            if pin_dir != c && pin_dir.wrapping_neg() != c {
                return true; // PC5
            }
            // PC3: search on if the list is not exhausted
            if bc == 0 {
                return false;
            }
        }
    }
}
