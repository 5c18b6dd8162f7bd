//! Where the original scores a position, the one place where the port may take another way
//! than the original's steps.
//!
//! Sargon scores a position by calling PINFND, then POINTS, at three places: FNDMOV's root
//! (before FM5), FNDMOV's leaves (FM35) and EVAL (EV5, for SORTM). Those two routines are
//! most of the search's time, and what they leave behind is a function of a few inputs, so
//! the port can work it out faster than by the original's steps (see
//! [`crate::shortcuts`]). The faithful routines call a [`Scorer`] there and know
//! nothing else of how the work is done; each implementation must leave the machine exactly
//! as the original's steps would, byte for byte:
//!
//! * [`OriginalSteps`]: PINFND, then POINTS, as the original runs them.
//! * [`Shortcuts`](crate::shortcuts::Shortcuts): POINTS's memo and the evaluation
//!   cache (the default: more than twice as fast).
//! * [`Verified`](crate::shortcuts::Verified): both, comparing the machines after
//!   every scoring (for tests).

use super::faithful::state::Machine;
use sargon_core::hooks::Hooks;

/// PINFND followed by POINTS, the way the search scores a position.
pub(crate) trait Scorer {
    /// Do what PINFND and then POINTS do to the machine (pin list, attack list, the
    /// variables they set, VALM and the value byte of the move at MLPTRJ), firing the
    /// `points.end` hook once as POINTS does.
    fn pinfnd_points(&mut self, m: &mut Machine, hooks: &mut Hooks<'_>);

    /// A search starts on a machine just reset: forget what was kept from earlier ones.
    fn new_search(&mut self) {}
}

/// The original's steps: PINFND, then POINTS.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct OriginalSteps;

impl Scorer for OriginalSteps {
    #[inline]
    fn pinfnd_points(&mut self, m: &mut Machine, hooks: &mut Hooks<'_>) {
        m.pinfnd();
        m.points(hooks);
    }
}
