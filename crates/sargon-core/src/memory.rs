//! Sargon's data as an engine holds it ([`SargonMemory`]): the one interface an engine
//! implements for its hooks ([`crate::hooks`]) and for the whole-state comparison
//! ([`crate::state`]).
//!
//! It is a module of its own so that both can use it without using each other; its names
//! are public as `sargon_core::hooks::{SargonMemory, Var, Pointer, Table}` and
//! `sargon_core::state::Area`.

/// Sargon's one-byte variables the views read.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Var {
    /// NPLY: the current ply.
    Nply,
    /// PLYMAX: the nominal search depth.
    Plymax,
    /// COLOR: the side to move at this ply (0 or 0x80).
    Color,
    /// P1: the board byte of the piece whose moves MPIECE generates.
    P1,
    /// T1: that piece's row in the direction tables (its type, 0 for a black pawn).
    T1,
    /// M1: the square that piece stands on (the low byte of the original's index word).
    M1,
    /// M2: the square PATH has just looked at.
    M2,
}

/// Sargon's pointer variables the views read.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Pointer {
    /// MLPTRI: the ply table slot of the current ply (the head link of its move list).
    Mlptri,
    /// MLPTRJ: the move entry just made, scored or decided on.
    Mlptrj,
    /// SCRIX: the score table byte two plies above the current ply; the byte after it is
    /// the best score one ply above.
    Scrix,
}

/// Where Sargon's tables start.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Table {
    /// BOARDA: the 120-byte board.
    Board,
    /// PLYIX: the ply table, a (list head, current move) pair of words per ply.
    PlyIndex,
}

/// Sargon's data as an engine holds it: where the variables and tables are, and the bytes.
///
/// This is all an engine implements for its hooks; every view is built on it, so both
/// engines show a hook the same thing. Addresses are the engine's own (the emulator's are
/// the imported program's, the port's are its layout's); the views only follow pointers
/// found in memory and offsets the two layouts share.
pub trait SargonMemory {
    /// A one-byte variable.
    ///
    /// ```
    /// use sargon_core::hooks::{FnHook, HookPoint, Hooks, Registers, SargonMemory, Var};
    /// # mod toy { use sargon_core::hooks::{Pointer, SargonMemory, Table, Var}; pub struct Toy;
    /// # impl SargonMemory for Toy {
    /// #     fn var(&self, v: Var) -> u8 { if v == Var::Nply { 2 } else { 0 } }
    /// #     fn pointer(&self, _: Pointer) -> u16 { 0x100 }
    /// #     fn table(&self, _: Table) -> u16 { 0x200 }
    /// #     fn peek(&self, addr: u16) -> u8 { (addr % 7) as u8 }
    /// # } } use toy::Toy;
    /// // `Toy`: an engine's memory whose NPLY is 2. The views read the variables through it.
    /// let mut ply = 0;
    /// let mut hook = FnHook::new(&[HookPoint::Ascend], |e| ply = e.search().ply());
    /// Hooks::new().add(&mut hook).fire(HookPoint::Ascend, &Toy, Registers::default());
    /// drop(hook);
    /// assert_eq!((Toy.var(Var::Nply), ply), (2, 2));
    /// ```
    fn var(&self, var: Var) -> u8;
    /// A pointer variable's value.
    ///
    /// ```
    /// use sargon_core::hooks::{FnHook, HookEvent, HookPoint, Hooks, Pointer, Registers, SargonMemory};
    /// use sargon_core::Score;
    /// # mod toy { use sargon_core::hooks::{Pointer, SargonMemory, Table, Var}; pub struct Toy;
    /// # impl SargonMemory for Toy {
    /// #     fn var(&self, v: Var) -> u8 { if v == Var::Nply { 2 } else { 0 } }
    /// #     fn pointer(&self, _: Pointer) -> u16 { 0x100 }
    /// #     fn table(&self, _: Table) -> u16 { 0x200 }
    /// #     fn peek(&self, addr: u16) -> u8 { (addr % 7) as u8 }
    /// # } } use toy::Toy;
    /// // `Toy`: an engine's memory. The bound `alphabeta` compares with is the byte at SCRIX.
    /// let mut bound = Score(0);
    /// let mut hook = FnHook::new(&[HookPoint::AlphaBeta], |e| {
    ///     if let HookEvent::AlphaBeta(v) = e { bound = v.two_plies_up() }
    /// });
    /// Hooks::new().add(&mut hook).fire(HookPoint::AlphaBeta, &Toy, Registers::default());
    /// drop(hook);
    /// assert_eq!(bound, Score(Toy.peek(Toy.pointer(Pointer::Scrix))));
    /// ```
    fn pointer(&self, pointer: Pointer) -> u16;
    /// The address where a table starts.
    ///
    /// ```
    /// use sargon_core::hooks::{FnHook, HookPoint, Hooks, Registers, SargonMemory, Table};
    /// # mod toy { use sargon_core::hooks::{Pointer, SargonMemory, Table, Var}; pub struct Toy;
    /// # impl SargonMemory for Toy {
    /// #     fn var(&self, v: Var) -> u8 { if v == Var::Nply { 2 } else { 0 } }
    /// #     fn pointer(&self, _: Pointer) -> u16 { 0x100 }
    /// #     fn table(&self, _: Table) -> u16 { 0x200 }
    /// #     fn peek(&self, addr: u16) -> u8 { (addr % 7) as u8 }
    /// # } } use toy::Toy;
    /// // `Toy`: an engine's memory. The board a hook sees is read from BOARDA on.
    /// let mut first = None;
    /// let mut hook = FnHook::new(&[HookPoint::Ascend], |e| first = Some(e.search().board().0[0]));
    /// Hooks::new().add(&mut hook).fire(HookPoint::Ascend, &Toy, Registers::default());
    /// drop(hook);
    /// assert_eq!(first, Some(Toy.peek(Toy.table(Table::Board))));
    /// ```
    fn table(&self, table: Table) -> u16;
    /// The byte at an address of the engine's memory.
    ///
    /// ```
    /// use sargon_core::hooks::{FnHook, HookPoint, Hooks, Registers, SargonMemory, Table};
    /// # mod toy { use sargon_core::hooks::{Pointer, SargonMemory, Table, Var}; pub struct Toy;
    /// # impl SargonMemory for Toy {
    /// #     fn var(&self, v: Var) -> u8 { if v == Var::Nply { 2 } else { 0 } }
    /// #     fn pointer(&self, _: Pointer) -> u16 { 0x100 }
    /// #     fn table(&self, _: Table) -> u16 { 0x200 }
    /// #     fn peek(&self, addr: u16) -> u8 { (addr % 7) as u8 }
    /// # } } use toy::Toy;
    /// // `Toy`: an engine's memory. a1 is the board's byte 21.
    /// let mut a1 = None;
    /// let mut hook = FnHook::new(&[HookPoint::Ascend], |e| a1 = Some(e.search().board().0[21]));
    /// Hooks::new().add(&mut hook).fire(HookPoint::Ascend, &Toy, Registers::default());
    /// drop(hook);
    /// assert_eq!(a1, Some(Toy.peek(Toy.table(Table::Board) + 21)));
    /// ```
    fn peek(&self, addr: u16) -> u8;

    /// For the whole-state comparison ([`crate::state`]): the one-byte variable `name`
    /// (one of [`crate::state::VARIABLES`]), or `None` if the engine does not keep it.
    ///
    /// ```
    /// use sargon_core::hooks::{FnHook, HookPoint, Hooks, Registers, SargonMemory};
    /// use sargon_core::state::{Area, Cell, POINTERS, VARIABLES};
    /// # mod toy { use sargon_core::hooks::{Pointer, SargonMemory, Table, Var}; pub struct Toy;
    /// # impl SargonMemory for Toy {
    /// #     fn var(&self, v: Var) -> u8 { if v == Var::Nply { 2 } else { 0 } }
    /// #     fn pointer(&self, _: Pointer) -> u16 { 0x100 }
    /// #     fn table(&self, _: Table) -> u16 { 0x200 }
    /// #     fn peek(&self, addr: u16) -> u8 { (addr % 7) as u8 }
    /// # } } use toy::Toy;
    /// // `Toy`: an engine's memory that keeps nothing for the whole-state comparison.
    /// let mut cells = Vec::new();
    /// let mut hook = FnHook::new(&[HookPoint::Ascend], |e| cells = e.search().state().cells);
    /// Hooks::new().add(&mut hook).fire(HookPoint::Ascend, &Toy, Registers::default());
    /// drop(hook);
    /// assert_eq!(Toy.state_var(VARIABLES[0]), None);
    /// assert_eq!(cells[0], Cell::NotKept); // the first variable
    /// ```
    fn state_var(&self, name: &str) -> Option<u8> {
        let _ = name;
        None
    }

    /// For the whole-state comparison: the pointer variable `name` (one of
    /// [`crate::state::POINTERS`]) as an address of this engine's memory.
    ///
    /// ```
    /// use sargon_core::hooks::{FnHook, HookPoint, Hooks, Registers, SargonMemory};
    /// use sargon_core::state::{Area, Cell, POINTERS, VARIABLES};
    /// # mod toy { use sargon_core::hooks::{Pointer, SargonMemory, Table, Var}; pub struct Toy;
    /// # impl SargonMemory for Toy {
    /// #     fn var(&self, v: Var) -> u8 { if v == Var::Nply { 2 } else { 0 } }
    /// #     fn pointer(&self, _: Pointer) -> u16 { 0x100 }
    /// #     fn table(&self, _: Table) -> u16 { 0x200 }
    /// #     fn peek(&self, addr: u16) -> u8 { (addr % 7) as u8 }
    /// # } } use toy::Toy;
    /// // `Toy`: an engine's memory that keeps nothing for the whole-state comparison.
    /// let mut cells = Vec::new();
    /// let mut hook = FnHook::new(&[HookPoint::Ascend], |e| cells = e.search().state().cells);
    /// Hooks::new().add(&mut hook).fire(HookPoint::Ascend, &Toy, Registers::default());
    /// drop(hook);
    /// assert_eq!(Toy.state_pointer(POINTERS[0]), None);
    /// assert_eq!(cells[VARIABLES.len()], Cell::NotKept); // the first pointer
    /// ```
    fn state_pointer(&self, name: &str) -> Option<u16> {
        let _ = name;
        None
    }

    /// For the whole-state comparison: where an area of Sargon's data starts in this
    /// engine's memory.
    ///
    /// ```
    /// use sargon_core::hooks::{FnHook, HookPoint, Hooks, Registers, SargonMemory};
    /// use sargon_core::state::{Area, Cell, POINTERS, VARIABLES};
    /// # mod toy { use sargon_core::hooks::{Pointer, SargonMemory, Table, Var}; pub struct Toy;
    /// # impl SargonMemory for Toy {
    /// #     fn var(&self, v: Var) -> u8 { if v == Var::Nply { 2 } else { 0 } }
    /// #     fn pointer(&self, _: Pointer) -> u16 { 0x100 }
    /// #     fn table(&self, _: Table) -> u16 { 0x200 }
    /// #     fn peek(&self, addr: u16) -> u8 { (addr % 7) as u8 }
    /// # } } use toy::Toy;
    /// // `Toy`: an engine's memory that keeps nothing for the whole-state comparison.
    /// let mut cells = Vec::new();
    /// let mut hook = FnHook::new(&[HookPoint::Ascend], |e| cells = e.search().state().cells);
    /// Hooks::new().add(&mut hook).fire(HookPoint::Ascend, &Toy, Registers::default());
    /// drop(hook);
    /// assert_eq!(Toy.area(Area::Tables), None);
    /// assert_eq!(cells[VARIABLES.len() + POINTERS.len()], Cell::NotKept); // DIRECT, the tables' first byte
    /// ```
    fn area(&self, area: Area) -> Option<u16> {
        let _ = area;
        None
    }
}

/// The areas of Sargon's data an engine says the address of.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Area {
    /// The table area, from DIRECT (TBASE - 0x80).
    Tables,
    /// The book's moves (BMOVES).
    Book,
    /// The move list (MLIST).
    MoveList,
    /// The zeroed entry MLPTRJ points at before a search (the harness's, in the original;
    /// the port's own).
    Scratch,
}
