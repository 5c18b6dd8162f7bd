//! One square's memo: the parts of its ATTACK scan, the ATKSAV calls kept, XCHNG's result, and rescanning a part.

use super::changes::Changes;
use super::tables::{JUMPS, NONE, RAYS, RAY_LEN, SQUARES};
use crate::faithful::movegen::line_attacker;
use crate::faithful::state::{Machine, DIRECTIONS, PVALUE};
use sargon_core::vocab::{KING, KNIGHT, QUEEN};

/// One ATKSAV call of an ATTACK with T1 = 7: the direction C, the flags D, and the
/// attacker's square M2 and board byte P2 (T2 is its type), packed in one word.
#[derive(Copy, Clone, Default, PartialEq, Eq)]
pub(super) struct Save(pub(super) u32);

impl Save {
    #[inline(always)]
    pub(super) fn new(c: u8, d: u8, m2: u8, p2: u8) -> Save {
        Save(u32::from_le_bytes([c, d, m2, p2]))
    }
    /// (C, D, M2, P2)
    #[inline(always)]
    pub(super) fn get(self) -> (u8, u8, u8, u8) {
        let [c, d, m2, p2] = self.0.to_le_bytes();
        (c, d, m2, p2)
    }
}

/// What one line of an ATTACK with T1 = 7 found (or the eight knight jumps together):
/// its ATKSAV calls in order. (How far a line read is kept apart, for
/// `PointsMemo::mark_readers`.)
#[derive(Copy, Clone, Default)]
pub(super) struct Part {
    pub(super) n: u8,
    pub(super) saves: [Save; 8],
}

impl Part {
    /// The ATKSAV calls.
    pub(super) fn saves(&self) -> &[Save] {
        &self.saves[..usize::from(self.n)]
    }
}

/// The attack list as ATKSAV sees it: WACT and its 6 slots, BACT and its 6 slots, and
/// the byte after them (the first of the pin list, where a full black king slot spills).
pub(super) type AttackList = [u8; 15];

/// ATKSAV's steps (see [`Machine::atksav`]) for an attacker the memo kept, on a copy of
/// the attack list instead of memory. True: a full king's slot sent the value into the
/// byte after the colour's list (White's BACT, Black's the first of the pin list), which
/// the memo does not follow (see `PointsMemo::points`).
#[inline]
pub(super) fn atksav_on_copy(m: &Machine, list: &mut AttackList, save: Save) -> bool {
    let (c, d, m2, p2) = save.get();
    let mut d = d;
    if m.npins != 0 {
        if m.pnck(m2, c) {
            return false; // PNCK's abnormal exit straight back to ATTACK
        }
        // PNCK left the attack direction in D.
        d = c;
    }
    // WACT or BACT
    let base = if p2 & 0x80 == 0 { 0 } else { 7 };
    let mut e = p2 & 7;
    if d & 0x80 != 0 {
        e = QUEEN;
    }
    list[base] = list[base].wrapping_add(1);
    let mut hl = base + usize::from(e);
    let value = m.rd(PVALUE.wrapping_add(u16::from(p2 & 7)));
    let x = list[hl];
    let mut spilled = false;
    if x & 0x0F != 0 {
        if x & 0xF0 == 0 {
            // AS19
            list[hl] = (value << 4) | (x & 0x0F);
            return false;
        }
        hl += 1;
        spilled = e == KING;
    }
    // AS20
    list[hl] = (list[hl] << 4) | (value & 0x0F);
    spilled
}

/// The attackers ATKSAV would count on the square for White and for Black (WACT and BACT
/// after its calls in order into a cleared list), without making the list: the calls
/// that PNCK lets through, by colour. None when a king's slot could spill (see
/// [`atksav_on_copy`]), which changes BACT or the pin list: then only ATKSAV's steps
/// tell. A spill needs two values in the king's slot before a king's value comes, and
/// only calls into the queen's slot (which overflows into the king's) or the king's
/// put a value there: fewer than three such calls of a colour cannot spill.
#[inline]
pub(super) fn count_attackers(memo: &SquareMemo, m: &Machine) -> Option<(u8, u8)> {
    // Per colour (White, Black): the calls counted, and those into the queen's or the
    // king's slot.
    let mut counts = [0u8; 2];
    let mut high = [0u8; 2];
    let mut parts = memo.with_saves;
    while parts != 0 {
        let part = &memo.parts[parts.trailing_zeros() as usize];
        parts &= parts - 1;
        for &save in part.saves() {
            let (c, mut d, m2, p2) = save.get();
            if m.npins != 0 {
                if m.pnck(m2, c) {
                    continue;
                }
                d = c;
            }
            let colour = usize::from(p2 >> 7);
            counts[colour] = counts[colour].wrapping_add(1);
            high[colour] += u8::from(d & 0x80 != 0 || p2 & 7 >= QUEEN);
        }
    }
    (high[0] < 3 && high[1] < 3).then_some((counts[0], counts[1]))
}

/// The memo of one square (what most squares need first, so that it shares a cache line).
#[derive(Copy, Clone, Default)]
#[repr(C)]
pub(super) struct SquareMemo {
    /// The parts with ATKSAV calls, one bit each.
    pub(super) with_saves: u16,
    /// The attack list as ATTACK left it.
    pub(super) list: [u8; 14],
    /// XCHNG on that list, if it was made.
    pub(super) xchng: Option<XchngMemo>,
    /// The 8 lines, then the knight jumps.
    pub(super) parts: [Part; 9],
}

/// What XCHNG made of a square's attack list.
#[derive(Copy, Clone)]
pub(super) struct XchngMemo {
    /// The piece on the square.
    pub(super) p1: u8,
    /// XCHNG's result.
    pub(super) result: (u8, u8),
    /// The attack list as XCHNG left it.
    pub(super) list: [u8; 14],
}

/// A part of a square scanned again into its memo in place: each ATKSAV call found is
/// compared with the one kept at its place (and replaces it if it differs).
pub(super) struct Rescan<'a> {
    pub(super) part: &'a mut Part,
    /// ATKSAV calls found so far.
    pub(super) n: u8,
    /// Some call differs from the kept one.
    pub(super) changed: bool,
}

impl<'a> Rescan<'a> {
    /// An ATKSAV call found.
    #[inline(always)]
    pub(super) fn record(&mut self, save: Save) {
        let i = usize::from(self.n);
        // (Without a branch: whether a call is new is hard to predict.)
        self.changed |= (self.n >= self.part.n) | (self.part.saves[i] != save);
        self.part.saves[i] = save;
        self.n += 1;
    }

    pub(super) fn new(part: &'a mut Part) -> Self {
        Rescan {
            part,
            n: 0,
            changed: false,
        }
    }

    /// After the scan: keep the count. True if the ATKSAV calls differ from the kept ones.
    #[inline(always)]
    pub(super) fn finish(self) -> bool {
        let changed = self.changed || self.n != self.part.n;
        self.part.n = self.n;
        changed
    }
}

impl SquareMemo {
    /// May PNCK now judge some of the square's attackers otherwise (see
    /// `PointsMemo::changes`)?
    pub(super) fn pins_matter(&self, ch: &Changes) -> bool {
        if self.with_saves == 0 {
            return false;
        }
        if ch.pins_all {
            return true;
        }
        let mut parts = self.with_saves;
        while parts != 0 {
            let part = &self.parts[parts.trailing_zeros() as usize];
            parts &= parts - 1;
            // Attackers are on the board (scans stop at the frame): below 128.
            if part
                .saves()
                .iter()
                .any(|s| ch.pinned >> (s.get().2 & 0x7F) & 1 != 0)
            {
                return true;
            }
        }
        false
    }

    /// Note whether part `i` has ATKSAV calls.
    #[inline(always)]
    pub(super) fn note_saves(&mut self, i: usize) {
        // (Without a branch: whether a line finds attackers is hard to predict.)
        let has = u16::from(self.parts[i].n != 0);
        self.with_saves = self.with_saves & !(1 << i) | has << i;
    }
}

/// What [`line_attacker`] decides for a piece met on a line, by line (DIRECTIONS index
/// 0..7), whether it is the first square (D's count 1) and the piece's colour and type
/// (`v >> 4 & 8 | v & 7`), once its colour has passed the line's colour rule: bit 0 set if
/// it attacks the square along the line, bit 1 if the scan then stops (a king: AT32),
/// bit 7 D's queen flag. Worked out at compile time by `line_attacker` itself.
static LINE_ATTACKERS: [[[u8; 16]; 2]; 8] = line_attackers_table();

const fn line_attackers_table() -> [[[u8; 16]; 2]; 8] {
    let mut t = [[[0u8; 16]; 2]; 8];
    let mut line = 0;
    while line < 8 {
        let mut first = 0;
        while first < 2 {
            let mut i = 0;
            while i < 16 {
                let v = ((i & 8) << 4 | (i & 7)) as u8;
                // D's count (1 on the first square), no colour flag yet: the colour rule
                // cannot end the line, so what is left is the piece's own verdict.
                let mut d = if first == 1 { 1 } else { 2 };
                if v & 7 != 0 && line_attacker(16 - line as u8, 0, &mut d, v) {
                    t[line][first][i] = 1 | (d & 0x80);
                    if v & 7 == KING {
                        t[line][first][i] |= 2;
                    }
                }
                i += 1;
            }
            first += 1;
        }
        line += 1;
    }
    t
}

/// A piece met by a line of P1's scan, as [`line_attacker`] judges it with D: None if the
/// line's scan ends there (AT14A/AT14B's colour rule or AT14's verdict), else the flags
/// of [`LINE_ATTACKERS`] (D updated as `line_attacker` leaves it).
#[inline(always)]
pub(super) fn judge<const LINE: usize>(p1: u8, d: &mut u8, v: u8) -> Option<u8> {
    // AT14A/AT14B without branches: the flag for the piece's colour against P1's (0x20
    // other, 0x40 same), and the line ends if the other flag is set already.
    let other = (v ^ p1) >> 7;
    let flag = 0x40 >> other;
    let conflict = *d & (0x60 ^ flag);
    *d |= flag;
    let first = usize::from(*d & 0x0F == 1);
    let verdict = LINE_ATTACKERS[LINE][first][usize::from((v >> 4 & 8) | (v & 7))];
    if conflict != 0 || verdict == 0 {
        return None;
    }
    *d |= verdict & 0x80;
    Some(verdict)
}

/// Scan line `line` (with its B) of the square `k` holding P1 again, as ATTACK's AT10
/// loop does (see [`Machine::attack`]), but finding the next occupied square on the
/// line from the occupancy bits `occ` instead of reading the empty squares one by one
/// (the loop only counts those in D). The scan leaves M2/P2/T2 as it found them: the
/// knight jumps, which come after the lines, set them. True if its ATKSAV calls changed.
#[inline(always)]
pub(super) fn rescan_line<const LINE: usize>(
    memo: &mut SquareMemo,
    reach: &mut [u8; 8],
    m: &Machine,
    occ: u64,
    k: usize,
) -> bool {
    // (A function for each line: its direction, its step between the memo's places and
    // the way its bits run are constants.)
    let c = DIRECTIONS[LINE];
    // Towards higher squares (the nearest is the lowest bit) or lower ones.
    let up = c < 0x80;
    let step = match LINE {
        0 | 3 => 7,
        1 | 2 => 9,
        4 | 5 => 8,
        _ => 1,
    };
    let ray = RAYS[k][LINE];
    let mut rescan = Rescan::new(&mut memo.parts[LINE]);
    // D's flags (bits 4-7) and count (bits 0-3) as in `attack_line`.
    let mut d = 0u8;
    let mut rest = ray;
    loop {
        let pieces = rest & occ;
        if pieces == 0 {
            // Empty squares up to the frame, whose byte is read too.
            d = (d & 0xF0) | (RAY_LEN[k][LINE] + 1);
            break;
        }
        let t = if up {
            pieces.trailing_zeros()
        } else {
            63 - pieces.leading_zeros()
        };
        // The ray's squares up to t (all read) and beyond.
        let upto = if up {
            ray & (u64::MAX >> (63 - t))
        } else {
            ray & (u64::MAX << t)
        };
        rest = ray & !upto;
        // As many squares as t is away (its distance on the line).
        d = (d & 0xF0) | ((t as usize).abs_diff(k) / step) as u8;
        let sq = SQUARES[t as usize];
        let v = m.board(sq);
        // (Not a border byte: see the module's notes.)
        let Some(verdict) = judge::<LINE>(m.p1, &mut d, v) else {
            // AT14's end of the line.
            break;
        };
        // AT31
        rescan.record(Save::new(c, d, sq, v));
        // AT32: behind a king the scan stops (a knight never attacks along a line).
        if verdict & 2 != 0 {
            break;
        }
    }
    let changed = rescan.finish();
    reach[LINE] = d & 0x0F;
    memo.note_saves(LINE);
    changed
}

/// Scan the knight jumps (ATTACK's B = 8..1, see [`Machine::attack`]) of the
/// square `k` holding P1 again, going only to the jumps that land on the board (on the
/// frame PATH finds the border and nothing changes). True if the ATKSAV calls changed.
/// (M2/P2/T2 as the jumps leave them are worked out from the board when they are needed:
/// see `PointsMemo::finish`.)
#[inline(always)]
pub(super) fn rescan_knights(memo: &mut SquareMemo, m: &Machine, k: usize) -> bool {
    let from = SQUARES[k];
    let mut rescan = Rescan::new(&mut memo.parts[8]);
    for &iy in JUMPS[k].iter().take_while(|&&iy| iy != NONE) {
        let c = DIRECTIONS[usize::from(iy)];
        let sq = from.wrapping_add(c);
        let v = m.board(sq);
        // AT25
        if v & 7 == KNIGHT {
            // AT14A/AT14B on the first square: only the colour flag (count 1).
            let d = if (v ^ m.p1) & 0x80 != 0 { 0x21 } else { 0x41 };
            rescan.record(Save::new(c, d, sq, v));
        }
    }
    let changed = rescan.finish();
    memo.note_saves(8);
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `judge::<LINE>` for a line given at run time.
    fn judge_on(line: usize, p1: u8, d: &mut u8, v: u8) -> Option<u8> {
        match line {
            0 => judge::<0>(p1, d, v),
            1 => judge::<1>(p1, d, v),
            2 => judge::<2>(p1, d, v),
            3 => judge::<3>(p1, d, v),
            4 => judge::<4>(p1, d, v),
            5 => judge::<5>(p1, d, v),
            6 => judge::<6>(p1, d, v),
            _ => judge::<7>(p1, d, v),
        }
    }

    #[test]
    fn the_memo_judges_a_piece_on_a_line_as_line_attacker_does() {
        let mut compared = 0;
        for line in 0..8 {
            let b = 16 - line as u8;
            // An empty square, a white and a black piece (P1's colour is all it reads).
            for p1 in [0x00, 0x03, 0x85] {
                for flags in [0x00, 0x20, 0x40, 0x80, 0xA0, 0xC0] {
                    for count in 1..=8 {
                        // Every piece byte: any flags, a type from pawn to king.
                        for v in (0..=255u8).filter(|v| (1..=6).contains(&(v & 7))) {
                            let (mut d, mut d2) = (flags | count, flags | count);
                            let attacks = line_attacker(b, p1, &mut d, v);
                            let verdict = judge_on(line, p1, &mut d2, v);
                            assert_eq!(
                                verdict.is_some(),
                                attacks,
                                "line {line}, P1 {p1:#04x}, D {:#04x}, piece {v:#04x}",
                                flags | count
                            );
                            if let Some(verdict) = verdict {
                                assert_eq!(d2, d, "D after line {line}, piece {v:#04x}");
                                assert_eq!(verdict & 2 != 0, v & 7 == KING, "stop behind {v:#04x}");
                            }
                            compared += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(compared, 8 * 3 * 6 * 8 * 192);
    }
}
