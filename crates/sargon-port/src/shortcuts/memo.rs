//! POINTS's memo of ATTACK: not part of the original, a cache that makes the port faster.
//!
//! POINTS runs ATTACK (with T1 = 7: list every attacker and defender) on all 64 squares for
//! every position it scores, and that is most of the port's time. Consecutive evaluations
//! are nearly always of sibling positions (SORTM scoring every move of a ply, FNDMOV
//! scoring the leaves one after the other), which differ in two to four squares; most of
//! the 9 scans of a square (8 lines, the knight jumps) read none of them.
//!
//! ATTACK with T1 = 7 is a scan that finds the attackers (`Part`: per line, the squares
//! read and the ATKSAV calls due), then the ATKSAV calls in order (see
//! [`Machine::attack`]). What it leaves behind (the attack list, which it finds cleared,
//! and M2, P2, T2) depends on nothing but
//!
//! * for each line, the square itself (P1, whose colour the scan compares with) and the
//!   squares the line read, up to the one it stopped on;
//! * for the knight jumps, the square itself and the 8 knight squares (M2/P2/T2 on exit
//!   are the last jump's square and the last knight square on the board: there are always
//!   at least two, so their values on entry do not matter);
//! * for the ATKSAV calls, the attackers' board bytes (on squares their line read), the
//!   pin list that PNCK reads (NPINS and the first NPINS entries), and constant tables
//!   (DIRECTIONS, PVALUE: nothing writes to them).
//!
//! So each square's memo keeps its 9 parts and the attack list ATTACK left (M2/P2/T2 are
//! needed only after the last square, and are read from the board then). Before each
//! POINTS the board is compared with the board of the previous POINTS. For each square, a
//! line that read a changed square is scanned again, and the knight jumps if a knight left
//! or came to a square a knight's jump away (only knights make their ATKSAV calls);
//! if its ATKSAV calls differ, or the pin list differs in a way PNCK can see for one of
//! the square's attackers (see `PointsMemo::changes`), the ATKSAV calls are made again
//! into a cleared list (a copy, not memory: the memo has its own copy of ATKSAV's steps,
//! `atksav_on_copy`); otherwise the kept list is the one. A part is scanned again in
//! place, each ATKSAV call compared with the kept one, and XCHNG's result stays as long as
//! the list comes out the same.
//!
//! XCHNG, which POINTS runs on the list of an occupied square, reads nothing but that list
//! and P1 (T3 is P1's type, PVALUE is constant): the memo keeps its result and the list
//! as XCHNG leaves it, for as long as the square's list and P1 stay the same.
//!
//! Between two squares nothing looks at the attack list or M2/P2/T2 (POINTS clears the
//! list before each ATTACK and ATTACK overwrites M2/P2/T2; there is no hook point inside
//! POINTS), so a list from the memo is written to memory only when XCHNG must read it, and
//! after the last square (`PointsMemo::finish`). POINTS ends with exactly the memory
//! and variables of the original.
//!
//! A square none of whose parts read a changed square, whose piece is the same and whose
//! attackers PNCK cannot judge otherwise adds to POINTS's sums exactly what it added last
//! time, so `PointsMemo::points` works out only the other squares (on a depth-6 search
//! about 40 of the 64) and adds the kept terms of the rest.
//!
//! The memo is used only while the board's frame of 0xff border bytes is intact and no
//! square of the board holds a border byte. (A hook could make a move onto the frame;
//! then scans could run off the board into the attack list, and POINTS runs exactly the
//! original's steps.) So the memo's own scans know that every square they find on the
//! board is empty or a piece, and the frame is where the board ends.

use crate::faithful::movegen::line_attacker;
use crate::faithful::state::{Machine, ATKLST, DIRECTIONS, PLISTA, PVALUE};
use sargon_core::vocab::{BOARD_SIZE, KING, KNIGHT, QUEEN};

/// One ATKSAV call of an ATTACK with T1 = 7: the direction C, the flags D, and the
/// attacker's square M2 and board byte P2 (T2 is its type), packed in one word.
#[derive(Copy, Clone, Default, PartialEq, Eq)]
struct Save(u32);

impl Save {
    #[inline(always)]
    fn new(c: u8, d: u8, m2: u8, p2: u8) -> Save {
        Save(u32::from_le_bytes([c, d, m2, p2]))
    }
    /// (C, D, M2, P2)
    #[inline(always)]
    fn get(self) -> (u8, u8, u8, u8) {
        let [c, d, m2, p2] = self.0.to_le_bytes();
        (c, d, m2, p2)
    }
}

/// What one line of an ATTACK with T1 = 7 found (or the eight knight jumps together):
/// how many squares the line read, the last one included, and its ATKSAV calls in order.
#[derive(Copy, Clone, Default)]
struct Part {
    reach: u8,
    n: u8,
    saves: [Save; 8],
}

impl Part {
    /// The ATKSAV calls.
    fn saves(&self) -> &[Save] {
        &self.saves[..usize::from(self.n)]
    }
}

/// The attack list as ATKSAV sees it: WACT and its 6 slots, BACT and its 6 slots, and
/// the byte after them (the first of the pin list, where a full black king slot spills).
type AttackList = [u8; 15];

/// ATKSAV's steps (see [`Machine::atksav`]) for an attacker the memo kept, on a copy of
/// the attack list instead of memory. True: a full king's slot sent the value into the
/// byte after the colour's list (White's BACT, Black's the first of the pin list), which
/// the memo does not follow (see `PointsMemo::points`).
#[inline]
fn atksav_on_copy(m: &Machine, list: &mut AttackList, save: Save) -> bool {
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

/// The memo of one square (what most squares need first, so that it shares a cache line).
#[derive(Copy, Clone, Default)]
#[repr(C)]
struct SquareMemo {
    /// The parts with ATKSAV calls, one bit each.
    with_saves: u16,
    /// The attack list as ATTACK left it.
    list: [u8; 14],
    /// XCHNG on that list, if it was made.
    xchng: Option<XchngMemo>,
    /// The 8 lines, then the knight jumps.
    parts: [Part; 9],
}

/// What XCHNG made of a square's attack list.
#[derive(Copy, Clone)]
struct XchngMemo {
    /// The piece on the square.
    p1: u8,
    /// XCHNG's result.
    result: (u8, u8),
    /// The attack list as XCHNG left it.
    list: [u8; 14],
}

/// A part of a square scanned again into its memo in place: each ATKSAV call found is
/// compared with the one kept at its place (and replaces it if it differs).
struct Rescan<'a> {
    part: &'a mut Part,
    /// ATKSAV calls found so far.
    n: u8,
    /// Some call differs from the kept one.
    changed: bool,
}

impl<'a> Rescan<'a> {
    /// An ATKSAV call found.
    #[inline(always)]
    fn record(&mut self, save: Save) {
        let i = usize::from(self.n);
        if self.n >= self.part.n || self.part.saves[i] != save {
            self.part.saves[i] = save;
            self.changed = true;
        }
        self.n += 1;
    }

    fn new(part: &'a mut Part) -> Self {
        Rescan {
            part,
            n: 0,
            changed: false,
        }
    }

    /// After the scan: keep the count. True if the ATKSAV calls differ from the kept ones.
    #[inline(always)]
    fn finish(self) -> bool {
        let changed = self.changed || self.n != self.part.n;
        self.part.n = self.n;
        changed
    }
}

impl SquareMemo {
    /// May PNCK now judge some of the square's attackers otherwise (see
    /// `PointsMemo::changes`)?
    fn pins_matter(&self, ch: &Changes) -> bool {
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
    fn note_saves(&mut self, i: usize) {
        if self.parts[i].n != 0 {
            self.with_saves |= 1 << i;
        } else {
            self.with_saves &= !(1 << i);
        }
    }
}

/// Scan line `line` (with its B) of the square `k` holding P1 again, as ATTACK's AT10
/// loop does (see [`Machine::attack`]), but finding the next occupied square on the
/// line from the occupancy bits `occ` instead of reading the empty squares one by one
/// (the loop only counts those in D). The scan leaves M2/P2/T2 as it found them: the
/// knight jumps, which come after the lines, set them. True if its ATKSAV calls changed.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn rescan_line(
    memo: &mut SquareMemo,
    reach: &mut [u8; 8],
    m: &Machine,
    occ: u64,
    k: usize,
    line: usize,
    b: u8,
) -> bool {
    let c = DIRECTIONS[line];
    // Towards higher squares (the nearest is the lowest bit) or lower ones.
    let up = c < 0x80;
    let ray = RAYS[k][line];
    let mut rescan = Rescan::new(&mut memo.parts[line]);
    // D's flags (bits 4-7) and count (bits 0-3) as in `attack_line`.
    let mut d = 0u8;
    let mut rest = ray;
    loop {
        let pieces = rest & occ;
        if pieces == 0 {
            // Empty squares up to the frame, whose byte is read too.
            d = (d & 0xF0) | (RAY_LEN[k][line] + 1);
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
        // As many squares as t is away (its distance on the line; no popcount, which the
        // default target has only as a long bit-twiddling sequence).
        d = (d & 0xF0) | distance(k, t as usize);
        let sq = SQUARES[t as usize];
        let v = m.board(sq);
        // (Not a border byte: see the module's notes.)
        if !line_attacker(b, m.p1, &mut d, v) {
            // AT14's end of the line.
            break;
        }
        // AT31
        rescan.record(Save::new(c, d, sq, v));
        // AT32: behind a king or knight the scan stops.
        if v & 7 == KING || v & 7 == KNIGHT {
            break;
        }
    }
    rescan.part.reach = d & 0x0F;
    let changed = rescan.finish();
    reach[line] = d & 0x0F;
    memo.note_saves(line);
    changed
}

/// Scan the knight jumps (ATTACK's B = 8..1, see [`Machine::attack`]) of the
/// square `k` holding P1 again, going only to the jumps that land on the board (on the
/// frame PATH finds the border and nothing changes). True if the ATKSAV calls changed.
/// (M2/P2/T2 as the jumps leave them are worked out from the board when they are needed:
/// see `PointsMemo::finish`.)
#[inline(always)]
fn rescan_knights(memo: &mut SquareMemo, m: &Machine, k: usize) -> bool {
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

/// The pin list as PNCK can read it: NPINS, then the first NPINS squares and directions
/// (unused entries zero). NPINS above 10 never matches: see [`pin_key`].
type PinKey = [u8; 21];

/// The memo: the board and pin list of the last POINTS, and each square's scans (indexed
/// by `index`).
#[derive(Clone)]
pub(crate) struct PointsMemo {
    board: [u8; BOARD_SIZE],
    pins: PinKey,
    squares: [SquareMemo; 64],
    /// The squares whose memo holds a scan, one bit each.
    valid: u64,
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
    /// MOVENO < 7 when the development terms were worked out (rooks and queens depend on
    /// it).
    early: bool,
}

impl Default for PointsMemo {
    fn default() -> Self {
        PointsMemo {
            board: [0; BOARD_SIZE],
            pins: [0; 21],
            squares: [SquareMemo::default(); 64],
            valid: 0,
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
            early: false,
        }
    }
}

/// What changed since the previous POINTS, from `PointsMemo::changes`.
pub(crate) struct Changes {
    /// Scan every square afresh.
    all: bool,
    /// The pin list differs in a way that matters to every square with attackers.
    pins_all: bool,
    /// The squares that are in the pin list now or were in the previous one (one bit
    /// per board index): the attackers PNCK may now judge otherwise.
    pinned: u128,
    /// Per square (see `index`): the parts that read a changed square.
    dirty: [u16; 64],
    /// The squares with dirty parts, one bit each.
    dirty_squares: u64,
}

/// More changed squares than this and every square is scanned afresh.
const MAX_CHANGES: usize = 16;

/// All 9 parts of a square.
const ALL_PARTS: u16 = 0x1FF;
/// The knight jumps' part.
const KNIGHTS: u16 = 0x100;

/// INDEX[i]: the memo's place for board index `i` (a1 = 0 .. h8 = 63), or 0xFF off the
/// board.
static INDEX: [u8; BOARD_SIZE] = index_table();

const fn index_table() -> [u8; BOARD_SIZE] {
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
fn index(s: u8) -> Option<usize> {
    let i = *INDEX.get(usize::from(s))?;
    (i != 0xFF).then_some(usize::from(i))
}

/// SQUARES[k]: the board index of the memo's place `k` (the inverse of [`index`]), in
/// POINTS's order.
static SQUARES: [u8; 64] = squares_table();

const fn squares_table() -> [u8; 64] {
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
static RAYS: [[u64; 8]; 64] = rays_table();

const fn rays_table() -> [[u64; 8]; 64] {
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
static RAY_LEN: [[u8; 8]; 64] = ray_len_table();

const fn ray_len_table() -> [[u8; 8]; 64] {
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

/// How many steps apart the memo's places `k` and `t` are on the line (rank, file or
/// diagonal) through both: the larger of the rank and file differences.
#[inline(always)]
fn distance(k: usize, t: usize) -> u8 {
    let ranks = (k / 8).abs_diff(t / 8);
    let files = (k % 8).abs_diff(t % 8);
    ranks.max(files) as u8
}

/// JUMPS[k]: the knight jumps (DIRECTIONS indexes 8..15, in ATTACK's order) from the
/// memo's place `k` that land on the board (there are at least two), ended by [`NONE`].
static JUMPS: [[u8; 8]; 64] = jumps_table();

const fn jumps_table() -> [[u8; 8]; 64] {
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
const NONE: u8 = 0xFF;

/// The squares (memo places) whose scans can read a square: a knight's jump away, and
/// for each line the squares behind it, nearest first (as many as are on the board;
/// lists end with [`NONE`]).
#[derive(Copy, Clone)]
struct Readers {
    knights: [u8; 8],
    lines: [[u8; 7]; 8],
}

/// READERS[k]: the [`Readers`] of the memo's place `k`.
static READERS: [Readers; 64] = readers_table();

const fn readers_table() -> [Readers; 64] {
    let mut t = [Readers {
        knights: [NONE; 8],
        lines: [[NONE; 7]; 8],
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
            line += 1;
        }
        k += 1;
    }
    t
}

/// Is board index `i` one of a1..h8?
const fn on_board(i: usize) -> bool {
    i >= 21 && i < 99 && i % 10 >= 1 && i % 10 <= 8
}

/// Is every square outside a1..h8 a border byte, and none inside?
fn frame_intact(board: &[u8; BOARD_SIZE]) -> bool {
    (0..BOARD_SIZE).all(|i| on_board(i) != (board[i] == 0xFF))
}

fn pin_key(m: &Machine) -> PinKey {
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

impl PointsMemo {
    /// Forget everything.
    pub(crate) fn clear(&mut self) {
        self.board = [0; BOARD_SIZE];
        self.valid = 0;
    }

    /// Compare the board and the pin list with those of the previous POINTS, remember the
    /// new ones, and find the scans that read a changed square.
    pub(crate) fn changes(&mut self, m: &Machine) -> Changes {
        let mut ch = Changes {
            all: false,
            pins_all: false,
            pinned: 0,
            dirty: [0; 64],
            dirty_squares: 0,
        };
        let pins = pin_key(m);
        if pins != self.pins || pins[0] == 0xFF {
            // ATKSAV reads the pin list only through `NPINS != 0` and PNCK, which looks
            // for the attacker's square among the first NPINS entries: an attacker on
            // neither list is treated alike with both.
            let (old, new) = (usize::from(self.pins[0]), usize::from(pins[0]));
            ch.pins_all = old > 10 || new > 10 || (old == 0) != (new == 0);
            for &q in self.pins[1..]
                .iter()
                .take(old)
                .chain(pins[1..].iter().take(new))
            {
                ch.pinned |= 1u128.checked_shl(u32::from(q)).unwrap_or(0);
            }
        }
        self.pins = pins;
        let board = m.board_array();
        let mut changed = [0u8; MAX_CHANGES];
        // Did a knight leave or come to the changed square?
        let mut knight = [false; MAX_CHANGES];
        let mut n = 0;
        for (i, (new, old)) in board
            .chunks_exact(8)
            .zip(self.board.chunks_exact(8))
            .enumerate()
        {
            if new == old {
                continue;
            }
            for j in (0..8).filter(|&j| new[j] != old[j]) {
                let q = 8 * i + j;
                if n == MAX_CHANGES || !on_board(q) || new[j] == 0xFF {
                    ch.all = true;
                } else {
                    changed[n] = q as u8;
                    knight[n] = new[j] & 7 == KNIGHT || old[j] & 7 == KNIGHT;
                    n += 1;
                }
            }
        }
        self.board = board;
        self.off = ch.all && !frame_intact(&board);
        if self.off {
            // Scans may run off the board: forget everything.
            self.clear();
        }
        if ch.all {
            self.occ = 0;
            for (k, &sq) in SQUARES.iter().enumerate() {
                self.occ |= u64::from(board[usize::from(sq)] != 0) << k;
            }
            return ch;
        }
        for (&q, &knight) in changed[..n].iter().zip(&knight[..n]) {
            let k = index(q).expect("changes on the board");
            self.occ = self.occ & !(1 << k) | u64::from(board[usize::from(q)] != 0) << k;
            self.mark_readers(q, knight, &mut ch.dirty);
        }
        for (k, &d) in ch.dirty.iter().enumerate() {
            ch.dirty_squares |= u64::from(d != 0) << k;
        }
        ch
    }

    /// Mark in `dirty` the parts whose result can depend on the square `q`: every part of q
    /// itself, each line that reached q, and if a knight left or came to q (`knight`), the
    /// knight jumps of the squares a knight's jump away. (Otherwise their ATKSAV calls are
    /// the same; the only other thing they leave is P2/T2, which `PointsMemo::finish`
    /// reads from the board.)
    fn mark_readers(&self, q: u8, knight: bool, dirty: &mut [u16; 64]) {
        let Some(q) = index(q) else { return };
        dirty[q] = ALL_PARTS;
        let readers = &READERS[q];
        if knight {
            for &k in readers.knights.iter().take_while(|&&k| k != NONE) {
                dirty[usize::from(k)] |= KNIGHTS;
            }
        }
        for (line, behind) in readers.lines.iter().enumerate() {
            // Walk back from q: the square at distance `dist` reads q on this line if its
            // scan went that far.
            for (dist, &k) in (1..).zip(behind.iter().take_while(|&&k| k != NONE)) {
                let k = usize::from(k);
                // (Without a branch: whether the scans went that far is hard to predict.)
                dirty[k] |= u16::from(self.reach[k][line] >= dist) << line;
            }
        }
    }

    /// PT6X's `clear the attack list, ATTACK` for the square M3 (T1 = 7), redoing only
    /// what the memo cannot tell: the parts in `dirty` are scanned again, and the ATKSAV
    /// calls made again if some part finds other attackers or `save_again`. Returns the
    /// attackers counted for White and for Black (WACT, BACT); the list is in the square's
    /// memo, not in memory.
    fn attack_square(&mut self, m: &mut Machine, dirty: u16, save_again: bool) -> (u8, u8) {
        let k = index(m.m3).expect("POINTS scans squares on the board");
        self.last = k;
        self.valid |= 1 << k;
        let memo = &mut self.squares[k];
        let mut save_again = save_again;
        if dirty != 0 {
            // Scan again what changed: the lines in ATTACK's order (each with its B),
            // then the knight jumps.
            let reach = &mut self.reach[k];
            let occ = self.occ;
            let mut lines = dirty & 0xFF;
            while lines != 0 {
                let line = lines.trailing_zeros() as usize;
                lines &= lines - 1;
                save_again |= rescan_line(memo, reach, m, occ, k, line, 16 - line as u8);
            }
            if dirty & KNIGHTS != 0 {
                save_again |= rescan_knights(memo, m, k);
            }
        }
        if save_again {
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
    fn xchng_square(&mut self, m: &mut Machine) -> (u8, u8) {
        let memo = &mut self.squares[self.last];
        if let Some(x) = memo.xchng {
            if x.p1 == m.p1 {
                return x.result;
            }
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
                self.set_development(k, m.development(m.board(sq)).unwrap_or(0));
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
            let (dirty, save_again) = if fresh >> k & 1 != 0 {
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
            // PT6A..PT6D
            self.set_development(k, m.development(m.p1).unwrap_or(0));
            // PT6X
            let (wact, bact) = self.attack_square(m, dirty, save_again);
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
        while losses != 0 {
            let k = losses.trailing_zeros() as usize;
            losses &= losses - 1;
            let sq = SQUARES[k];
            m.count_loss(sq, m.board(sq), self.loss[k], to);
        }
        // The last square, h8, as PT25 leaves it.
        m.m3 = SQUARES[63];
        m.p1 = m.board(m.m3);
        m.t3 = m.p1 & 7;
        self.last = 63;
        self.finish(m);
        !self.spilled
    }

    /// Square `k`'s development term is now `v`.
    #[inline(always)]
    fn set_development(&mut self, k: usize, v: u8) {
        self.brdc = self.brdc.wrapping_add(v.wrapping_sub(self.development[k]));
        self.development[k] = v;
    }

    /// Square `k`'s material is now `v`, and the points its owner can lose `e`.
    #[inline(always)]
    fn set_material(&mut self, k: usize, v: u8, e: u8) {
        self.mtrl = self.mtrl.wrapping_add(v.wrapping_sub(self.material[k]));
        self.material[k] = v;
        self.loss[k] = e;
        self.losses = self.losses & !(1 << k) | u64::from(e != 0) << k;
    }

    /// After the last square: the attack list as ATTACK and XCHNG left it there, and
    /// M2/P2/T2 as ATTACK's knight jumps left them: M2 the last jump's square, P2/T2 what
    /// the last one on the board found (there is always one).
    fn finish(&self, m: &mut Machine) {
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
