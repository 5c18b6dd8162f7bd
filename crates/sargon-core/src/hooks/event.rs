//! [`HookEvent`]: what a hook is handed at a point, one variant per point.

use super::points::{HookPoint, Registers};
use super::search::{PathVerdict, Search};
use super::views::*;
use crate::memory::SargonMemory;
use crate::vocab::Score;

/// What a hook sees when a point fires: one view per point.
pub enum HookEvent<'a> {
    /// At `movegen.path`.
    MovegenPath(MovegenPath<'a>),
    /// At `movegen.done`.
    MovegenDone(MovegenDone<'a>),
    /// At `points.end`.
    PointsEnd(PointsEnd<'a>),
    /// At `alphabeta`.
    AlphaBeta(AlphaBeta<'a>),
    /// At `best.test`.
    BestTest(BestTest<'a>),
    /// At `best.confirmed`.
    BestConfirmed(BestConfirmed<'a>),
    /// At `ascend`.
    Ascend(Ascend<'a>),
    /// At `book.random`.
    BookRandom(BookRandom<'a>),
}

impl<'a> HookEvent<'a> {
    /// The view of `point` over an engine's memory and registers.
    #[inline]
    pub(super) fn new(
        point: HookPoint,
        mem: &'a dyn SargonMemory,
        regs: Registers,
    ) -> HookEvent<'a> {
        let search = Search { point, mem };
        match point {
            HookPoint::MovegenPath => HookEvent::MovegenPath(MovegenPath {
                search,
                verdict: PathVerdict::from_register(regs.a),
                directions_left: regs.b,
            }),
            HookPoint::MovegenDone => HookEvent::MovegenDone(MovegenDone {
                search,
                link_writes: Vec::new(),
            }),
            HookPoint::PointsEnd => HookEvent::PointsEnd(PointsEnd {
                search,
                score: Score(regs.a),
            }),
            HookPoint::AlphaBeta => HookEvent::AlphaBeta(AlphaBeta {
                search,
                score: Score(regs.a),
            }),
            HookPoint::BestTest => {
                let mut view = BestTest {
                    search,
                    negated: Score(regs.a),
                    accepted: false,
                };
                view.accepted = view.negated > view.one_ply_up();
                HookEvent::BestTest(view)
            }
            HookPoint::BestConfirmed => HookEvent::BestConfirmed(BestConfirmed {
                search,
                score: Score(regs.a),
            }),
            HookPoint::Ascend => HookEvent::Ascend(Ascend { search }),
            HookPoint::BookRandom => HookEvent::BookRandom(BookRandom {
                search,
                byte: regs.a,
            }),
        }
    }

    /// The registers the engine continues with: `regs` with the views' settable values.
    #[inline]
    pub(super) fn registers(&self, regs: Registers) -> Registers {
        match self {
            HookEvent::MovegenPath(v) => Registers {
                a: v.verdict as u8,
                b: v.directions_left,
            },
            HookEvent::PointsEnd(v) => Registers {
                a: v.score.0,
                ..regs
            },
            HookEvent::AlphaBeta(v) => Registers {
                a: v.score.0,
                ..regs
            },
            HookEvent::BestTest(v) => Registers {
                a: v.negated.0,
                ..regs
            },
            HookEvent::BookRandom(v) => Registers { a: v.byte, ..regs },
            HookEvent::MovegenDone(_) | HookEvent::BestConfirmed(_) | HookEvent::Ascend(_) => regs,
        }
    }

    /// What every point shows.
    ///
    /// ```
    /// use sargon_core::{setup, Book, Engine, FnHook, HookPoint, Hooks, SearchOptions};
    ///
    /// let mut deepest = 0;
    /// let mut hook = FnHook::new(&[HookPoint::PointsEnd], |event| {
    ///     deepest = deepest.max(event.search().ply());
    /// });
    /// let mut hooks = Hooks::new();
    /// hooks.add(&mut hook);
    /// let start = setup(&shakmaty::Chess::default(), Book::Off)?;
    /// sargon_port::Port::new().search(&start, &SearchOptions::depth(2), &mut hooks)?;
    /// drop(hooks);
    /// drop(hook);
    /// assert_eq!(deepest, 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn search(&self) -> &Search<'a> {
        match self {
            HookEvent::MovegenPath(v) => &v.search,
            HookEvent::MovegenDone(v) => &v.search,
            HookEvent::PointsEnd(v) => &v.search,
            HookEvent::AlphaBeta(v) => &v.search,
            HookEvent::BestTest(v) => &v.search,
            HookEvent::BestConfirmed(v) => &v.search,
            HookEvent::Ascend(v) => &v.search,
            HookEvent::BookRandom(v) => &v.search,
        }
    }

    /// The point that fired.
    ///
    /// ```
    /// use sargon_core::{setup, Book, Engine, FnHook, HookPoint, Hooks, SearchOptions};
    ///
    /// let mut points = Vec::new();
    /// let mut hook = FnHook::new(&[HookPoint::MovegenDone, HookPoint::Ascend], |event| {
    ///     points.push(event.point());
    /// });
    /// let mut hooks = Hooks::new();
    /// hooks.add(&mut hook);
    /// let start = setup(&shakmaty::Chess::default(), Book::Off)?;
    /// sargon_port::Port::new().search(&start, &SearchOptions::depth(1), &mut hooks)?;
    /// drop(hooks);
    /// drop(hook);
    /// assert_eq!(points.first(), Some(&HookPoint::MovegenDone));
    /// assert!(points.iter().all(|p| matches!(p, HookPoint::MovegenDone | HookPoint::Ascend)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn point(&self) -> HookPoint {
        self.search().point
    }
}
