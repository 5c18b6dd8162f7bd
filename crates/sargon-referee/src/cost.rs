//! What a search cost: the CPU time of the thread that ran it ([`cpu_timed`]) and, for the
//! emulator, the Z80 instructions (`EngineCost`). The differential runner and the cache
//! of the original's traces both measure it, so it is neither's.

use std::time::Duration;

use sargon_core::engine::{SearchError, SearchOutcome};

/// What one engine's side of a comparison cost.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct EngineCost {
    /// CPU time of the engine's thread during the search, including recording its trace
    /// (and, for the second engine, comparing it); `None` where the platform has no
    /// per-thread clock.
    pub cpu: Option<Duration>,
    /// Z80 instructions executed (emulator only; `None` also when a divergence stopped the
    /// search before it finished).
    pub z80_instructions: Option<u64>,
    /// The trace was read from the cache of the original's traces, not searched.
    pub cached: bool,
}

impl EngineCost {
    pub(crate) fn of(
        cpu: Option<Duration>,
        result: &Result<SearchOutcome, SearchError>,
    ) -> EngineCost {
        EngineCost {
            cpu,
            z80_instructions: result.as_ref().ok().and_then(|o| o.stats.z80_instructions),
            cached: false,
        }
    }
}

/// CPU time used so far by the calling thread.
#[cfg(unix)]
pub(crate) fn thread_cpu_time() -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; clock_gettime only writes into it.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

/// CPU time used so far by the calling thread (not measured on this platform).
#[cfg(not(unix))]
pub(crate) fn thread_cpu_time() -> Option<Duration> {
    None
}

/// The CPU time the calling thread spends in `work`.
///
/// ```
/// use sargon_referee::cost::cpu_timed;
/// // Sleeping takes time but no CPU; counting does.
/// let ((), asleep) = cpu_timed(|| std::thread::sleep(std::time::Duration::from_millis(50)));
/// let (sum, busy) = cpu_timed(|| (0..20_000_000u64).map(std::hint::black_box).sum::<u64>());
/// assert_eq!(sum, 19_999_999 * 10_000_000);
/// # #[cfg(unix)]
/// assert!(asleep.unwrap() < busy.unwrap());
/// ```
pub fn cpu_timed<T>(work: impl FnOnce() -> T) -> (T, Option<Duration>) {
    let before = thread_cpu_time();
    let value = work();
    let spent = match (before, thread_cpu_time()) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a)),
        _ => None,
    };
    (value, spent)
}
