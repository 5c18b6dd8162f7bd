//! Sargon's whole data state, in a form two engines can be compared by: the referee's
//! second look, beyond the events.
//!
//! Two engines can emit the same events while their memories differ (a variable left stale
//! that a later search would read). So at any hook point an engine's data can be read as a
//! [`DataState`]: one cell per byte of Sargon's data, in one fixed order, the same for
//! every engine:
//!
//! * the one-byte variables ([`VARIABLES`], by their names in the original), then
//! * the pointer variables ([`POINTERS`]), then
//! * the table area, from DIRECT (TBASE - 0x80) to the end of the ply table (PLYIX + 40):
//!   direction, piece-value and initial-rank tables, the board, the attack and pin lists,
//!   the royalty table, the score table and the ply table; then
//! * the book's 12 bytes (BMOVES), then
//! * the move list's 2,048 bytes (MLIST).
//!
//! An engine keeps these wherever it likes (the original at its assembled addresses, the
//! port in its own byte memory with its own addresses), so a pointer is never compared as an
//! address: it is translated to the area it points into and an offset there
//! ([`Target`]). That applies to the pointer variables and to the ply table's words. The
//! move list is kept as bytes, because its entries start wherever ADMOVE put them (from
//! MLIST for a search, from MLIST+1024 for VALMOV, and stale entries of earlier lists lie
//! beyond); two move-list bytes that differ are the same when they belong to a word that
//! points at the same place in each engine's own areas ([`DataState::same`]). A pointer
//! outside the areas whose high byte is 0 is Sargon's null, whatever its low byte.
//!
//! Engines say where their areas are and what their variables hold through
//! [`crate::hooks::SargonMemory`]; what an engine does not keep is a [`Cell::NotKept`],
//! shown as such and compared as a difference unless the comparison leaves it out by name.

use std::fmt;

pub use crate::memory::Area;
use crate::memory::SargonMemory;

/// The one-byte variables compared, by their names in the original. M1-M4 and T1-T3 are
/// index words in the original whose high byte is the table page: their low byte is the
/// value.
pub const VARIABLES: [&str; 28] = [
    "M1", "M2", "M3", "M4", "T1", "T2", "T3", "NPINS", "KOLOR", "COLOR", "P1", "P2", "P3", "PMATE",
    "MOVENO", "PLYMAX", "NPLY", "CKFLG", "MATEF", "VALM", "BRDC", "PTSL", "PTSW1", "PTSW2", "MTRL",
    "BC0", "MV0", "PTSCK",
];

/// The pointer variables compared.
pub const POINTERS: [&str; 6] = ["MLPTRI", "MLPTRJ", "SCRIX", "BESTM", "MLLST", "MLNXT"];

/// Bytes of the table area: DIRECT (TBASE - 0x80) up to the end of the ply table (PLYIX,
/// TBASE + 0x5F, and its 40 bytes).
pub const TABLE_AREA: u16 = 0x80 + 0x5F + 40;
/// Where the ply table starts in the table area.
const PLYIX_IN_TABLES: u16 = 0x80 + 0x5F;
/// Bytes of the book (BMOVES): four moves of three bytes.
pub const BOOK_AREA: u16 = 12;
/// Bytes of the move list compared (the original's 2,048).
pub const MOVE_LIST_AREA: u16 = 2048;
/// Bytes of one move-list entry: link word, from, to, flags, score.
const ENTRY: u16 = 6;

/// What a pointer points at, as an area and an offset (so two engines' pointers compare
/// equal when they point at the same thing, wherever each keeps it).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// Sargon's null: high byte 0 (the low byte, which Sargon ignores, kept).
    Null(u8),
    /// Into an area, at an offset (for the book, from `BMOVES - 2`, where BESTM points to
    /// read a book move as a move entry).
    In(Area, u16),
    /// Outside every area: the raw address (never equal across engines by design).
    Elsewhere(u16),
}

/// One cell of the state.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// A byte.
    Byte(u8),
    /// A pointer word, translated.
    Pointer(Target),
    /// The second byte of a pointer word (its value is in the cell before).
    PointerHigh,
    /// The engine does not keep this.
    NotKept,
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cell::Byte(b) => write!(f, "{b:02x}"),
            Cell::Pointer(Target::Null(lo)) => write!(f, "null (low byte {lo:02x})"),
            Cell::Pointer(Target::In(Area::Book, off)) => write!(f, "-> BMOVES-2+{off}"),
            Cell::Pointer(Target::In(area, off)) => write!(f, "-> {}+{off}", area_name(*area)),
            Cell::Pointer(Target::Elsewhere(a)) => write!(f, "-> {a:04x} (outside Sargon's areas)"),
            Cell::PointerHigh => f.write_str("(pointer's high byte)"),
            Cell::NotKept => f.write_str("(not kept by this engine)"),
        }
    }
}

fn area_name(area: Area) -> &'static str {
    match area {
        Area::Tables => "DIRECT",
        Area::Book => "BMOVES",
        Area::MoveList => "MLIST",
        Area::Scratch => "the scratch entry",
    }
}

/// Sargon's data at one moment, cell by cell in the fixed order of the module docs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DataState {
    /// The cells.
    pub cells: Vec<Cell>,
    /// Where this engine keeps each area ([`Area`] order: tables, book, move list,
    /// scratch), to tell a relocated pointer in the move list from a different byte.
    bases: [Option<u16>; 4],
}

/// The table area's named parts, by their offset from DIRECT.
const TABLE_NAMES: [(u16, &str); 14] = [
    (0, "DIRECT"),
    (24, "DPOINT"),
    (31, "DCOUNT"),
    (37, "PVALUE"),
    (44, "PIECES"),
    (52, "BOARDA"),
    (172, "WACT"),
    (179, "BACT"),
    (186, "PLISTA"),
    (206, "POSK"),
    (208, "POSQ"),
    (210, "the royalty table's end mark"),
    (211, "SCORE"),
    (PLYIX_IN_TABLES, "PLYIX"),
];

impl DataState {
    /// Read the state of `mem`.
    pub(crate) fn of(mem: &dyn SargonMemory) -> DataState {
        let mut cells = Vec::with_capacity(
            VARIABLES.len() + POINTERS.len() + (TABLE_AREA + BOOK_AREA + MOVE_LIST_AREA) as usize,
        );
        for name in VARIABLES {
            cells.push(mem.state_var(name).map_or(Cell::NotKept, Cell::Byte));
        }
        for name in POINTERS {
            cells.push(
                mem.state_pointer(name)
                    .map_or(Cell::NotKept, |p| Cell::Pointer(target(mem, p))),
            );
        }
        let area = |cells: &mut Vec<Cell>, area: Area, len: u16, words: &dyn Fn(u16) -> bool| {
            let Some(base) = mem.area(area) else {
                cells.extend(std::iter::repeat_n(Cell::NotKept, len as usize));
                return;
            };
            let mut i = 0;
            while i < len {
                let at = base.wrapping_add(i);
                if words(i) && i + 1 < len {
                    let word = u16::from_le_bytes([mem.peek(at), mem.peek(at.wrapping_add(1))]);
                    cells.push(Cell::Pointer(target(mem, word)));
                    cells.push(Cell::PointerHigh);
                    i += 2;
                } else {
                    cells.push(Cell::Byte(mem.peek(at)));
                    i += 1;
                }
            }
        };
        // The ply table holds word pairs; the move list starts each entry with a link word.
        area(&mut cells, Area::Tables, TABLE_AREA, &|i| {
            i >= PLYIX_IN_TABLES && (i - PLYIX_IN_TABLES).is_multiple_of(2)
        });
        area(&mut cells, Area::Book, BOOK_AREA, &|_| false);
        // The move list is kept as bytes: its entries start wherever ADMOVE put them (from
        // MLIST for a search, from MLIST+1024 for VALMOV), so their link words are found
        // when two states are compared ([`DataState::same`]), not here.
        area(&mut cells, Area::MoveList, MOVE_LIST_AREA, &|_| false);
        let bases = [Area::Tables, Area::Book, Area::MoveList, Area::Scratch].map(|a| mem.area(a));
        DataState { cells, bases }
    }

    /// The name of cell `i`: a variable (`NPLY`), or an area and offset (`BOARDA+21`,
    /// `MLIST+126`, `PLYIX+4`).
    ///
    /// ```
    /// use sargon_core::state::{DataState, POINTERS, VARIABLES};
    /// assert_eq!(DataState::name(0), "M1");
    /// let tables = VARIABLES.len() + POINTERS.len();
    /// assert_eq!(DataState::name(tables), "DIRECT");
    /// assert_eq!(DataState::name(tables + 52 + 21), "BOARDA+21"); // a1
    /// ```
    pub fn name(i: usize) -> String {
        let vars = VARIABLES.len();
        let ptrs = vars + POINTERS.len();
        let tables = ptrs + TABLE_AREA as usize;
        let book = tables + BOOK_AREA as usize;
        if i < vars {
            VARIABLES[i].to_string()
        } else if i < ptrs {
            POINTERS[i - vars].to_string()
        } else if i < tables {
            let off = (i - ptrs) as u16;
            let (start, name) = TABLE_NAMES
                .iter()
                .rev()
                .find(|(start, _)| *start <= off)
                .copied()
                .unwrap_or((0, "DIRECT"));
            if off == start {
                name.to_string()
            } else {
                format!("{name}+{}", off - start)
            }
        } else if i < book {
            format!("BMOVES+{}", i - tables)
        } else {
            format!("MLIST+{}", i - book)
        }
    }

    /// Whether cell `i` is the same in `self` and `other`: equal, or, in the move list,
    /// bytes of a pointer word that points at the same place in each engine's own areas
    /// (the word ending or starting at `i`).
    ///
    /// ```
    /// use sargon_core::state::DataState;
    /// use sargon_core::{setup, Book, Engine, FnHook, HookPoint, Hooks, SearchOptions};
    ///
    /// // Sargon's state at the first POINTS, in two searches of the same position.
    /// let first_state = || -> Result<DataState, Box<dyn std::error::Error>> {
    ///     let mut first = None;
    ///     let mut hook = FnHook::new(&[HookPoint::PointsEnd], |e| {
    ///         first.get_or_insert_with(|| e.search().state());
    ///     });
    ///     let mut hooks = Hooks::new();
    ///     hooks.add(&mut hook);
    ///     let start = setup(&shakmaty::Chess::default(), Book::Off)?;
    ///     sargon_port::Port::new().search(&start, &SearchOptions::depth(1), &mut hooks)?;
    ///     drop(hooks);
    ///     drop(hook);
    ///     Ok(first.unwrap())
    /// };
    /// let (a, b) = (first_state()?, first_state()?);
    /// assert!((0..a.cells.len()).all(|i| a.same(&b, i)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn same(&self, other: &DataState, i: usize) -> bool {
        let (a, b) = (self.cells[i], other.cells[i]);
        if a == b {
            return true;
        }
        let start = self.cells.len() - MOVE_LIST_AREA as usize;
        if i < start {
            return false;
        }
        let byte = |s: &DataState, j: usize| match s.cells.get(j) {
            Some(Cell::Byte(b)) if j >= start => Some(*b),
            _ => None,
        };
        let word_at = |j: usize| -> bool {
            let pair = |s: &DataState| Some(u16::from_le_bytes([byte(s, j)?, byte(s, j + 1)?]));
            match (pair(self), pair(other)) {
                (Some(x), Some(y)) => {
                    let (tx, ty) = (target_in(&self.bases, x), target_in(&other.bases, y));
                    tx == ty && matches!(tx, Target::In(..))
                }
                _ => false,
            }
        };
        word_at(i) || (i > start && word_at(i - 1))
    }

    /// The first cell where `self` and `other` differ, skipping the cells `skip` names.
    ///
    /// ```
    /// use sargon_core::state::{DataState, POINTERS, VARIABLES};
    /// use sargon_core::{parse_position, setup, Book, Engine, FnHook, HookPoint, Hooks, SearchOptions};
    ///
    /// // Sargon's state at the first POINTS of a search of `fen`.
    /// let first_state = |fen: &str| -> Result<DataState, Box<dyn std::error::Error>> {
    ///     let mut first = None;
    ///     let mut hook = FnHook::new(&[HookPoint::PointsEnd], |e| {
    ///         first.get_or_insert_with(|| e.search().state());
    ///     });
    ///     let mut hooks = Hooks::new();
    ///     hooks.add(&mut hook);
    ///     let s = setup(&parse_position(fen)?, Book::Off)?;
    ///     sargon_port::Port::new().search(&s, &SearchOptions::depth(1), &mut hooks)?;
    ///     drop(hooks);
    ///     drop(hook);
    ///     Ok(first.unwrap())
    /// };
    /// let start = first_state("startpos")?;
    /// assert_eq!(start.first_difference(&first_state("startpos")?, &|_| false), None);
    /// let other = first_state("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1")?;
    /// let i = start.first_difference(&other, &|_| false).unwrap();
    /// assert_eq!(DataState::name(i), "BRDC"); // the board control, a variable
    /// // Skipping the variables and pointers, the board: h1, without its rook.
    /// let vars = VARIABLES.len() + POINTERS.len();
    /// let j = start.first_difference(&other, &|j| j < vars).unwrap();
    /// assert_eq!(DataState::name(j), "BOARDA+28");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn first_difference(
        &self,
        other: &DataState,
        skip: &dyn Fn(usize) -> bool,
    ) -> Option<usize> {
        (0..self.cells.len().min(other.cells.len())).find(|&i| !skip(i) && !self.same(other, i))
    }
}

/// Where `pointer` points, in `mem`'s areas. The areas are tried before the null test:
/// in the original the book lies in page 0, and BESTM points at `BMOVES - 2 + 3k` after a
/// book move, an address whose high byte is 0 but which is read as a move entry.
fn target(mem: &dyn SargonMemory, pointer: u16) -> Target {
    let bases = [Area::Tables, Area::Book, Area::MoveList, Area::Scratch].map(|a| mem.area(a));
    target_in(&bases, pointer)
}

/// [`target`], with the areas' bases given ([`Area`] order).
fn target_in(bases: &[Option<u16>; 4], pointer: u16) -> Target {
    for (base, (area, before, len)) in bases.iter().zip([
        (Area::Tables, 0, TABLE_AREA),
        // BESTM reads a book move as an entry starting two bytes before it.
        (Area::Book, 2, BOOK_AREA + 2),
        (Area::MoveList, 0, MOVE_LIST_AREA),
        (Area::Scratch, 0, ENTRY),
    ]) {
        if let Some(base) = base {
            let off = pointer.wrapping_sub(base.wrapping_sub(before));
            if off < len {
                return Target::In(area, off);
            }
        }
    }
    if pointer >> 8 == 0 {
        return Target::Null(pointer as u8);
    }
    Target::Elsewhere(pointer)
}
