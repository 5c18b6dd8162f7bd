//! The evaluation cache: not part of the original, a table that makes the port faster.
//!
//! Sargon has no transposition table: a depth-6 search reaches the same position through
//! different move orders again and again, and scores it from scratch each time with
//! PINFND and POINTS, which are most of the port's time. Both are functions of a handful of
//! inputs, so the port keeps their results by those inputs and, when a position comes back,
//! writes the results instead of running the two routines again.
//!
//! What PINFND and POINTS read (the cache key):
//!
//! * the whole board (the squares a1..h8 in the key; a position whose frame a hook has
//!   broken is not cached);
//! * the royalty table POSK/POSQ (PINFND starts from it; after a promotion or a capture it
//!   is not a function of the board);
//! * COLOR (the side that moved) and whether MOVENO is below 7 (the development term);
//! * the to-square of the move at MLPTRJ, which POINTS compares with each square that can
//!   be lost to set PTSCK: not in the key. The entry keeps, instead of PTSCK, the squares
//!   PTSCK would name had the move gone to them (`PointsMemo::checks`), and PTSCK is made
//!   from the move's to-square when the entry is written back. So a position reached by
//!   moves to different squares is scored once (7% fewer scorings at depth 6 on the
//!   classic positions than with the to-square in the key);
//! * constant tables (DIRECT, PVALUE) and what the two write before they read it.
//!
//! What they write (the cache entry): NPINS and pin-list entries 1..=NPINS, M2, M3, M4,
//! P1, P2, T1, T2, T3, the 14 bytes of the attack list, and POINTS's sums MTRL, BRDC, PTSL,
//! PTSW1, PTSW2, and PTSCK (as above). The end of POINTS (from the end of PT25's loop on: the exchange
//! adjustment, the limits, the `points.end` hook, VALM and the move's value byte) depends
//! on MV0 and BC0 too and always runs. Each of those variables is written on every call
//! (every position has a white king, so PINFND always scans; POINTS always ends on h8), so
//! writing the kept values leaves the machine exactly as running the routines would:
//! the tests check that on whole searches, byte for byte.
//!
//! Not cached: positions without a white king or with a broken frame, more than 10 pins (the pin list then
//! overflows into the royalty table), and scorings that wrote what an entry cannot hold
//! (an attack list overflowing into the pin list: see [`super::Shortcuts`]).
//!
//! The table is direct-mapped (a position's slot is its hash; a newer entry replaces an
//! older one) and, in effect, emptied at the start of each search, so that a search takes
//! as long as it takes from a cold start whatever was searched before: every key the
//! table holds carries the number of its search, and an entry of an earlier search
//! matches no key of this one (after 32,767 searches the numbers come round: an old
//! entry that then matches holds the same inputs' results, which depend on nothing
//! else). (Earlier the table kept a compact array of tags beside the
//! entries and cleared it at each search; the tag's load missed the processor's caches
//! about as often as the entry's, and the store then missed again. Now the lookup reads
//! the entry's two cache lines and the store writes to lines the lookup brought in.)

use super::huge_pages;
use super::memo::{index, on_board};
use crate::faithful::state::{Machine, ATKLST, BOARDA, PLISTA, POSK};
use sargon_core::vocab::BOARD_SIZE;

/// log2 of the number of entries (2^18 entries of 128 bytes: 32 MB; a depth-6 search
/// scores over a million positions, and 2^16 slots lost many of its transpositions).
const BITS: u32 = 18;

/// PINFND's and POINTS's inputs, packed: the board's 8 ranks (a1..h1 first), one word
/// each, then the royalty table, COLOR and MOVENO < 7 (not the move's to-square: see the
/// module's notes). The
/// board's frame is not in the key: a position is cached only while the frame is whole
/// (every byte outside a1..h8 a border byte), which is all the key then leaves out.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) struct Key {
    ranks: [u64; 8],
    rest: u64,
}

/// `FRAME[w]`: the bytes of the board's word `w` (board indexes 8w..8w+7) outside a1..h8,
/// 0xff each.
const FRAME: [u64; BOARD_SIZE / 8] = frame_masks();

const fn frame_masks() -> [u64; BOARD_SIZE / 8] {
    let mut t = [0u64; BOARD_SIZE / 8];
    let mut i = 0;
    while i < BOARD_SIZE {
        if !on_board(i) {
            t[i / 8] |= 0xFF << (8 * (i % 8));
        }
        i += 1;
    }
    t
}

impl Key {
    /// The key of the position `m` is about to score, or None when it must not be cached
    /// (no white king: PINFND would not scan, and leave variables as they were; or a
    /// broken frame, which a hook can make and the key does not hold).
    #[inline]
    pub(crate) fn of(m: &Machine) -> Option<Key> {
        if m.rd(POSK) == 0 {
            return None;
        }
        let board = m.bytes(BOARDA, BOARD_SIZE);
        let word = |at: usize| u64::from_le_bytes(board[at..at + 8].try_into().expect("8 bytes"));
        let mut whole = true;
        for (w, &frame) in FRAME.iter().enumerate() {
            whole &= word(8 * w) & frame == frame;
        }
        if !whole {
            return None;
        }
        let ranks = std::array::from_fn(|r| word(21 + 10 * r));
        let royal: [u8; 4] = m.bytes(POSK, 4).try_into().expect("4 bytes");
        let rest = u64::from(u32::from_le_bytes(royal))
            | u64::from(m.color) << 32
            | u64::from(m.moveno < 7) << 40;
        Some(Key { ranks, rest })
    }

    /// The squares a1..h8, one rank a word (a1..h1 first, the a-file in the low byte).
    #[inline]
    pub(crate) fn ranks(&self) -> &[u64; 8] {
        &self.ranks
    }

    /// The key's hash: the slot is its top BITS bits.
    fn hash(&self) -> u64 {
        // FxHash-style: multiply-rotate over the words.
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut h = 0u64;
        for &w in &self.ranks {
            h = (h.rotate_left(5) ^ w).wrapping_mul(K);
        }
        (h.rotate_left(5) ^ self.rest).wrapping_mul(K)
    }
}

/// What PINFND and POINTS (up to the end of PT25's loop) leave behind.
#[derive(Copy, Clone)]
struct Output {
    npins: u8,
    /// Pinned squares (entries 1..=NPINS), then their directions.
    pins: [u8; 20],
    attack_list: [u8; 14],
    m2: u8,
    m3: u8,
    m4: u8,
    p1: u8,
    p2: u8,
    t1: u8,
    t2: u8,
    t3: u8,
    mtrl: u8,
    brdc: u8,
    ptsl: u8,
    ptsw1: u8,
    ptsw2: u8,
    /// The squares PTSCK names for a move to them (`PointsMemo::checks`).
    checks: u64,
}

impl Output {
    /// What the machine holds after PINFND and POINTS's squares (NPINS at most 10), with
    /// the squares PTSCK names for a move to them.
    fn of(m: &Machine, checks: u64) -> Output {
        let n = usize::from(m.npins);
        let mut pins = [0u8; 20];
        pins[..n].copy_from_slice(m.bytes(PLISTA, n));
        pins[10..10 + n].copy_from_slice(m.bytes(PLISTA + 10, n));
        Output {
            npins: m.npins,
            pins,
            attack_list: m.bytes(ATKLST, 14).try_into().expect("14 bytes"),
            m2: m.m2,
            m3: m.m3,
            m4: m.m4,
            p1: m.p1,
            p2: m.p2,
            t1: m.t1,
            t2: m.t2,
            t3: m.t3,
            mtrl: m.mtrl,
            brdc: m.brdc,
            ptsl: m.ptsl,
            ptsw1: m.ptsw1,
            ptsw2: m.ptsw2,
            checks,
        }
    }

    /// Write the kept results into the machine.
    fn restore(&self, m: &mut Machine) {
        let n = usize::from(self.npins);
        m.npins = self.npins;
        m.set_bytes(PLISTA, &self.pins[..n]);
        m.set_bytes(PLISTA + 10, &self.pins[10..10 + n]);
        m.set_bytes(ATKLST, &self.attack_list);
        (m.m2, m.m3, m.m4) = (self.m2, self.m3, self.m4);
        (m.p1, m.p2) = (self.p1, self.p2);
        (m.t1, m.t2, m.t3) = (self.t1, self.t2, self.t3);
        (m.mtrl, m.brdc, m.ptsl) = (self.mtrl, self.brdc, self.ptsl);
        (m.ptsw1, m.ptsw2) = (self.ptsw1, self.ptsw2);
        // PTSCK names the move's to-square if it is one of the squares kept.
        let to = m.rd(m.mlptrj.wrapping_add(3));
        let named = index(to).is_some_and(|k| self.checks >> k & 1 != 0);
        m.ptsck = if named { to } else { 0 };
    }
}

/// An entry: two of the processor's 64-byte cache lines, no more.
#[derive(Copy, Clone)]
#[repr(align(64))]
pub(super) struct Entry {
    key: Key,
    out: Output,
}

/// The table, allocated on first use.
#[derive(Default)]
pub(crate) struct EvalCache {
    entries: Vec<Entry>,
    /// This search's number (1 to 0x7fff, wrapping), kept in the top bits of every key the
    /// table holds: an entry of an earlier search does not match, so the table need not be
    /// emptied (its 32 MB written) at each search.
    search: u64,
    /// Lookups answered from the table in this search (the tests check the cache is used).
    pub hits: u64,
}

/// Where a key goes in the table: its slot.
#[derive(Copy, Clone)]
pub(crate) struct Place {
    slot: usize,
}

/// Where [`EvalCache::search`] sits in a key's last word (above the 49 bits of the
/// position's).
const SEARCH_SHIFT: u32 = 49;

impl EvalCache {
    /// Forget every entry (a new search starts).
    pub(crate) fn clear(&mut self) {
        self.search = self.search % 0x7FFF + 1;
        self.hits = 0;
    }

    /// This search's number.
    #[cfg(test)]
    pub(crate) fn search(&self) -> u64 {
        self.search
    }

    /// The place of `key`.
    #[inline]
    pub(crate) fn place(key: &Key) -> Place {
        Place {
            slot: (key.hash() >> (64 - BITS)) as usize,
        }
    }

    /// `key` as this search keeps it.
    #[inline]
    fn stamped(&self, key: &Key) -> Key {
        Key {
            ranks: key.ranks,
            rest: key.rest | self.search << SEARCH_SHIFT,
        }
    }

    /// Ask the processor to bring the entry at `place` into its caches (both lines), so
    /// that [`EvalCache::restore`] finds it there after the work done in between: a slot
    /// of the 32 MB table is seldom near, and waiting for it was about a fifth of a
    /// scoring's time.
    #[inline]
    pub(crate) fn prefetch(&self, place: Place) {
        if let Some(entry) = self.entries.get(place.slot) {
            let first: *const Entry = entry;
            prefetch_lines(first.cast(), std::mem::size_of::<Entry>());
        }
    }

    /// If `key` (at `place`) is in the table, write its results into the machine: true.
    #[inline]
    pub(crate) fn restore(&mut self, m: &mut Machine, key: &Key, place: Place) -> bool {
        let stamped = self.stamped(key);
        let hit = self
            .entries
            .get(place.slot)
            .filter(|e| e.key == stamped)
            .map(|e| e.out);
        match hit {
            Some(out) => {
                self.hits += 1;
                out.restore(m);
                true
            }
            None => false,
        }
    }

    /// Keep what the machine holds after PINFND and POINTS's squares as the results of
    /// `key`, with the squares PTSCK names for a move to them (`checks`), unless the pin
    /// list overflowed (more than 10 pins).
    pub(crate) fn store(&mut self, m: &Machine, key: Key, place: Place, checks: u64) {
        if m.npins > 10 {
            return;
        }
        let out = Output::of(m, checks);
        if self.entries.is_empty() {
            self.entries = huge_pages::table(1 << BITS, EMPTY);
        }
        let key = self.stamped(&key);
        self.entries[place.slot] = Entry { key, out };
    }
}

/// A prefetch hint for the `len` bytes at `at` (whole cache lines of 64 bytes).
#[inline(always)]
fn prefetch_lines(at: *const i8, len: usize) {
    #[cfg(target_arch = "x86_64")]
    for offset in (0..len).step_by(64) {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch is only a hint: it reads nothing the program sees and cannot
        // fault, whatever the address (here always inside one entry of the table); SSE,
        // which it needs, is part of every x86-64 processor.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(at.wrapping_add(offset)) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (at, len);
}

const EMPTY: Entry = Entry {
    key: Key {
        ranks: [0; 8],
        rest: 0,
    },
    out: Output {
        npins: 0,
        pins: [0; 20],
        attack_list: [0; 14],
        m2: 0,
        m3: 0,
        m4: 0,
        p1: 0,
        p2: 0,
        t1: 0,
        t2: 0,
        t3: 0,
        mtrl: 0,
        brdc: 0,
        ptsl: 0,
        ptsw1: 0,
        ptsw2: 0,
        checks: 0,
    },
};
