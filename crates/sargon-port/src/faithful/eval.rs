//! Static evaluation: PINFND, XCHNG, NEXTAD, POINTS, LIMIT.
//!
//! All arithmetic is on bytes and wraps like the Z80's; comparisons are the unsigned ones
//! the original's compare instruction makes, and "negative" means bit 7 set.

use super::state::{Machine, ATKLST, BACT, DIRECT, PLIST, PLISTD, POSK, PVALUE, WACT};
use sargon_core::hooks::{HookPoint, Hooks};
use sargon_core::vocab::{BISHOP, CASTLED, KING, KNIGHT, MOVED, QUEEN, ROOK};

/// XCHNG's alternate register set: list counts (B', C') and list pointers (HL', DE').
/// NEXTAD swaps them on every call so that it reads the attackers' and the defenders'
/// lists in turn.
struct Alt {
    b: u8,
    c: u8,
    hl: u16,
    de: u16,
}

/// LIMIT: clamp the signed byte `b` to plus or minus `limit` (a positive byte).
///
/// Called by: POINTS (PT25A).
pub(crate) fn limit(b: u8, limit: u8) -> u8 {
    if b & 0x80 != 0 {
        let a = limit.wrapping_neg();
        if a >= b {
            a
        } else {
            b
        }
    } else if limit < b {
        // LIM10
        limit
    } else {
        b
    }
}

impl Machine {
    /// PINFND: list the pieces pinned against either king or either queen (POSK/POSQ),
    /// with the direction of the pin. A pin on a queen by a queen only counts if the pinned
    /// queen has no more defenders than attackers.
    ///
    /// Called by: EVAL (EV5), FNDMOV (FM35, and the root before FM5), through the
    /// [`Scorer`](crate::scorer::Scorer). Calls: PATH, ATTACK.
    pub(crate) fn pinfnd(&mut self) {
        self.npins = 0;
        let mut de = POSK;
        loop {
            // PF1: next royal piece
            let a = self.rd(de);
            if a == 0xFF {
                return;
            }
            if a != 0 {
                self.m3 = a;
                self.p1 = self.board(self.m3);
                let mut b = 8u8;
                let mut iy = 0u16;
                loop {
                    // PF2: scan one direction for own piece, then enemy slider
                    self.m2 = self.m3;
                    self.m4 = 0;
                    let c = self.rd(DIRECT.wrapping_add(iy));
                    let pinned = loop {
                        // PF5
                        let a = self.path(c);
                        if a == 0 {
                            continue;
                        }
                        if a == 3 {
                            break false;
                        }
                        if a == 2 {
                            // PF15: first own piece is the candidate; a second ends it
                            if self.m4 != 0 {
                                break false;
                            }
                            self.m4 = self.m2;
                            continue;
                        }
                        // Enemy piece: a pin only if a candidate is in between
                        if self.m4 == 0 {
                            break false;
                        }
                        let t = self.t2;
                        if t == QUEEN {
                            // PF19
                            break self.queen_pin_counts();
                        }
                        if b < 5 {
                            // PF10: ranks and files
                            break t == ROOK;
                        }
                        break t == BISHOP;
                    };
                    if pinned {
                        // PF20
                        self.npins = self.npins.wrapping_add(1);
                        let n = u16::from(self.npins);
                        self.wr(PLISTD.wrapping_add(n), c);
                        self.wr(PLIST.wrapping_add(n), self.m4);
                    }
                    // PF25
                    iy = iy.wrapping_add(1);
                    b = b.wrapping_sub(1);
                    if b == 0 {
                        break;
                    }
                }
            }
            // PF26
            de = de.wrapping_add(1);
        }
    }

    /// PF19 (part of PINFND): an enemy queen on the line pins against a king; against a
    /// queen only if the queen's defenders minus attackers, less one, is negative.
    fn queen_pin_counts(&mut self) -> bool {
        if self.p1 & 7 != QUEEN {
            return true;
        }
        self.clear_attack_list();
        self.t1 = 7;
        self.attack();
        let (own, other) = if self.p1 & 0x80 == 0 {
            (WACT, BACT)
        } else {
            (BACT, WACT)
        };
        let a = self.rd(own).wrapping_sub(self.rd(other)).wrapping_sub(1);
        a & 0x80 != 0
    }

    /// Zero the attack list (PT6X; also PF19).
    pub(crate) fn clear_attack_list(&mut self) {
        self.fill(ATKLST, 14, 0);
    }

    /// XCHNG: the exchange on square M3 holding P1 (type T3), from the attack list.
    /// Returns (D, E): the piece's value doubled, and the points its owner loses.
    ///
    /// Called by: POINTS (PT6X). Calls: NEXTAD.
    pub(crate) fn xchng(&mut self) -> (u8, u8) {
        let (mut hl, mut de) = (WACT, BACT);
        if self.p1 & 0x80 != 0 {
            std::mem::swap(&mut hl, &mut de);
        }
        // The piece's own side defends (B'), the other side attacks (C').
        let mut alt = Alt {
            b: self.rd(hl),
            c: self.rd(de),
            hl,
            de,
        };
        let mut c = 0u8; // side flag: odd after an attacker was taken
        let mut e = 0u8; // points lost
        let d = self.rd(PVALUE.wrapping_add(u16::from(self.t3))) << 1;
        let mut b = d; // value of the piece standing on the square
        let mut a = self.nextad(&mut alt, &mut c);
        if a == 0 {
            return (d, e);
        }
        loop {
            // XC10: `a` is the next capturer
            let mut l = a;
            // The value the original keeps in the alternate accumulator (0: none).
            let saved;
            let defender = self.nextad(&mut alt, &mut c);
            'xc19: {
                if defender != 0 {
                    if b >= l {
                        saved = defender;
                        break 'xc19;
                    }
                    let mut a = defender;
                    loop {
                        // XC15
                        if a < l {
                            return (d, e);
                        }
                        let attacker = self.nextad(&mut alt, &mut c);
                        if attacker == 0 {
                            return (d, e);
                        }
                        l = attacker;
                        a = self.nextad(&mut alt, &mut c);
                        if a == 0 {
                            break;
                        }
                    }
                }
                // XC18
                saved = 0;
            }
            // XC19: the piece on the square is taken
            let mut v = b;
            if c & 1 != 0 {
                v = v.wrapping_neg();
            }
            e = e.wrapping_add(v);
            if saved == 0 {
                return (d, e);
            }
            b = l;
            a = saved;
        }
    }

    /// NEXTAD: switch to the other side's list and take its cheapest remaining piece:
    /// its value doubled, or 0 when the list is empty.
    ///
    /// Called by: XCHNG.
    fn nextad(&mut self, alt: &mut Alt, c: &mut u8) -> u8 {
        *c = c.wrapping_add(1);
        std::mem::swap(&mut alt.b, &mut alt.c);
        std::mem::swap(&mut alt.hl, &mut alt.de);
        if alt.b == 0 {
            // NX6
            return 0;
        }
        alt.b = alt.b.wrapping_sub(1);
        loop {
            alt.hl = alt.hl.wrapping_add(1);
            if self.rd(alt.hl) != 0 {
                break;
            }
        }
        // The low nibble is taken and the high nibble moves down into its place.
        let m = self.rd(alt.hl);
        self.wr(alt.hl, m >> 4);
        alt.hl = alt.hl.wrapping_sub(1);
        let v = m & 0x0F;
        v.wrapping_add(v)
    }

    /// POINTS: score the position for the side that has just moved (COLOR), store it in
    /// VALM and in the value byte of the move at MLPTRJ.
    ///
    /// Called by: EVAL (EV5), FNDMOV (FM35, and the root before FM5), through the
    /// [`Scorer`](crate::scorer::Scorer). Calls: ATTACK, XCHNG, LIMIT.
    ///
    /// In two halves: the loop over the squares ([`Machine::points_squares`]) and the
    /// score made of its sums ([`Machine::points_total`]), which a scorer may also call
    /// on its own.
    pub(crate) fn points(&mut self, hooks: &mut Hooks<'_>) {
        self.points_squares();
        self.points_total(hooks);
    }

    /// POINTS up to the end of PT25's loop: material, board control and the exchanges of
    /// every square.
    pub(crate) fn points_squares(&mut self) {
        self.mtrl = 0;
        self.brdc = 0;
        self.ptsl = 0;
        self.ptsw1 = 0;
        self.ptsw2 = 0;
        self.ptsck = 0;
        self.t1 = 7;
        let mut sq = 21u8;
        loop {
            // PT5
            self.m3 = sq;
            let a = self.board(self.m3);
            if a != 0xFF {
                self.p1 = a;
                self.t3 = a & 7;
                if let Some(adj) = self.development(a) {
                    // PT6D
                    self.brdc = self.brdc.wrapping_add(adj);
                }
                // PT6X: attackers and defenders of the square, counted as board control
                self.clear_attack_list();
                self.attack();
                let diff = self.rd(WACT).wrapping_sub(self.rd(BACT));
                self.brdc = self.brdc.wrapping_add(diff);
                if self.p1 != 0 {
                    let (mut d, e) = self.xchng();
                    if e != 0 {
                        // A piece that can be lost is worth half a pawn less.
                        d = d.wrapping_sub(1);
                        let to = self.rd(self.mlptrj.wrapping_add(3));
                        self.count_loss(self.m3, self.p1, e, to);
                    }
                    // PT23: material
                    let v = if self.p1 & 0x80 != 0 {
                        d.wrapping_neg()
                    } else {
                        d
                    };
                    self.mtrl = self.mtrl.wrapping_add(v);
                }
            }
            // PT25
            sq = self.m3.wrapping_add(1);
            if sq == 99 {
                break;
            }
        }
    }

    /// The lines before PT20 and PT20: the piece `p1` on `sq` can be lost for `e` points
    /// (XCHNG's E, not 0). If it belongs to the side that just moved, the largest such
    /// loss goes to PTSL (and PTSCK notes the moved piece, on `to`, if it is the one);
    /// otherwise the two largest gains for the side to move go to PTSW1 and PTSW2.
    #[inline]
    pub(crate) fn count_loss(&mut self, sq: u8, p1: u8, e: u8, to: u8) {
        if (p1 ^ self.color) & 0x80 == 0 {
            if e >= self.ptsl {
                self.ptsl = e;
                if sq == to {
                    self.ptsck = sq;
                }
            }
        } else {
            // PT20
            let mut a = e;
            if e >= self.ptsw1 {
                a = self.ptsw1;
                self.ptsw1 = e;
            }
            if a >= self.ptsw2 {
                self.ptsw2 = a;
            }
        }
    }

    /// POINTS after PT25's loop: the exchange adjustment (PT25A), the limits and the score
    /// in VALM and in the move at MLPTRJ (with the `points.end` hook).
    pub(crate) fn points_total(&mut self, hooks: &mut Hooks<'_>) {
        if self.ptsck != 0 {
            // The piece just moved is lost: the best gain does not count.
            self.ptsw1 = self.ptsw2;
            self.ptsw2 = 0;
        }
        // PT25A: exchange adjustment
        // Decremented unless already zero.
        let lost = self.ptsl.saturating_sub(1);
        let mut a = self.ptsw1;
        if a != 0 {
            a = self.ptsw2;
            if a != 0 {
                a = (a - 1) >> 1;
            }
        }
        a = a.wrapping_sub(lost);
        if self.color & 0x80 != 0 {
            a = a.wrapping_neg();
        }
        a = a.wrapping_add(self.mtrl).wrapping_sub(self.mv0);
        let e = limit(a, 30);
        let mut b = self.brdc.wrapping_sub(self.bc0);
        if self.ptsck != 0 {
            b = 0;
        }
        let d = limit(b, 6);
        let mut a = e.wrapping_add(e);
        a = a.wrapping_add(a).wrapping_add(d);
        if self.color & 0x80 == 0 {
            a = a.wrapping_neg();
        }
        a = a.wrapping_add(0x80);
        if hooks.mask().contains(HookPoint::PointsEnd) {
            a = self.fire(hooks, HookPoint::PointsEnd, a, 0, 0).0;
        }
        self.valm = a;
        self.wr(self.mlptrj.wrapping_add(5), a);
    }

    /// The development term for the piece byte `p` (PT6AA..PT6C): minor pieces at home,
    /// early rook/queen moves (MOVENO < 7) and king moves cost 2; a castled king earns 6.
    /// Positive favours White. None: no change.
    pub(crate) fn development(&self, p: u8) -> Option<u8> {
        development_term(p, self.moveno < 7)
    }
}

/// [`Machine::development`] for the piece byte `p`, `early` being MOVENO < 7 (a function of
/// its inputs alone, so that the port's shortcuts can make a table of it).
pub(crate) const fn development_term(p: u8, early: bool) -> Option<u8> {
    let white = p & 0x80 == 0;
    let penalty = if white { 0xFE } else { 2 };
    let t = p & 7;
    if t < KNIGHT {
        None
    } else if t < ROOK {
        // PT6B: knights and bishops that never moved
        if p & MOVED == 0 {
            Some(penalty)
        } else {
            None
        }
    } else if t == KING {
        // PT6AA
        if p & CASTLED != 0 {
            Some(if white { 6 } else { 0xFA })
        } else if p & MOVED != 0 {
            // PT6A
            Some(penalty)
        } else {
            None
        }
    } else if early && p & MOVED != 0 {
        // PT6A: rooks and queens that moved early
        Some(penalty)
    } else {
        None
    }
}
