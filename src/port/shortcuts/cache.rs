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
//! * the whole board, frame included (a hook may have moved a piece onto the frame);
//! * the royalty table POSK/POSQ (PINFND starts from it; after a promotion or a capture it
//!   is not a function of the board);
//! * COLOR (the side that moved), the to-square of the move at MLPTRJ (POINTS compares each
//!   square with it) and whether MOVENO is below 7 (the development term);
//! * constant tables (DIRECT, PVALUE) and what the two write before they read it.
//!
//! What they write (the cache entry): NPINS and pin-list entries 1..=NPINS, M2, M3, M4,
//! P1, P2, T1, T2, T3, the 14 bytes of the attack list, and POINTS's sums MTRL, BRDC, PTSL,
//! PTSW1, PTSW2, PTSCK. The end of POINTS (PT25A on: the exchange adjustment, the limits,
//! the `points.end` hook, VALM and the move's value byte) depends on MV0 and BC0 too and
//! always runs. Each of those variables is written on every call (every position has a
//! white king, so PINFND always scans; POINTS always ends on h8), so writing the kept values
//! leaves the machine exactly as running the routines would: `tests.rs` checks that on whole
//! searches, byte for byte.
//!
//! Not cached: positions without a white king, more than 10 pins (the pin list then
//! overflows into the royalty table), and everything after an attack list overflowed into
//! the pin list (see [`Machine::spilled`]).
//!
//! The table is direct-mapped (a position's slot is its hash; a newer entry replaces an
//! older one) and emptied at the start of each search, so that a search takes as long as
//! it takes from a cold start whatever was searched before. Beside the entries it keeps
//! a compact array of tags (the rest of the hash): most lookups miss, and a tag that
//! differs tells so without reading the large entry (a cache miss of the processor's).

use crate::base::hooks::Hooks;
use crate::base::vocab::BOARD_SIZE;
use crate::port::faithful::state::{Machine, ATKLST, PLISTA, POSK};

/// log2 of the number of entries (2^16 entries of about 200 bytes: 13 MB).
const BITS: u32 = 16;

/// PINFND's and POINTS's inputs.
#[derive(Copy, Clone, PartialEq, Eq)]
struct Key {
    board: [u8; BOARD_SIZE],
    royal: [u8; 4],
    color: u8,
    to: u8,
    early: bool,
}

/// What PINFND and POINTS (up to PT25A) leave behind.
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
    ptsck: u8,
}

#[derive(Copy, Clone)]
struct Entry {
    key: Key,
    out: Output,
}

/// The table, allocated on first use.
#[derive(Default)]
pub struct EvalCache {
    /// Per slot: the tag of the entry's key ([`EvalCache::hash`] with bit 0 set), or 0 if
    /// the slot holds no entry of this search.
    tags: Vec<u64>,
    entries: Vec<Entry>,
    /// Lookups answered from the table in this search (the tests check the cache is used).
    pub hits: u64,
}

/// A copy of a machine starts with an empty table (a copy is made to run something else).
impl Clone for EvalCache {
    fn clone(&self) -> Self {
        EvalCache::default()
    }
}

impl EvalCache {
    /// Forget every entry (a new search starts).
    pub fn clear(&mut self) {
        self.tags.fill(0);
        self.hits = 0;
    }

    /// The key's hash: the slot is its top BITS bits.
    fn hash(key: &Key) -> u64 {
        // FxHash-style: multiply-rotate over the board's 15 words, then the rest.
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut h = 0u64;
        for w in key.board.chunks_exact(8) {
            let w = u64::from_le_bytes(w.try_into().expect("8 bytes"));
            h = (h.rotate_left(5) ^ w).wrapping_mul(K);
        }
        let rest = u64::from(u32::from_le_bytes(key.royal))
            | u64::from(key.color) << 32
            | u64::from(key.to) << 40
            | u64::from(key.early) << 48;
        (h.rotate_left(5) ^ rest).wrapping_mul(K)
    }
}

impl Machine {
    /// PINFND then POINTS, as EVAL (EV5), FNDMOV (FM35) and FNDMOV's root scoring call them,
    /// from the cache when the position was scored before in this search.
    pub fn pinfnd_points(&mut self, hooks: &mut Hooks<'_>) {
        // For tests: the same two routines on a copy, by the original's steps only.
        let reference = self.verify_shortcuts.then(|| {
            let mut copy = self.clone();
            copy.shortcuts = false;
            copy.pinfnd();
            copy.points_squares();
            copy
        });
        self.pinfnd_points_fast();
        if let Some(reference) = reference {
            let diff = self.differences(&reference);
            assert!(
                diff.is_empty(),
                "PINFND + POINTS with shortcuts differ from the original's steps: {diff:?}"
            );
        }
        self.points_total(hooks);
    }

    fn pinfnd_points_fast(&mut self) {
        match self.cache_key() {
            None => {
                self.pinfnd();
                self.points_squares();
            }
            Some(key) => {
                let hash = EvalCache::hash(&key);
                let slot = (hash >> (64 - BITS)) as usize;
                let tag = hash | 1;
                let hit = (self.cache.tags.get(slot) == Some(&tag))
                    .then(|| &self.cache.entries[slot])
                    .filter(|e| e.key == key)
                    .map(|e| e.out);
                if let Some(out) = hit {
                    self.cache.hits += 1;
                    self.restore(&out);
                } else {
                    self.pinfnd();
                    self.points_squares();
                    // A spill during these two calls wrote where the entry does not reach.
                    if !self.spilled && self.npins <= 10 {
                        let out = self.output();
                        let cache = &mut self.cache;
                        if cache.entries.is_empty() {
                            cache.tags = vec![0; 1 << BITS];
                            cache.entries = vec![EMPTY; 1 << BITS];
                        }
                        cache.tags[slot] = tag;
                        cache.entries[slot] = Entry { key, out };
                    }
                }
            }
        }
    }

    /// The key of the position to score, or None when the cache must not be used.
    fn cache_key(&self) -> Option<Key> {
        if !self.shortcuts || self.spilled || self.rd(POSK) == 0 {
            return None;
        }
        Some(Key {
            board: self.board_array(),
            royal: self.bytes(POSK, 4).try_into().expect("4 bytes"),
            color: self.color,
            to: self.rd(self.mlptrj.wrapping_add(3)),
            early: self.moveno < 7,
        })
    }

    fn output(&self) -> Output {
        let n = usize::from(self.npins);
        let mut pins = [0u8; 20];
        pins[..n].copy_from_slice(self.bytes(PLISTA, n));
        pins[10..10 + n].copy_from_slice(self.bytes(PLISTA + 10, n));
        Output {
            npins: self.npins,
            pins,
            attack_list: self.bytes(ATKLST, 14).try_into().expect("14 bytes"),
            m2: self.m2,
            m3: self.m3,
            m4: self.m4,
            p1: self.p1,
            p2: self.p2,
            t1: self.t1,
            t2: self.t2,
            t3: self.t3,
            mtrl: self.mtrl,
            brdc: self.brdc,
            ptsl: self.ptsl,
            ptsw1: self.ptsw1,
            ptsw2: self.ptsw2,
            ptsck: self.ptsck,
        }
    }

    fn restore(&mut self, out: &Output) {
        let n = usize::from(out.npins);
        self.npins = out.npins;
        self.set_bytes(PLISTA, &out.pins[..n]);
        self.set_bytes(PLISTA + 10, &out.pins[10..10 + n]);
        self.set_bytes(ATKLST, &out.attack_list);
        (self.m2, self.m3, self.m4) = (out.m2, out.m3, out.m4);
        (self.p1, self.p2) = (out.p1, out.p2);
        (self.t1, self.t2, self.t3) = (out.t1, out.t2, out.t3);
        (self.mtrl, self.brdc, self.ptsl) = (out.mtrl, out.brdc, out.ptsl);
        (self.ptsw1, self.ptsw2, self.ptsck) = (out.ptsw1, out.ptsw2, out.ptsck);
    }
}

const EMPTY: Entry = Entry {
    key: Key {
        board: [0; BOARD_SIZE],
        royal: [0; 4],
        color: 0,
        to: 0,
        early: false,
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
        ptsck: 0,
    },
};
