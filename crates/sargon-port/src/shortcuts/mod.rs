//! The port's shortcuts: not part of the original, two ways to the result of PINFND and
//! POINTS that are faster than the original's steps and leave the machine exactly as they
//! would, byte for byte.
//!
//! * [`memo`]: POINTS's memo. POINTS runs ATTACK on all 64 squares for every position it
//!   scores; consecutive positions differ in a few squares, so the memo works out again
//!   only the squares whose scans read a changed square.
//! * [`pins`]: PINFND by occupancy bits: the first two pieces of each line out of a royal
//!   piece found with bit scans instead of square by square.
//! * [`cache`]: the evaluation cache. Sargon has no transposition table and scores the
//!   same position again whenever move orders transpose; the cache keeps PINFND's and
//!   POINTS's results by everything they read, for one search.
//!
//! All sit behind the [`Scorer`] the faithful routines call where the original scores a
//! position: [`Shortcuts`] uses them, [`Verified`] uses them and checks every result
//! against the original's steps (for tests). The faithful routines contain none of this;
//! the memo, the cache and `pins` call them (PINFND, ATTACK's line test, PNCK, XCHNG, POINTS's
//! development and loss terms, POINTS's end) and otherwise read the machine's memory.
//!
//! One thing the original does can not be followed: ATKSAV's seventh slot. With six or
//! more attackers of one colour on one square, a value goes past the colour's king slot,
//! for Black into the first byte of the pin list, which later PNCK calls read and which
//! the cache's entries do not hold when there are no pins. The shortcuts notice it (the
//! memo in its own copy of ATKSAV, the cache by the pin list's first byte changing under
//! a scoring that found no pins) and from then on, for the rest of the search, the
//! position is scored by the original's steps.

pub(crate) mod cache;
mod huge_pages;
pub(crate) mod memo;
mod pins;
#[cfg(test)]
mod pins_and_counts_tests;
#[cfg(test)]
mod tests;
mod verify;

pub(crate) use verify::Verified;

use self::cache::{EvalCache, Key};
use self::memo::{Changes, PointsMemo};
use crate::faithful::state::{Machine, PLISTA};
use crate::scorer::Scorer;
use sargon_core::hooks::Hooks;

/// The [`Scorer`] with POINTS's memo and the evaluation cache.
pub(crate) struct Shortcuts {
    memo: Box<PointsMemo>,
    cache: EvalCache,
    /// An attack list has overflowed into the pin list in this search (see the module's
    /// notes): the original's steps only, until the next search.
    spilled: bool,
    /// Scorings in this search (for tests).
    #[cfg(test)]
    scorings: u64,
}

impl Default for Shortcuts {
    fn default() -> Self {
        Shortcuts::new()
    }
}

impl Shortcuts {
    /// The shortcuts with empty caches.
    pub(crate) fn new() -> Shortcuts {
        Shortcuts {
            memo: Box::default(),
            cache: EvalCache::default(),
            spilled: false,
            #[cfg(test)]
            scorings: 0,
        }
    }

    /// Scorings the cache answered in this search.
    #[cfg(test)]
    pub(crate) fn cache_hits(&self) -> u64 {
        self.cache.hits
    }

    /// Scorings (PINFND + POINTS) in this search, with the shortcuts or not.
    #[cfg(test)]
    pub(crate) fn scorings(&self) -> u64 {
        self.scorings
    }

    /// The memo's counts of squares looked at and worked out again.
    #[cfg(test)]
    pub(crate) fn square_counts(&self) -> memo::SquareCounts {
        self.memo.counts
    }

    /// An attack list overflowed into the pin list in this search, and the shortcuts have
    /// stepped aside since.
    #[cfg(test)]
    pub(crate) fn spilled(&self) -> bool {
        self.spilled
    }

    /// PINFND, then POINTS up to the end of PT25's loop (all but the score made of the
    /// sums, which depends on MV0 and BC0 as well and always runs): from the cache when the
    /// position was scored before in this search, else PINFND and POINTS's squares with
    /// the memo.
    pub(crate) fn pinfnd_points_squares(&mut self, m: &mut Machine) {
        #[cfg(test)]
        {
            self.scorings += 1;
        }
        if self.spilled {
            m.pinfnd();
            m.points_squares();
            return;
        }
        // No key (no white king, or a broken frame): not cached, but the spill is looked
        // for all the same.
        let key = Key::of(m).map(|key| (EvalCache::place(&key), key));
        if let Some((place, _)) = &key {
            self.cache.prefetch(*place);
        }
        // PINFND first, whatever the cache holds, while the entry comes: it reads only
        // what the key holds and writes only what an entry holds (so an entry found after
        // it writes what it would have written).
        let first_pin = m.rd(PLISTA);
        // PINFND by occupancy bits where it can be (see `pins`), else its own steps.
        let occupied = key
            .as_ref()
            .and_then(|(_, key)| pins::occupancy(key.ranks()));
        if !occupied.is_some_and(|occ| pins::pinfnd(m, occ)) {
            m.pinfnd();
        }
        // The memo's changes too (the memo takes them only if the cache has no answer).
        let changes = self.memo.changes(m);
        if let Some((place, key)) = &key
            && self.cache.restore(m, key, *place)
        {
            return;
        }
        let checks = self.points_squares(m, &changes);
        // With no pins found, nothing but an attack list overflowing into the pin list
        // writes its first byte, which an entry does not hold then.
        if m.npins == 0 && m.rd(PLISTA) != first_pin {
            self.spilled = true;
        }
        if let (false, Some(checks), Some((place, key))) = (self.spilled, checks, key) {
            self.cache.store(m, key, place, checks);
        }
    }

    /// POINTS up to the end of PT25's loop with the memo, unless the board's frame is
    /// broken or an attack list overflows into the pin list on the way: then by the
    /// original's steps. With the memo, the squares PTSCK names for a move to them (see
    /// `PointsMemo::checks`), which the cache needs to keep the result.
    fn points_squares(&mut self, m: &mut Machine, changes: &Changes) -> Option<u64> {
        let pins: [u8; 20] = m.bytes(PLISTA, 20).try_into().expect("20 bytes");
        self.memo.take(changes);
        if !self.memo.off {
            if self.memo.points(m, changes) {
                return Some(self.memo.checks());
            }
            // From the state POINTS started with, by the original's steps.
            self.spilled = true;
            m.set_bytes(PLISTA, &pins);
        }
        m.points_squares();
        None
    }
}

impl Scorer for Shortcuts {
    #[inline]
    fn pinfnd_points(&mut self, m: &mut Machine, hooks: &mut Hooks<'_>) {
        self.pinfnd_points_squares(m);
        m.points_total(hooks);
    }

    fn new_search(&mut self) {
        self.memo.clear();
        self.cache.clear();
        self.spilled = false;
        #[cfg(test)]
        {
            self.scorings = 0;
        }
    }
}
