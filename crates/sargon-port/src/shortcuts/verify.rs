//! The shortcuts checked against the original's steps, for tests.

use super::Shortcuts;
use crate::faithful::state::Machine;
use crate::scorer::Scorer;
use sargon_core::hooks::Hooks;

/// The [`Scorer`] that scores each position twice, with the shortcuts and, on a copy of
/// the machine, by the original's steps, and panics at the first byte or variable in which
/// the two machines differ. The score made of POINTS's sums (and its `points.end` hook)
/// runs once, after the comparison, so hooks see each scoring once.
#[derive(Default)]
pub(crate) struct Verified {
    shortcuts: Shortcuts,
}

impl Verified {
    /// A verifying scorer with empty caches.
    pub(crate) fn new() -> Verified {
        Verified::default()
    }

    /// The shortcuts being checked.
    #[cfg(test)]
    pub(crate) fn shortcuts(&self) -> &Shortcuts {
        &self.shortcuts
    }
}

impl Scorer for Verified {
    fn pinfnd_points(&mut self, m: &mut Machine, hooks: &mut Hooks<'_>) {
        let mut original = m.clone();
        original.pinfnd();
        original.points_squares();
        self.shortcuts.pinfnd_points_squares(m);
        let diff = m.differences(&original);
        if let Some(first) = diff.first() {
            panic!(
                "PINFND + POINTS with the shortcuts differ from the original's steps \
                 (shortcuts vs original) at {first} ({} differences in all)",
                diff.len()
            );
        }
        m.points_total(hooks);
    }

    fn new_search(&mut self) {
        self.shortcuts.new_search();
    }
}
