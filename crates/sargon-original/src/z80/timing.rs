//! The profiler's per-address timing cache over the decoder.

use super::decode::{decode, Flow, Timing};

/// Per-address timing facts for the profiler: each address is decoded once, then each
/// execution looks its T-states up from what the instruction did.
///
/// One packed word per address: bits 0-7 the first byte (to notice code that changed),
/// 8-15 the T-states when a condition fails (or the only value), 16-23 when it holds,
/// 24-26 the length, 27-28 how to tell whether the condition held, 31 "decoded".
#[derive(Clone)]
pub struct TimingCache {
    table: Vec<u32>,
}

const DECODED: u32 = 1 << 31;
const KIND_FIXED: u32 = 0;
const KIND_BRANCH: u32 = 1;
const KIND_RETURN: u32 = 2;
const KIND_REPEAT: u32 = 3;

impl Default for TimingCache {
    fn default() -> Self {
        TimingCache::new()
    }
}

impl TimingCache {
    /// An empty cache.
    ///
    /// ```
    /// use sargon_original::z80::TimingCache;
    /// let mut cache = TimingCache::new();
    /// let mem = vec![0u8; 0x10000]; // NOPs
    /// assert_eq!(cache.t_states(&mem, 0, 1, 0x4000, 0x4000), 4);
    /// ```
    pub fn new() -> Self {
        TimingCache {
            table: vec![0; 0x10000],
        }
    }

    /// The documented T-states of the instruction at `pc`, which has just executed in
    /// `mem`, leaving `pc_after` and `sp_after` (SP before it was `sp_before`).
    ///
    /// ```
    /// use sargon_original::z80::TimingCache;
    /// let mut cache = TimingCache::new();
    /// let mut mem = vec![0u8; 0x10000];
    /// mem[0x100..0x102].copy_from_slice(&[0x20, 0x10]); // JR NZ,+16
    /// // Not taken (PC went on to 102H): 7 T-states; taken: 12.
    /// assert_eq!(cache.t_states(&mem, 0x100, 0x102, 0x4000, 0x4000), 7);
    /// assert_eq!(cache.t_states(&mem, 0x100, 0x112, 0x4000, 0x4000), 12);
    /// ```
    #[inline]
    pub fn t_states(
        &mut self,
        mem: &[u8],
        pc: u16,
        pc_after: u16,
        sp_before: u16,
        sp_after: u16,
    ) -> u8 {
        let e = self.entry(mem, pc);
        let held = match (e >> 27) & 3 {
            KIND_FIXED => return (e >> 8) as u8,
            KIND_BRANCH => pc_after != pc.wrapping_add(((e >> 24) & 7) as u16),
            KIND_RETURN => sp_after != sp_before,
            _ => pc_after == pc,
        };
        if held {
            (e >> 16) as u8
        } else {
            (e >> 8) as u8
        }
    }

    /// For a conditional jump, call or return at `pc` that has just executed (arguments as
    /// for [`TimingCache::t_states`]): whether its condition held. `None` for any other
    /// instruction (the repeating block instructions included: they loop, not branch).
    #[inline]
    pub(crate) fn condition_held(
        &mut self,
        mem: &[u8],
        pc: u16,
        pc_after: u16,
        sp_before: u16,
        sp_after: u16,
    ) -> Option<bool> {
        let e = self.entry(mem, pc);
        match (e >> 27) & 3 {
            KIND_BRANCH => Some(pc_after != pc.wrapping_add(((e >> 24) & 7) as u16)),
            KIND_RETURN => Some(sp_after != sp_before),
            _ => None,
        }
    }

    /// The packed word of the instruction at `pc`, decoded now if it is new or its code
    /// changed.
    #[inline(always)]
    fn entry(&mut self, mem: &[u8], pc: u16) -> u32 {
        let e = self.table[pc as usize];
        if e & DECODED == 0 || e as u8 != mem[pc as usize] {
            return self.insert(mem, pc);
        }
        e
    }

    #[cold]
    fn insert(&mut self, mem: &[u8], pc: u16) -> u32 {
        let ins = decode(mem, pc);
        let kind = match ins.flow {
            Flow::CondJump(_) | Flow::CondCall(_) => KIND_BRANCH,
            Flow::CondReturn => KIND_RETURN,
            Flow::Repeat => KIND_REPEAT,
            _ => KIND_FIXED,
        };
        let (t, tt) = match ins.timing {
            Timing::Fixed(t) => (t, t),
            Timing::Cond { not_taken, taken } => (not_taken, taken),
        };
        let e = DECODED
            | (kind << 27)
            | (u32::from(ins.len() as u8 & 7) << 24)
            | (u32::from(tt) << 16)
            | (u32::from(t) << 8)
            | u32::from(mem[pc as usize]);
        self.table[pc as usize] = e;
        e
    }
}
