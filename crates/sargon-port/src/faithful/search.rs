//! Making and unmaking moves and the tree search: MOVE (`move_`), UNMOVE, SORTM, EVAL,
//! FNDMOV, ASCEND, BOOK; also ROYALT, VALMOV (used to set a position up).
//!
//! FNDMOV is one long routine with jumps between its labels; it is written here as a loop
//! over an enum of those labels so that each arm can be read beside the original.
//!
//! Where the original scores a position (CALL PINFND, CALL POINTS: FNDMOV before FM5 and
//! at FM35, EVAL at EV5), the port calls a [`Scorer`], which FNDMOV, SORTM and EVAL take as
//! an argument: the original's two routines, or a faster way to the same result.

use super::state::{is_null, Machine, BMOVES, MLIST, POSK, POSQ, SCORE};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::scorer::Scorer;
use sargon_core::hooks::{HookPoint, Hooks};
use sargon_core::vocab::{KING, QUEEN};

/// FNDMOV's labels (the places it jumps to).
#[derive(Copy, Clone, Debug)]
enum Fm {
    /// FM5: one ply deeper: generate (and maybe sort) its moves.
    Fm5,
    /// FM15: the next move of the current ply.
    Fm15,
    /// FM19: descend after making a move.
    Fm19,
    /// FM25: the ply's list is exhausted.
    Fm25,
    /// FM35: evaluate the move just made (a leaf).
    Fm35,
    /// FM36 with this score in A: mark that the ply had a move, then compare.
    Fm36(u8),
    /// FM37 with this score in A: the alpha-beta and best-move tests.
    Fm37(u8),
}

impl Machine {
    /// MOVE (`move_`, as `move` is a Rust keyword): make the move at MLPTRJ on the board,
    /// with its second half for castling and en passant, keeping POSK/POSQ up to date.
    /// A promotion turns the pawn into a queen without recording it in POSQ.
    ///
    /// Called by: EVAL, FNDMOV (FM15, FM18), VALMOV (VA7).
    pub(crate) fn move_(&mut self) {
        let mut hl = self.mlptrj.wrapping_add(2);
        loop {
            // MV1
            self.m1 = self.rd(hl);
            self.m2 = self.rd(hl.wrapping_add(1));
            let d = self.rd(hl.wrapping_add(2));
            let mut e = self.board(self.m1);
            if d & 0x20 != 0 {
                // MV15: promotion
                e |= 4;
            } else {
                let royal = match e & 7 {
                    QUEEN => Some(POSQ), // MV20
                    KING => {
                        // MV30
                        if d & 0x40 != 0 {
                            e |= 0x10; // castled
                        }
                        Some(POSK)
                    }
                    _ => None,
                };
                if let Some(table) = royal {
                    // MV21/MV22: the royal piece's new square
                    let at = if e & 0x80 != 0 { table + 1 } else { table };
                    self.wr(at, self.m2);
                }
            }
            // MV5
            self.set_board(self.m2, e | 0x08);
            self.set_board(self.m1, 0);
            if d & 0x40 != 0 {
                // MV40: the second half sits in the next entry
                hl = self.mlptrj.wrapping_add(8);
                continue;
            }
            if d & 7 == QUEEN {
                // MV10: a captured queen leaves the royalty table
                let at = if d & 0x80 != 0 { POSQ + 1 } else { POSQ };
                self.wr(at, 0);
            }
            return;
        }
    }

    /// UNMOVE: take back the move at MLPTRJ (both halves of a double move).
    ///
    /// Called by: EVAL (EV10), FNDMOV (FM15, FM35), ASCEND, VALMOV (VA9).
    pub(crate) fn unmove(&mut self) {
        let mut hl = self.mlptrj.wrapping_add(2);
        loop {
            // UM1
            self.m1 = self.rd(hl);
            self.m2 = self.rd(hl.wrapping_add(1));
            let d = self.rd(hl.wrapping_add(2));
            let mut e = self.board(self.m2);
            if d & 0x20 != 0 {
                // UM15: the queen becomes a pawn again
                e &= !4;
            } else {
                let royal = match e & 7 {
                    QUEEN => Some(POSQ), // UM20
                    KING => {
                        // UM30
                        if d & 0x40 != 0 {
                            e &= !0x10;
                        }
                        Some(POSK)
                    }
                    _ => None,
                };
                if let Some(table) = royal {
                    // UM21/UM22
                    let at = if e & 0x80 != 0 { table + 1 } else { table };
                    self.wr(at, self.m1);
                }
            }
            // UM5
            if d & 0x10 != 0 {
                // UM16: first move: clear the moved flag
                e &= !0x08;
            }
            // UM6: the captured piece (colour, moved flag, type) comes back
            self.set_board(self.m1, e);
            self.set_board(self.m2, d & 0x8F);
            if d & 0x40 != 0 {
                // UM40
                hl = self.mlptrj.wrapping_add(8);
                continue;
            }
            if d & 7 == QUEEN {
                // UM10
                let at = if d & 0x80 != 0 { POSQ + 1 } else { POSQ };
                self.wr(at, self.m2);
            }
            return;
        }
    }

    /// SORTM: evaluate every move of the current ply (EVAL) and relink the list in
    /// ascending order of value, starting from the ply's slot. Equal values keep their
    /// generation order; illegal moves (value 0) come first.
    ///
    /// Called by: FNDMOV (FM5). Calls: EVAL.
    pub(crate) fn sortm<S: Scorer>(&mut self, scorer: &mut S, hooks: &mut Hooks<'_>) {
        let mut bc = self.mlptri;
        let mut de = 0u16;
        loop {
            // SR5: detach the next unsorted move and link the previous one forward
            let hl = bc;
            bc = self.rd16(hl);
            self.wr16(hl, de);
            if is_null(bc) {
                return;
            }
            // SR10
            self.mlptrj = bc;
            self.eval(scorer, hooks);
            let mut hl = self.mlptri;
            bc = self.mlptrj;
            loop {
                // SR15: find the first listed move with a greater value
                de = self.rd16(hl);
                if is_null(de) {
                    break;
                }
                if self.valm < self.rd(de.wrapping_add(5)) {
                    break;
                }
                // SR30
                hl = de;
            }
            // SR25
            self.wr16(hl, bc);
        }
    }

    /// EVAL: score the move at MLPTRJ: make it, give 0 if it leaves the mover's king in
    /// check, else PINFND, then POINTS; then take it back.
    ///
    /// Called by: SORTM (SR10). Calls: MOVE, INCHK, PINFND and POINTS (through `scorer`),
    /// UNMOVE.
    pub(crate) fn eval<S: Scorer>(&mut self, scorer: &mut S, hooks: &mut Hooks<'_>) {
        self.move_();
        if self.inchk() != 0 {
            self.valm = 0;
        } else {
            // EV5: PINFND, POINTS
            scorer.pinfnd_points(self, hooks);
        }
        // EV10
        self.unmove();
    }

    /// FNDMOV: the search. Plays from the book when MOVENO is 1; otherwise a depth-first
    /// alpha-beta search to PLYMAX plies (one more after a checking move at PLYMAX),
    /// leaving the best root move in BESTM and its score in SCORE+1.
    /// Returns false when `stop` was set before the search finished (a UCI `stop`): the
    /// flag is looked at each time the search goes one ply deeper, which is often enough to
    /// answer within milliseconds and costs one relaxed load per interior node.
    ///
    /// Called by: the engine's search (CPTRMV in the original). Calls: BOOK, PINFND and
    /// POINTS (through `scorer`), GENMOV, SORTM, MOVE, INCHK, INCHK1, UNMOVE, ASCEND.
    pub(crate) fn fndmov<S: Scorer>(
        &mut self,
        scorer: &mut S,
        hooks: &mut Hooks<'_>,
        stop: Option<&AtomicBool>,
    ) -> bool {
        if self.moveno == 1 {
            // The book discards FNDMOV's return address: FNDMOV ends with it.
            self.book(hooks);
            return true;
        }
        self.nply = 0;
        self.bestm = 0;
        self.mlnxt = MLIST;
        self.mlptri = self.layout.plyix.wrapping_sub(2);
        self.color = self.kolor;
        self.scrix = SCORE;
        // PLYMAX+2 score bytes are zeroed (a byte counter: 0 would mean 256).
        let count = self.plymax.wrapping_add(2);
        let n = if count == 0 { 256 } else { u16::from(count) };
        for i in 0..n {
            self.wr(SCORE.wrapping_add(i), 0);
        }
        self.bc0 = 0;
        self.mv0 = 0;
        // The root is scored first (PINFND, POINTS): its material and board control are
        // the baseline.
        scorer.pinfnd_points(self, hooks);
        self.bc0 = self.brdc;
        self.mv0 = self.mtrl;

        let mut at = Fm::Fm5;
        loop {
            at = match at {
                Fm::Fm5 => {
                    // FM5
                    if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                        return false;
                    }
                    self.nply = self.nply.wrapping_add(1);
                    self.matef = 0;
                    self.genmov(hooks);
                    if hooks.mask().contains(HookPoint::MovegenDone) {
                        // GENMOV returns with 99 (its last square compare) in A.
                        self.fire(hooks, HookPoint::MovegenDone, 99, 0, 0);
                    }
                    if self.nply < self.plymax {
                        self.sortm(scorer, hooks);
                    }
                    self.mlptrj = self.mlptri;
                    Fm::Fm15
                }
                Fm::Fm15 => {
                    // FM15
                    let de = self.rd16(self.mlptrj);
                    if is_null(de) {
                        Fm::Fm25
                    } else {
                        self.mlptrj = de;
                        self.wr16(self.mlptri, de);
                        if self.nply < self.plymax {
                            // FM18: sorted ply: skip moves EVAL found illegal
                            if self.rd(self.mlptrj.wrapping_add(5)) == 0 {
                                Fm::Fm15
                            } else {
                                self.move_();
                                Fm::Fm19
                            }
                        } else {
                            // At or beyond PLYMAX the list is unsorted: test legality here.
                            self.move_();
                            if self.inchk() != 0 {
                                self.unmove();
                                Fm::Fm15
                            } else if self.nply != self.plymax
                                || self.inchk1(self.color ^ 0x80) == 0
                            {
                                // Beyond PLYMAX, or no check given: a leaf.
                                Fm::Fm35
                            } else {
                                // The move gives check at PLYMAX: one more ply.
                                Fm::Fm19
                            }
                        }
                    }
                }
                Fm::Fm19 => {
                    // FM19
                    self.color ^= 0x80;
                    if self.color & 0x80 == 0 {
                        self.moveno = self.moveno.wrapping_add(1);
                    }
                    // The new ply starts with the score two plies above it.
                    let a = self.rd(self.scrix);
                    self.wr(self.scrix.wrapping_add(2), a);
                    self.scrix = self.scrix.wrapping_add(1);
                    Fm::Fm5
                }
                Fm::Fm25 => {
                    // FM25
                    if self.matef != 0 {
                        // FM30
                        if self.nply == 1 {
                            return true;
                        }
                        let nply = self.nply;
                        self.ascend(hooks, nply);
                        let a = self.rd(self.scrix.wrapping_add(2));
                        Fm::Fm37(a)
                    } else if self.ckflg == 0 {
                        // No legal move, not in check: stalemate.
                        Fm::Fm36(0x80)
                    } else {
                        // Checkmate.
                        self.pmate = self.moveno;
                        Fm::Fm36(0xFF)
                    }
                }
                Fm::Fm35 => {
                    // FM35: PINFND, POINTS
                    scorer.pinfnd_points(self, hooks);
                    self.unmove();
                    Fm::Fm36(self.valm)
                }
                Fm::Fm36(a) => {
                    // FM36
                    self.matef |= 1;
                    Fm::Fm37(a)
                }
                // FM37
                Fm::Fm37(a) => match self.fm37(hooks, a) {
                    Some(next) => next,
                    None => return true,
                },
            };
        }
    }

    /// FM37: compare the score A with the score two plies above (not greater: cut off and
    /// go up), then its negation with the best one ply above (greater: new best, and at the
    /// root the new BESTM). None: FNDMOV returns (a root move mates).
    fn fm37(&mut self, hooks: &mut Hooks<'_>, a: u8) -> Option<Fm> {
        let mut a = a;
        let mut hl = self.scrix;
        if hooks.mask().contains(HookPoint::AlphaBeta) {
            a = self.fire(hooks, HookPoint::AlphaBeta, a, 0, self.rd(hl)).0;
        }
        if a <= self.rd(hl) {
            // FM40
            self.ascend(hooks, a);
            return Some(Fm::Fm15);
        }
        a = a.wrapping_neg();
        hl = hl.wrapping_add(1);
        let not_better = a <= self.rd(hl);
        if hooks.mask().contains(HookPoint::BestTest) {
            // The hook runs after the comparison: a new A changes what is stored, not the
            // decision.
            a = self.fire(hooks, HookPoint::BestTest, a, 0, self.rd(hl)).0;
        }
        if not_better {
            return Some(Fm::Fm15);
        }
        self.wr(hl, a);
        if hooks.mask().contains(HookPoint::BestConfirmed) {
            self.fire(hooks, HookPoint::BestConfirmed, a, 0, self.rd(hl));
        }
        if self.nply != 1 {
            return Some(Fm::Fm15);
        }
        self.bestm = self.mlptrj;
        if self.rd(SCORE + 1) != 0xFF {
            return Some(Fm::Fm15);
        }
        // A mate was found at the root: stop, and search 2 plies less next time.
        self.plymax = self.plymax.wrapping_sub(2);
        if self.kolor & 0x80 != 0 {
            self.pmate = self.pmate.wrapping_sub(1);
        }
        None
    }

    /// ASCEND: go up one ply: colour and move number back, score index and ply counter
    /// down, the ply table's previous pair restores MLNXT and MLPTRJ, and the move is
    /// taken back. `a` is the accumulator on entry (for the hook only).
    ///
    /// Called by: FNDMOV (FM30, FM40). Calls: UNMOVE.
    pub(crate) fn ascend(&mut self, hooks: &mut Hooks<'_>, a: u8) {
        if hooks.mask().contains(HookPoint::Ascend) {
            self.fire(hooks, HookPoint::Ascend, a, 0, 0);
        }
        self.color ^= 0x80;
        if self.color & 0x80 != 0 {
            self.moveno = self.moveno.wrapping_sub(1);
        }
        self.scrix = self.scrix.wrapping_sub(1);
        self.nply = self.nply.wrapping_sub(1);
        let hl = self.mlptri;
        self.mlnxt = self.rd16(hl.wrapping_sub(2));
        self.mlptrj = self.rd16(hl.wrapping_sub(4));
        self.mlptri = hl.wrapping_sub(4);
        self.unmove();
    }

    /// BOOK: the one-move opening book. White plays 1.e4 or 1.d4 by bit 0 of the random
    /// byte; Black answers 1.d4, 1.Nc3, 1.Nf3 and the f-, g- and h-pawn moves with 1...d5 and
    /// everything else with 1...e5. Only the low byte of BESTM is stepped.
    ///
    /// Called by: FNDMOV (at MOVENO 1).
    pub(crate) fn book(&mut self, hooks: &mut Hooks<'_>) {
        self.wr(SCORE + 1, 0);
        self.bestm = BMOVES.wrapping_sub(2);
        if self.kolor == 0 {
            let mut a = self.book_random;
            if hooks.mask().contains(HookPoint::BookRandom) {
                a = self.fire(hooks, HookPoint::BookRandom, a, 0, 0).0;
            }
            if a & 1 != 0 {
                self.step_bestm(3);
            }
            return;
        }
        // BM5: Black's entries
        self.step_bestm(6);
        let from = self.rd(self.mlptrj.wrapping_add(2));
        let d5 = from == 22 || from == 27 || from == 34 || (from > 34 && from != 35);
        if d5 {
            // BM9
            self.step_bestm(3);
        }
    }

    /// Add to BESTM's low byte only, as the book's byte increments do.
    fn step_bestm(&mut self, n: u8) {
        let [lo, hi] = self.bestm.to_le_bytes();
        self.bestm = u16::from_le_bytes([lo.wrapping_add(n), hi]);
    }

    /// ROYALT: rebuild POSK/POSQ from the board (the last king or queen of each colour
    /// found in board order wins).
    ///
    /// Called by: the position's setup ([`Port::prepare`](crate::Port::prepare);
    /// ANALYS in the original).
    pub(crate) fn royalt(&mut self) {
        for i in 0..4 {
            self.wr(POSK + i, 0);
        }
        let mut sq = 21u8;
        loop {
            // RY04
            self.m1 = sq;
            let a = self.board(self.m1);
            let mut hl = if a & 0x80 != 0 { POSK + 1 } else { POSK };
            let t = a & 7;
            if t == KING || t == QUEEN {
                if t == QUEEN {
                    hl += 2;
                }
                // RY08
                self.wr(hl, self.m1);
            }
            // RY0C
            sq = self.m1.wrapping_add(1);
            if sq == 99 {
                return;
            }
        }
    }

    /// VALMOV: check and play the move MVEMSG for the side KOLOR ^ 0x80: generate its moves
    /// at MLIST+1024, find the from/to pair, make it and test the king. Returns 0 (legal,
    /// MLPTRJ left on the move) or 1 (refused, board and MLPTRJ restored).
    ///
    /// Called by: the position's setup, for a replayed move
    /// ([`Port::prepare`](crate::Port::prepare); PLYRMV in the original). Calls:
    /// GENMOV, MOVE, INCHK, UNMOVE.
    pub(crate) fn valmov(&mut self, hooks: &mut Hooks<'_>) -> u8 {
        let saved = self.mlptrj;
        self.color = self.kolor ^ 0x80;
        self.mlptri = self.layout.plyix.wrapping_sub(2);
        self.mlnxt = MLIST + 1024;
        self.genmov(hooks);
        let mut ix = MLIST + 1024;
        loop {
            // VA5
            if self.mvemsg[0] == self.rd(ix.wrapping_add(2))
                && self.mvemsg[1] == self.rd(ix.wrapping_add(3))
            {
                break;
            }
            // VA6
            let de = self.rd16(ix);
            if is_null(de) {
                // VA10
                self.mlptrj = saved;
                return 1;
            }
            ix = de;
        }
        // VA7
        self.mlptrj = ix;
        self.move_();
        if self.inchk() != 0 {
            // VA9
            self.unmove();
            self.mlptrj = saved;
            return 1;
        }
        0
    }
}
