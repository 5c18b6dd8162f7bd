//! Hook points: named places in Sargon's search where Rust code can watch and steer it.
//!
//! The same points exist in both engines. In the emulator a hook point is an address of the
//! imported program (a symbol plus a documented offset, see `docs/hooks.md`) and fires just
//! before the instruction there executes; in the native port it is the corresponding line
//! of the ported routine. A hook sees the engine through [`SearchState`], which gives the
//! same meaning to "the value in A" or "the move path" whichever engine runs, so hooks
//! (the trace recorder, the models' score injection, a debugger) never care which engine
//! they are attached to.

use crate::base::vocab::{SMove, Score};

/// A named place in Sargon's search. See `docs/hooks.md` for each one's contract.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum HookPoint {
    /// In MPIECE right after `CALL PATH`: A = PATH's verdict for the square (0 empty,
    /// 1 enemy piece, 2 own piece, 3 off the board), B = directions still to try,
    /// T1 = the moving piece's type. Forcing A=2 and B=1 ends the piece's move generation.
    MovegenPath,
    /// In FNDMOV right after `CALL GENMOV`: the move list of ply NPLY is complete.
    MovegenDone,
    /// At the end of POINTS, before the score in A is stored: observe or replace the score.
    PointsEnd,
    /// At FM37, before the score in A is compared with the score two plies above.
    AlphaBeta,
    /// After the negated score in A has been compared with the score one ply above.
    BestTest,
    /// After a new best score (A) has been stored one ply above.
    BestConfirmed,
    /// On entry to ASCEND: the search goes back up one ply.
    Ascend,
    /// In BOOK right after `LD A,R`: A holds the "random" byte whose bit 0 picks 1.e4 or 1.d4.
    BookRandom,
}

impl HookPoint {
    pub const ALL: [HookPoint; 8] = [
        HookPoint::MovegenPath,
        HookPoint::MovegenDone,
        HookPoint::PointsEnd,
        HookPoint::AlphaBeta,
        HookPoint::BestTest,
        HookPoint::BestConfirmed,
        HookPoint::Ascend,
        HookPoint::BookRandom,
    ];

    /// The stable, dotted name used in docs and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            HookPoint::MovegenPath => "movegen.path",
            HookPoint::MovegenDone => "movegen.done",
            HookPoint::PointsEnd => "points.end",
            HookPoint::AlphaBeta => "search.alpha_beta",
            HookPoint::BestTest => "search.best_test",
            HookPoint::BestConfirmed => "search.best_confirmed",
            HookPoint::Ascend => "search.ascend",
            HookPoint::BookRandom => "book.random",
        }
    }

    pub fn from_name(name: &str) -> Option<HookPoint> {
        HookPoint::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Bit of this point in a [`HookMask`].
    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of hook points, one bit each.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct HookMask(pub u8);

impl HookMask {
    pub fn contains(self, p: HookPoint) -> bool {
        self.0 & p.bit() != 0
    }
    pub fn with(self, p: HookPoint) -> HookMask {
        HookMask(self.0 | p.bit())
    }
    pub fn of(points: &[HookPoint]) -> HookMask {
        points.iter().fold(HookMask(0), |m, &p| m.with(p))
    }
}

/// The engine's state as a hook sees it. Both engines implement it with the same meaning.
pub trait SearchState {
    /// Which point fired.
    fn point(&self) -> HookPoint;
    /// NPLY: the current ply (0 while the root is evaluated, 1 for the root's moves).
    fn ply(&self) -> u8;
    /// PLYMAX: the nominal search depth.
    fn max_ply(&self) -> u8;
    /// COLOR: the side to move at this ply (0 White, 0x80 Black).
    fn color(&self) -> u8;
    /// The accumulator: PATH's verdict, a score, a negated score or the book's random byte,
    /// depending on the point (see [`HookPoint`]).
    fn a(&self) -> u8;
    fn set_a(&mut self, value: u8);
    /// Register B at `movegen.path`: directions still to try for the moving piece.
    fn b(&self) -> u8;
    fn set_b(&mut self, value: u8);
    /// T1 at `movegen.path`: the type (1-6) of the piece whose moves are being generated.
    fn piece_type(&self) -> u8;
    /// M1 and M2 at `movegen.path`: the square the piece moves from and the square tried.
    fn path_squares(&self) -> (u8, u8);
    /// At the `search.*` points: the score-table byte A is compared with (two plies above
    /// at `search.alpha_beta`, one ply above at `search.best_test`/`best_confirmed`).
    fn compared_with(&self) -> Score;
    /// The moves from the root to the node concerned: the current move of plies
    /// 1..NPLY-1 from the ply table, then MLPTRJ's move (the move just made, evaluated or
    /// decided). Empty at the root.
    fn path(&self) -> Vec<SMove>;
    /// At `movegen.done`: the new ply's move list in list order (castling and en passant
    /// counted once).
    fn move_list(&self) -> Vec<SMove>;
    /// Sargon's 120-byte board.
    fn board(&self) -> [u8; crate::base::vocab::BOARD_SIZE];
}

/// Something that wants to run at hook points: a trace recorder, a score injector, ...
pub trait Hook {
    /// The points this hook wants; the engine arms only these.
    fn points(&self) -> HookMask;
    /// Called at each armed point; may change the state through `state`.
    fn at(&mut self, state: &mut dyn SearchState);
}

/// A hook from a closure, for one-off uses and tests.
pub struct FnHook<F: FnMut(&mut dyn SearchState)> {
    mask: HookMask,
    f: F,
}

impl<F: FnMut(&mut dyn SearchState)> FnHook<F> {
    pub fn new(points: &[HookPoint], f: F) -> Self {
        FnHook {
            mask: HookMask::of(points),
            f,
        }
    }
}

impl<F: FnMut(&mut dyn SearchState)> Hook for FnHook<F> {
    fn points(&self) -> HookMask {
        self.mask
    }
    fn at(&mut self, state: &mut dyn SearchState) {
        (self.f)(state)
    }
}

/// The hooks attached to one search, run in the order they were added.
#[derive(Default)]
pub struct Hooks<'a> {
    list: Vec<&'a mut dyn Hook>,
    mask: HookMask,
}

impl<'a> Hooks<'a> {
    pub fn new() -> Self {
        Hooks::default()
    }

    pub fn add(&mut self, hook: &'a mut dyn Hook) -> &mut Self {
        self.mask = HookMask(self.mask.0 | hook.points().0);
        self.list.push(hook);
        self
    }

    /// The union of the points every hook wants.
    pub fn mask(&self) -> HookMask {
        self.mask
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Run every hook that wants the state's point.
    pub fn fire(&mut self, state: &mut dyn SearchState) {
        let p = state.point();
        for h in self.list.iter_mut() {
            if h.points().contains(p) {
                h.at(state);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for p in HookPoint::ALL {
            assert_eq!(HookPoint::from_name(p.name()), Some(p));
        }
        assert_eq!(HookPoint::from_name("nope"), None);
    }

    #[test]
    fn mask_collects_points() {
        let mut a = FnHook::new(&[HookPoint::PointsEnd], |_| {});
        let mut b = FnHook::new(&[HookPoint::Ascend, HookPoint::AlphaBeta], |_| {});
        let mut hooks = Hooks::new();
        hooks.add(&mut a).add(&mut b);
        let m = hooks.mask();
        assert!(m.contains(HookPoint::PointsEnd));
        assert!(m.contains(HookPoint::Ascend));
        assert!(!m.contains(HookPoint::MovegenPath));
    }
}
