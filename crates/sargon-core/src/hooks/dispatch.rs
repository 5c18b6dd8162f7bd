//! Hooks and how engines run them: the [`Hook`] trait, [`FnHook`] for a closure, and
//! [`Hooks`], the list an engine fires at its points.

use super::event::HookEvent;
use super::points::{HookMask, HookPoint, Registers};
use super::views::Fired;
use crate::memory::SargonMemory;

/// Something that wants to run at hook points: a trace recorder, a score injector, ...
pub trait Hook {
    /// The points this hook wants; the engine arms only these. Asked once, when the hook is
    /// added to [`Hooks`].
    ///
    /// ```
    /// use sargon_core::{Hook, HookEvent, HookMask, HookPoint};
    ///
    /// /// Counts the leaves a search scores.
    /// struct Leaves(usize);
    /// impl Hook for Leaves {
    ///     fn points(&self) -> HookMask {
    ///         HookMask::of(&[HookPoint::PointsEnd])
    ///     }
    ///     fn at(&mut self, _: &mut HookEvent<'_>) {
    ///         self.0 += 1;
    ///     }
    /// }
    /// assert_eq!(Leaves(0).points(), HookMask::of(&[HookPoint::PointsEnd]));
    /// ```
    fn points(&self) -> HookMask;
    /// Called at each armed point; may change what the point's view lets it change.
    ///
    /// ```
    /// use sargon_core::{setup, Book, Engine, Hook, HookEvent, HookMask, HookPoint, Hooks, SearchOptions, Score};
    ///
    /// /// Sees every position scored level.
    /// struct Level;
    /// impl Hook for Level {
    ///     fn points(&self) -> HookMask {
    ///         HookMask::of(&[HookPoint::PointsEnd])
    ///     }
    ///     fn at(&mut self, event: &mut HookEvent<'_>) {
    ///         if let HookEvent::PointsEnd(v) = event {
    ///             v.set_score(Score(0x80));
    ///         }
    ///     }
    /// }
    /// let mut level = Level;
    /// let mut hooks = Hooks::new();
    /// hooks.add(&mut level);
    /// let start = setup(&shakmaty::Chess::default(), Book::Off)?;
    /// let found = sargon_port::Port::new().search(&start, &SearchOptions::depth(2), &mut hooks)?;
    /// assert_eq!(found.root_score, Score(0x80));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn at(&mut self, event: &mut HookEvent<'_>);
}

/// A hook from a closure, for one-off uses and tests.
pub struct FnHook<F: FnMut(&mut HookEvent<'_>)> {
    mask: HookMask,
    f: F,
}

impl<F: FnMut(&mut HookEvent<'_>)> FnHook<F> {
    /// A hook calling `f` at `points`.
    ///
    /// ```
    /// use sargon_core::{setup, Book, Engine, FnHook, HookPoint, Hooks, SearchOptions};
    ///
    /// let mut ascents = 0;
    /// let mut count = FnHook::new(&[HookPoint::Ascend], |_| ascents += 1);
    /// let mut hooks = Hooks::new();
    /// hooks.add(&mut count);
    /// let start = setup(&shakmaty::Chess::default(), Book::Off)?;
    /// sargon_port::Port::new().search(&start, &SearchOptions::depth(2), &mut hooks)?;
    /// drop(hooks);
    /// drop(count);
    /// assert!(ascents > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(points: &[HookPoint], f: F) -> Self {
        FnHook {
            mask: HookMask::of(points),
            f,
        }
    }
}

impl<F: FnMut(&mut HookEvent<'_>)> Hook for FnHook<F> {
    fn points(&self) -> HookMask {
        self.mask
    }
    fn at(&mut self, event: &mut HookEvent<'_>) {
        (self.f)(event)
    }
}

/// The hooks attached to one search, run in the order they were added.
#[derive(Default)]
pub struct Hooks<'a> {
    /// Each hook with the points it wants, asked once when it was added (as the union in
    /// `mask` is), not at every point the engine fires.
    list: Vec<(HookMask, &'a mut dyn Hook)>,
    mask: HookMask,
}

impl<'a> Hooks<'a> {
    /// No hooks.
    ///
    /// ```
    /// use sargon_core::{HookMask, Hooks};
    /// let hooks = Hooks::new();
    /// assert!(hooks.is_empty());
    /// assert_eq!(hooks.mask(), HookMask::default());
    /// ```
    pub fn new() -> Self {
        Hooks::default()
    }

    /// Add a hook, run after those already added.
    ///
    /// ```
    /// use sargon_core::{FnHook, HookPoint, Hooks};
    /// let mut first = FnHook::new(&[HookPoint::PointsEnd], |_| {});
    /// let mut second = FnHook::new(&[HookPoint::Ascend], |_| {});
    /// let mut hooks = Hooks::new();
    /// hooks.add(&mut first).add(&mut second);
    /// assert!(!hooks.is_empty());
    /// assert!(hooks.mask().contains(HookPoint::PointsEnd) && hooks.mask().contains(HookPoint::Ascend));
    /// ```
    pub fn add(&mut self, hook: &'a mut dyn Hook) -> &mut Self {
        let points = hook.points();
        self.mask = HookMask(self.mask.0 | points.0);
        self.list.push((points, hook));
        self
    }

    /// The union of the points every hook wants.
    ///
    /// ```
    /// use sargon_core::{FnHook, HookMask, HookPoint, Hooks};
    /// let mut hook = FnHook::new(&[HookPoint::AlphaBeta, HookPoint::BestTest], |_| {});
    /// let mut hooks = Hooks::new();
    /// hooks.add(&mut hook);
    /// assert_eq!(hooks.mask(), HookMask::of(&[HookPoint::AlphaBeta, HookPoint::BestTest]));
    /// ```
    pub fn mask(&self) -> HookMask {
        self.mask
    }

    /// Whether no hook was added.
    ///
    /// ```
    /// use sargon_core::{FnHook, HookPoint, Hooks};
    /// let mut hook = FnHook::new(&[HookPoint::Ascend], |_| {});
    /// let mut hooks = Hooks::new();
    /// assert!(hooks.is_empty());
    /// hooks.add(&mut hook);
    /// assert!(!hooks.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Run every hook that wants `point`, showing it the engine's `memory` and `registers`;
    /// returns the registers as the hooks left them. Engines call this only when
    /// [`Hooks::mask`] contains the point.
    ///
    /// ```
    /// use sargon_core::hooks::{FnHook, HookEvent, HookPoint, Hooks, Registers};
    /// use sargon_core::Score;
    /// # mod toy { use sargon_core::hooks::{Pointer, SargonMemory, Table, Var}; pub struct Toy;
    /// # impl SargonMemory for Toy {
    /// #     fn var(&self, _: Var) -> u8 { 1 }
    /// #     fn pointer(&self, _: Pointer) -> u16 { 0x100 }
    /// #     fn table(&self, _: Table) -> u16 { 0x200 }
    /// #     // MLPTRI (0x100) links to one move, e2-e4 at 0x110, whose link ends the list.
    /// #     fn peek(&self, addr: u16) -> u8 { match addr { 0x100 => 0x10, 0x101 => 0x01, 0x112 => 35, 0x113 => 55, _ => 0 } }
    /// # } } use toy::Toy;
    /// // `Toy`: an engine's memory. A hook raises the score `alphabeta` compares.
    /// let mut hook = FnHook::new(&[HookPoint::AlphaBeta], |e| {
    ///     if let HookEvent::AlphaBeta(v) = e { v.set_score(Score(v.score().0 + 1)) }
    /// });
    /// let mut hooks = Hooks::new();
    /// hooks.add(&mut hook);
    /// let regs = hooks.fire(HookPoint::AlphaBeta, &Toy, Registers { a: 0x40, b: 7 });
    /// assert_eq!(regs, Registers { a: 0x41, b: 7 });
    /// ```
    #[inline]
    pub fn fire(
        &mut self,
        point: HookPoint,
        memory: &dyn SargonMemory,
        registers: Registers,
    ) -> Registers {
        let mut event = HookEvent::new(point, memory, registers);
        self.run(point, &mut event);
        event.registers(registers)
    }

    /// [`Hooks::fire`], with the move-list links the hooks asked for, which the engine
    /// writes (in order) before it goes on.
    ///
    /// ```
    /// use sargon_core::hooks::{FnHook, HookEvent, HookPoint, Hooks, LinkWrite, Registers};
    /// # mod toy { use sargon_core::hooks::{Pointer, SargonMemory, Table, Var}; pub struct Toy;
    /// # impl SargonMemory for Toy {
    /// #     fn var(&self, _: Var) -> u8 { 1 }
    /// #     fn pointer(&self, _: Pointer) -> u16 { 0x100 }
    /// #     fn table(&self, _: Table) -> u16 { 0x200 }
    /// #     // MLPTRI (0x100) links to one move, e2-e4 at 0x110, whose link ends the list.
    /// #     fn peek(&self, addr: u16) -> u8 { match addr { 0x100 => 0x10, 0x101 => 0x01, 0x112 => 35, 0x113 => 55, _ => 0 } }
    /// # } } use toy::Toy;
    /// // `Toy`: an engine's memory with one move in the list, e2-e4. A hook takes it out.
    /// let mut hook = FnHook::new(&[HookPoint::MovegenDone], |e| {
    ///     if let HookEvent::MovegenDone(v) = e { v.keep_out(|m| m.uci() == "e2e4"); }
    /// });
    /// let mut hooks = Hooks::new();
    /// hooks.add(&mut hook);
    /// let fired = hooks.fire_all(HookPoint::MovegenDone, &Toy, Registers::default());
    /// // MLPTRI's link now skips the move: the list is empty.
    /// assert_eq!(fired.link_writes, [LinkWrite { at: 0x100, value: 0 }]);
    /// ```
    #[inline]
    pub fn fire_all(
        &mut self,
        point: HookPoint,
        memory: &dyn SargonMemory,
        registers: Registers,
    ) -> Fired {
        let mut event = HookEvent::new(point, memory, registers);
        self.run(point, &mut event);
        let link_writes = match &mut event {
            HookEvent::MovegenDone(v) => std::mem::take(&mut v.link_writes),
            _ => Vec::new(),
        };
        Fired {
            registers: event.registers(registers),
            link_writes,
        }
    }

    /// Show `event` to every hook that wants `point`, in order.
    fn run(&mut self, point: HookPoint, event: &mut HookEvent<'_>) {
        for (points, h) in self.list.iter_mut() {
            if points.contains(point) {
                h.at(event);
            }
        }
    }
}
