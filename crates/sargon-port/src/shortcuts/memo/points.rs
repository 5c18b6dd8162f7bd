//! [`PointsMemo`]: the memo of the last POINTS, finding what changed and scoring only the squares that need it.

use super::changes::{pin_key, Changes, PinKey, ALL_PARTS, KNIGHTS, MAX_CHANGES};
use super::square::{
    atksav_on_copy, count_attackers, rescan_knights, rescan_line, AttackList, SquareMemo, XchngMemo,
};
use super::tables::{frame_intact, index, on_board, JUMPS, NONE, READERS, SQUARES};
use crate::faithful::eval::development_term;
use crate::faithful::state::{Machine, ATKLST, DIRECTIONS, PLISTA};
use sargon_core::vocab::{BOARD_SIZE, KNIGHT};

/// `DEVELOPMENT[early][p]`: POINTS's development term for the piece byte `p` (0: none),
/// `early` being MOVENO < 7, made at compile time by `development_term` (a table lookup
/// instead of the term's several hard-to-predict tests).
static DEVELOPMENT: [[u8; 256]; 2] = development_table();

const fn development_table() -> [[u8; 256]; 2] {
    let mut t = [[0u8; 256]; 2];
    let mut early = 0;
    while early < 2 {
        let mut p = 0;
        while p < 256 {
            t[early][p] = match development_term(p as u8, early == 1) {
                Some(v) => v,
                None => 0,
            };
            p += 1;
        }
        early += 1;
    }
    t
}

/// The memo: the board and pin list of the last POINTS, and each square's scans (indexed
/// by `index`).
#[derive(Clone)]
pub(crate) struct PointsMemo {
    board: [u8; BOARD_SIZE],
    pins: PinKey,
    squares: [SquareMemo; 64],
    /// The squares whose memo holds a scan, one bit each.
    valid: u64,
    /// The squares whose kept attack list may not be the one their scans make, one bit
    /// each: empty squares, whose attackers were counted without making the list (see
    /// `PointsMemo::points`).
    stale: u64,
    /// The occupied squares of `board` (byte not 0), one bit each.
    occ: u64,
    /// How far each square's lines read (`parts[line].reach`, kept together for
    /// [`PointsMemo::mark_readers`]).
    reach: [[u8; 8]; 64],
    /// The square POINTS looked at last.
    last: usize,
    /// Not used in this POINTS: the board's frame is broken.
    pub(crate) off: bool,
    /// An ATKSAV call in this POINTS went past a king's slot (see [`atksav_on_copy`]).
    spilled: bool,
    /// What each square added to POINTS's sums the last time it was looked at (see
    /// `PointsMemo::points`): the development term, attackers minus defenders (both to
    /// BRDC), the material (to MTRL), and the points its owner can lose (E, 0: none).
    development: [u8; 64],
    control: [u8; 64],
    material: [u8; 64],
    loss: [u8; 64],
    /// The byte sums of `material` and of `development` and `control` (MTRL and BRDC),
    /// kept up to date as the terms change.
    mtrl: u8,
    brdc: u8,
    /// The squares whose `loss` is not 0, one bit each.
    losses: u64,
    /// The squares (one bit per memo place) that the last POINTS would have put in PTSCK
    /// had its move gone to them: see [`PointsMemo::checks`].
    checks: u64,
    /// MOVENO < 7 when the development terms were worked out (rooks and queens depend on
    /// it).
    early: bool,
    /// Squares looked at again, and of those worked out again (for tests).
    #[cfg(test)]
    pub(crate) counts: SquareCounts,
}

/// How many squares [`PointsMemo::points`] looked at again (some scan read a changed
/// square, or PNCK may judge an attacker otherwise), and how many of those it worked
/// out again (the others kept their terms), since the memo was made.
#[cfg(test)]
#[derive(Copy, Clone, Default, Debug)]
pub(crate) struct SquareCounts {
    pub(crate) looked_at: u64,
    pub(crate) worked_out: u64,
    /// Of those worked out, empty squares whose attackers were counted without a list.
    pub(crate) counted: u64,
}

impl Default for PointsMemo {
    fn default() -> Self {
        PointsMemo {
            board: [0; BOARD_SIZE],
            pins: [0; 21],
            squares: [SquareMemo::default(); 64],
            valid: 0,
            stale: 0,
            occ: 0,
            reach: [[0; 8]; 64],
            last: 0,
            off: false,
            spilled: false,
            development: [0; 64],
            control: [0; 64],
            material: [0; 64],
            loss: [0; 64],
            mtrl: 0,
            brdc: 0,
            losses: 0,
            checks: 0,
            early: false,
            #[cfg(test)]
            counts: SquareCounts::default(),
        }
    }
}

impl PointsMemo {
    /// Forget everything.
    pub(crate) fn clear(&mut self) {
        self.board = [0; BOARD_SIZE];
        self.valid = 0;
        self.stale = 0;
    }

    /// Compare the board and the pin list with those of the previous POINTS and find the
    /// scans that read a changed square. The memo is not changed: [`PointsMemo::take`]
    /// makes the new board and pin list its own (the shortcuts find the changes while the
    /// evaluation cache's entry comes, and need them only if it has no answer).
    pub(crate) fn changes(&self, m: &Machine) -> Changes {
        let board = m.board_array();
        let mut ch = Changes {
            all: false,
            pins_all: false,
            pinned: 0,
            dirty: [0; 64],
            dirty_squares: 0,
            changed: 0,
            board,
            pins: pin_key(m),
            occ: self.occ,
            off: false,
        };
        if ch.pins != self.pins || ch.pins[0] == 0xFF {
            // ATKSAV reads the pin list only through `NPINS != 0` and PNCK, which looks
            // for the attacker's square among the first NPINS entries: an attacker on
            // neither list is treated alike with both.
            let (old, new) = (usize::from(self.pins[0]), usize::from(ch.pins[0]));
            ch.pins_all = old > 10 || new > 10 || (old == 0) != (new == 0);
            for &q in self.pins[1..]
                .iter()
                .take(old)
                .chain(ch.pins[1..].iter().take(new))
            {
                ch.pinned |= 1u128.checked_shl(u32::from(q)).unwrap_or(0);
            }
        }
        let mut changed = [0u8; MAX_CHANGES];
        // Did a knight leave or come to the changed square?
        let mut knight = [false; MAX_CHANGES];
        let mut n = 0;
        let word = |b: &[u8; BOARD_SIZE], i: usize| {
            u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().expect("8 bytes"))
        };
        for i in 0..BOARD_SIZE / 8 {
            // The changed bytes of the word, one at a time.
            let mut diff = word(&board, i) ^ word(&self.board, i);
            while diff != 0 {
                let j = diff.trailing_zeros() as usize / 8;
                diff &= !(0xFF << (8 * j));
                let q = 8 * i + j;
                let (new, old) = (board[q], self.board[q]);
                if n == MAX_CHANGES || !on_board(q) || new == 0xFF {
                    ch.all = true;
                } else {
                    changed[n] = q as u8;
                    knight[n] = new & 7 == KNIGHT || old & 7 == KNIGHT;
                    n += 1;
                }
            }
        }
        if ch.all {
            ch.off = !frame_intact(&board);
            ch.occ = 0;
            for (k, &sq) in SQUARES.iter().enumerate() {
                ch.occ |= u64::from(board[usize::from(sq)] != 0) << k;
            }
            return ch;
        }
        for (&q, &knight) in changed[..n].iter().zip(&knight[..n]) {
            let k = index(q).expect("changes on the board");
            ch.occ = ch.occ & !(1 << k) | u64::from(board[usize::from(q)] != 0) << k;
            self.mark_readers(q, knight, &mut ch);
        }
        ch
    }

    /// Make the board and pin list that `ch` was found for the memo's own (before
    /// [`PointsMemo::points`] with `ch`).
    pub(crate) fn take(&mut self, ch: &Changes) {
        self.pins = ch.pins;
        self.board = ch.board;
        self.occ = ch.occ;
        self.off = ch.off;
        if self.off {
            // Scans may run off the board: forget everything.
            self.clear();
        }
    }

    /// Mark in `dirty` the parts whose result can depend on the square `q`: every part of q
    /// itself, each line that reached q, and if a knight left or came to q (`knight`), the
    /// knight jumps of the squares a knight's jump away. (Otherwise their ATKSAV calls are
    /// the same; the only other thing they leave is P2/T2, which `PointsMemo::finish`
    /// reads from the board.)
    pub(super) fn mark_readers(&self, q: u8, knight: bool, ch: &mut Changes) {
        let Some(q) = index(q) else { return };
        ch.dirty[q] = ALL_PARTS;
        ch.changed |= 1 << q;
        // The squares with a part marked here, one bit each.
        let mut marked = 1u64 << q;
        let readers = &READERS[q];
        if knight {
            for &k in readers.knights.iter().take_while(|&&k| k != NONE) {
                ch.dirty[usize::from(k)] |= KNIGHTS;
                marked |= 1 << k;
            }
        }
        for (line, (behind, &len)) in readers.lines.iter().zip(&readers.line_len).enumerate() {
            // Walk back from q: the square at distance `dist` reads q on this line if its
            // scan went that far.
            for (dist, &k) in (1..).zip(&behind[..usize::from(len)]) {
                let k = usize::from(k);
                // (Without a branch: whether the scans went that far is hard to predict.)
                let reads = self.reach[k][line] >= dist;
                ch.dirty[k] |= u16::from(reads) << line;
                marked |= u64::from(reads) << k;
            }
        }
        ch.dirty_squares |= marked;
    }

    /// The first half of PT6X's ATTACK for square `k` (holding P1) as the memo makes it:
    /// the parts in `dirty` are scanned again. True if some part found other ATKSAV calls
    /// than the memo kept.
    pub(super) fn rescan_square(&mut self, m: &Machine, k: usize, dirty: u16) -> bool {
        let memo = &mut self.squares[k];
        let mut changed = false;
        if dirty != 0 {
            // Scan again what changed: the lines in ATTACK's order (each with its B),
            // then the knight jumps.
            let reach = &mut self.reach[k];
            let occ = self.occ;
            // (Each line tested in turn rather than picked from the set bits: an
            // indirect jump to the line's function was mispredicted most of the time.)
            macro_rules! line {
                ($line:literal) => {
                    if dirty & (1 << $line) != 0 {
                        changed |= rescan_line::<$line>(memo, reach, m, occ, k);
                    }
                };
            }
            line!(0);
            line!(1);
            line!(2);
            line!(3);
            line!(4);
            line!(5);
            line!(6);
            line!(7);
            if dirty & KNIGHTS != 0 {
                changed |= rescan_knights(memo, m, k);
            }
        }
        changed
    }

    /// The rest of PT6X's `clear the attack list, ATTACK` for square `k` (M3) after
    /// [`PointsMemo::rescan_square`]: the ATKSAV calls made again if `save_again` (some
    /// part found other attackers, or PNCK may judge them otherwise). Returns the
    /// attackers counted for White and for Black (WACT, BACT); the list is in the square's
    /// memo, not in memory.
    pub(super) fn attack_square(
        &mut self,
        m: &mut Machine,
        k: usize,
        save_again: bool,
    ) -> (u8, u8) {
        self.last = k;
        self.valid |= 1 << k;
        let memo = &mut self.squares[k];
        if save_again {
            self.stale &= !(1 << k);
            // ATKSAV the attackers in order into a cleared list (a copy: the list is
            // written to memory only when XCHNG reads it, see `xchng_square`).
            let mut list: AttackList = [0; 15];
            list[14] = m.rd(PLISTA);
            let mut spilled = false;
            let mut parts = memo.with_saves;
            while parts != 0 {
                let part = &memo.parts[parts.trailing_zeros() as usize];
                parts &= parts - 1;
                for &save in part.saves() {
                    spilled |= atksav_on_copy(m, &mut list, save);
                }
            }
            self.spilled |= spilled;
            // XCHNG's result stands as long as the list is the same.
            if list[..14] != memo.list {
                memo.list.copy_from_slice(&list[..14]);
                memo.xchng = None;
            }
        }
        // The counts: list bytes 0 (WACT) and 7 (BACT).
        (memo.list[0], memo.list[7])
    }

    /// XCHNG for the square M3 holding P1, after [`PointsMemo::attack_square`]: from the
    /// memo if the square's list and P1 are those of the last time.
    pub(super) fn xchng_square(&mut self, m: &mut Machine) -> (u8, u8) {
        let memo = &mut self.squares[self.last];
        if let Some(x) = memo.xchng
            && x.p1 == m.p1
        {
            return x.result;
        }
        m.set_bytes(ATKLST, &memo.list);
        let result = m.xchng();
        let mut list = [0u8; 14];
        list.copy_from_slice(m.bytes(ATKLST, 14));
        memo.xchng = Some(XchngMemo {
            p1: m.p1,
            result,
            list,
        });
        result
    }

    /// POINTS's PT5..PT25 over all squares when only some squares can have changed: the
    /// squares whose scans read a changed square (or whose attackers PNCK may now judge
    /// otherwise) are worked out again (ATTACK, XCHNG, the development term, as the
    /// original does for every square), the others add what they added last time. The
    /// sums are the same in any order (byte additions wrap), and PTSL, PTSW1, PTSW2 and
    /// PTSCK are found by going over the squares' losses in the original's order. Leaves
    /// M3, P1, T3, T1, the attack list and M2/P2/T2 as the original's last square (h8)
    /// does.
    ///
    /// False if an attack list overflowed into the pin list on the way (ATKSAV's seventh
    /// slot, with six or more attackers of one colour on one square): the memo cannot
    /// follow that write (the original's later PNCK calls read it), so the result does not
    /// stand and POINTS must be made by the original's steps (from the pin list as it was).
    #[must_use]
    pub(crate) fn points(&mut self, m: &mut Machine, ch: &Changes) -> bool {
        debug_assert!(!self.off);
        self.spilled = false;
        m.t1 = 7;
        let early = m.moveno < 7;
        let redo_development = early != self.early;
        self.early = early;
        if redo_development {
            for (k, &sq) in SQUARES.iter().enumerate() {
                self.set_development(k, DEVELOPMENT[usize::from(early)][usize::from(m.board(sq))]);
            }
        }
        // The squares whose attackers PNCK may now judge otherwise: their ATKSAV calls are
        // made again.
        let mut pins_again = 0u64;
        if ch.pins_all || ch.pinned != 0 {
            for (k, memo) in self.squares.iter().enumerate() {
                if memo.pins_matter(ch) {
                    pins_again |= 1 << k;
                }
            }
        }
        // Squares without a scan in the memo are scanned whole.
        let fresh = if ch.all { !0 } else { !self.valid };
        let mut again = fresh | ch.dirty_squares | pins_again;
        while again != 0 {
            let k = again.trailing_zeros() as usize;
            again &= again - 1;
            let sq = SQUARES[k];
            let fresh_k = fresh >> k & 1 != 0;
            let (dirty, save_again) = if fresh_k {
                (
                    ALL_PARTS,
                    self.valid >> k & 1 == 0 || pins_again >> k & 1 != 0,
                )
            } else {
                (ch.dirty[k], pins_again >> k & 1 != 0)
            };
            // PT5: the square, its piece and type
            m.m3 = sq;
            m.p1 = m.board(sq);
            m.t3 = m.p1 & 7;
            let save_again = self.rescan_square(m, k, dirty) || save_again;
            #[cfg(test)]
            {
                self.counts.looked_at += 1;
            }
            if !save_again && !fresh_k && ch.changed >> k & 1 == 0 {
                // The same piece with the same attack list (the scans that read a changed
                // square found the same attackers, judged alike): the square adds what it
                // added last time, and nothing else it leaves is looked at before the
                // next square overwrites it.
                continue;
            }
            #[cfg(test)]
            {
                self.counts.worked_out += 1;
            }
            // PT6A..PT6D
            self.set_development(k, DEVELOPMENT[usize::from(early)][usize::from(m.p1)]);
            // PT6X. An empty square's list is looked at by nothing but WACT and BACT
            // (no XCHNG), unless it is the last square (h8), whose list POINTS leaves in
            // memory: its attackers are counted, and the list made when it is needed.
            let counted = if m.p1 == 0 && k != 63 {
                count_attackers(&self.squares[k], m)
            } else {
                None
            };
            let (wact, bact) = match counted {
                Some(counts) => {
                    #[cfg(test)]
                    {
                        self.counts.counted += 1;
                    }
                    self.valid |= 1 << k;
                    self.stale |= 1 << k;
                    counts
                }
                None => {
                    let save_again = save_again || self.stale >> k & 1 != 0;
                    self.attack_square(m, k, save_again)
                }
            };
            let control = wact.wrapping_sub(bact);
            self.brdc = self
                .brdc
                .wrapping_add(control.wrapping_sub(self.control[k]));
            self.control[k] = control;
            if m.p1 == 0 {
                self.set_material(k, 0, 0);
                continue;
            }
            // XCHNG; a piece that can be lost is worth half a pawn less (PT23: material)
            let (mut d, e) = self.xchng_square(m);
            if e != 0 {
                d = d.wrapping_sub(1);
            }
            let material = if m.p1 & 0x80 != 0 {
                d.wrapping_neg()
            } else {
                d
            };
            self.set_material(k, material, e);
        }
        m.mtrl = self.mtrl;
        m.brdc = self.brdc;
        // The losses in the original's order (PT20 and the lines before it).
        (m.ptsl, m.ptsw1, m.ptsw2, m.ptsck) = (0, 0, 0, 0);
        let to = m.rd(m.mlptrj.wrapping_add(3));
        let mut losses = self.losses;
        self.checks = 0;
        while losses != 0 {
            let k = losses.trailing_zeros() as usize;
            losses &= losses - 1;
            let sq = SQUARES[k];
            // Each square as if the move had gone to it (so the cache's entry serves a
            // move to any square, see `PointsMemo::checks`): PTSCK names it if its loss is
            // then the largest so far; with the move's own to-square elsewhere, PTSCK
            // stays as it was.
            let named = m.ptsck;
            m.count_loss(sq, m.board(sq), self.loss[k], sq);
            if m.ptsck == sq {
                self.checks |= 1 << k;
                if sq != to {
                    m.ptsck = named;
                }
            }
        }
        // The last square, h8, as PT25 leaves it.
        m.m3 = SQUARES[63];
        m.p1 = m.board(m.m3);
        m.t3 = m.p1 & 7;
        self.last = 63;
        self.finish(m);
        !self.spilled
    }

    /// The squares (one bit per memo place, see `index`) that the last [`PointsMemo::points`]
    /// would have put in PTSCK had the move at MLPTRJ gone to them: PTSCK is the only thing
    /// POINTS's squares make of the move's to-square, so with these a position's results
    /// serve a move to any square (see `EvalCache`).
    pub(crate) fn checks(&self) -> u64 {
        self.checks
    }

    /// Square `k`'s development term is now `v`.
    #[inline(always)]
    pub(super) fn set_development(&mut self, k: usize, v: u8) {
        self.brdc = self.brdc.wrapping_add(v.wrapping_sub(self.development[k]));
        self.development[k] = v;
    }

    /// Square `k`'s material is now `v`, and the points its owner can lose `e`.
    #[inline(always)]
    pub(super) fn set_material(&mut self, k: usize, v: u8, e: u8) {
        self.mtrl = self.mtrl.wrapping_add(v.wrapping_sub(self.material[k]));
        self.material[k] = v;
        self.loss[k] = e;
        self.losses = self.losses & !(1 << k) | u64::from(e != 0) << k;
    }

    /// After the last square: the attack list as ATTACK and XCHNG left it there, and
    /// M2/P2/T2 as ATTACK's knight jumps left them: M2 the last jump's square, P2/T2 what
    /// the last one on the board found (there is always one).
    pub(super) fn finish(&self, m: &mut Machine) {
        let k = self.last;
        let memo = &self.squares[k];
        match memo.xchng {
            Some(x) if m.p1 != 0 => m.set_bytes(ATKLST, &x.list),
            _ => m.set_bytes(ATKLST, &memo.list),
        }
        let from = SQUARES[k];
        let last = JUMPS[k]
            .iter()
            .take_while(|&&iy| iy != NONE)
            .last()
            .expect("at least two jumps on the board");
        let v = m.board(from.wrapping_add(DIRECTIONS[usize::from(*last)]));
        [m.m2, m.p2, m.t2] = [from.wrapping_add(DIRECTIONS[15]), v, v & 7];
    }
}
