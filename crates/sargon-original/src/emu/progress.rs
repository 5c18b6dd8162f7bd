//! Telling a runaway image by its progress, not by the depth's whole budget.
//!
//! Every search of the known Sargon passes the hook points (`docs/hooks.md`: a path of
//! the move generator, a score, an alpha-beta test, an ascent...) again and again; the
//! longest stretch without one, over the golden corpus at every depth it holds, was 97,440
//! Z80 instructions (measured by `tests/it/golden.rs`, documented in `docs/emulator.md`). An image that loops where the program never loops reaches none.
//! So a call that goes [`STALL_LIMIT`] instructions without reaching a hook point (or
//! returning) is stopped with [`SearchError::Runaway`]: within seconds at every depth,
//! where the depth's budget ([`sargon_core::engine::instruction_budget`], still the
//! backstop for a loop that does pass hook points) would take minutes at depth 3 and
//! hours at depth 6.
//!
//! Every hook point counts, armed or not: the run loop marks the unarmed ones in its hook
//! table as passed-only ([`PASSED`]), so that the check does not depend on which hooks a
//! command arms, and costs nothing but the one table lookup the loop already makes.

use sargon_core::engine::SearchError;

/// Z80 instructions a call may run without reaching any hook point: far above the longest
/// stretch any search of the golden corpus goes without one (`docs/emulator.md` has the
/// measurement), and reached within seconds even in a debug build.
pub const STALL_LIMIT: u64 = 20_000_000;

/// Hook-table flag: a hook point no hook is armed at. Reaching it is progress; nothing
/// fires.
pub(super) const PASSED: u8 = 0x40;

/// Where a call stands: when it last reached a hook point (or started), and the longest
/// stretch so far without one.
#[derive(Clone, Copy, Debug)]
pub(super) struct Progress {
    /// The instruction count at the last hook point reached, or at the call's start.
    last: u64,
    /// The longest stretch without a hook point in this search so far.
    pub(super) longest: u64,
}

impl Progress {
    /// A call starting at instruction `n`, after stretches of at most `longest`.
    pub(super) fn start(n: u64, longest: u64) -> Progress {
        Progress { last: n, longest }
    }

    /// A hook point is reached at instruction `n` (the call's end counts too).
    #[inline(always)]
    pub(super) fn reached(&mut self, n: u64) {
        self.longest = self.longest.max(n - self.last);
        self.last = n;
    }

    /// The instruction count at which the call has run away if no hook point comes first.
    #[inline(always)]
    pub(super) fn deadline(&self) -> u64 {
        self.last.saturating_add(STALL_LIMIT)
    }

    /// Has the call gone [`STALL_LIMIT`] instructions without a hook point, at `n`?
    pub(super) fn stalled(&self, n: u64) -> bool {
        n >= self.deadline()
    }
}

/// Why a call was given up: its whole budget spent, or no progress.
pub(super) enum GaveUp {
    /// The budget of the search ran out.
    Budget,
    /// [`STALL_LIMIT`] instructions without a hook point.
    Stalled,
}

/// The runaway error of `routine`, given up after `instructions` at `pc` (named `at`).
pub(super) fn runaway(
    routine: &str,
    instructions: u64,
    pc: u16,
    at: String,
    why: GaveUp,
) -> SearchError {
    SearchError::Runaway {
        routine: routine.to_string(),
        instructions,
        why: match why {
            GaveUp::Budget => "the budget of this search".to_string(),
            GaveUp::Stalled => format!(
                "the last {STALL_LIMIT} of them without reaching any hook point, which a \
                 search of the known image never goes far without"
            ),
        },
        pc,
        at,
    }
}
